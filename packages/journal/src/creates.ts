// Creates that survive crashes. The intent (kind, reference_id, exact amount, currency, body
// digest) commits before the request leaves, with a lease that outlasts the client's whole call;
// the outcome is recorded when known, and the create answer goes down the one event path. A
// reference_id has one intent: a repeat with the same amount and currency gets what is recorded,
// a different one a ReferenceConflictError, and one while a create is in flight anywhere a
// CreateInFlightError (in this process it joins the running create instead). Nothing is ever sent
// twice: only an intent proven not created may be sent again.
import { InvalidRequestError } from '@pay/client';
import { exactAmount, sameAmount } from './amount.js';
import type { Context } from './context.js';
import { bodyDigest } from './digest.js';
import { CreateInFlightError, type Kind, ReferenceConflictError } from './errors.js';
import { eventReport, recordEvent } from './events.js';
import type { EventReport } from './report.js';
import { PREPARE, type Row } from './port.js';
import { decidableAtOf, describe, provesNotCreated } from './proof.js';
import { traced } from './telemetry.js';

/** A transaction as the journal has recorded it. */
export interface RecordedTransaction {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The service's id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** The current status, by the status order. */
  readonly status: string | null;
  /** Exact decimal text, as sent. */
  readonly amount: string | null;
  /** The currency, as sent (ISO 4217). */
  readonly currency: string | null;
  /** The create answer's `next_action` (where to send the customer), when the create answer was received. */
  readonly nextAction: { readonly type: string; readonly url: string } | null;
}

/** What a create through the journal resolves with. */
export interface JournalCreateResult {
  /** The transaction as recorded, after the create's event was recorded and handled. */
  readonly transaction: RecordedTransaction;
  /** True when nothing was sent: the reference_id was already created, and this is the record. */
  readonly replayed: boolean;
}

/** Sends a create through the client (the journal's own call, with its reference_id filled in). */
export type Sender = (body: Record<string, unknown>) => Promise<{ data: Record<string, unknown> }>;

/** A random reference_id (UUID v4): the journal must know it before the request leaves. */
const newReferenceId = () => globalThis.crypto.randomUUID();

/** What a create's span ends with: the transaction, and whether it was sent now or replayed. */
const createAttributes = ({ transaction, replayed }: JournalCreateResult) => ({
  'pay.transaction.id': transaction.id,
  'pay.reference_id': transaction.referenceId,
  ...(transaction.status === null ? {} : { 'pay.transaction.status': transaction.status }),
  'pay.journal.replayed': replayed,
});

/** Creates of one journal: `create(kind, body, send)`, joined per reference_id within this process. */
export function creates(ctx: Context) {
  const { db, names } = ctx;
  const running = new Map<string, { digest: string; promise: Promise<JournalCreateResult> }>();

  async function recorded(kind: Kind, referenceId: string, query = db.query.bind(null, 'read transaction')): Promise<RecordedTransaction> {
    const rows = await query(
      `${PREPARE}SELECT i.transaction_id AS id, t.status, i.amount::text AS amount, i.currency, i.next_action
         FROM ${names.intents} i LEFT JOIN ${names.transactions} t ON t.kind = i.kind AND t.id = i.transaction_id
        WHERE i.kind = $1 AND i.reference_id = $2`,
      [kind, referenceId],
    );
    return toRecorded(kind, referenceId, rows[0]!);
  }

  /** A create, in a span (`journal payins.create`) that ends with the transaction and whether it was replayed. */
  function create(kind: Kind, body: Record<string, unknown>, send: Sender): Promise<JournalCreateResult> {
    return traced(`journal ${kind}s.create`, { 'pay.transaction.kind': kind }, () => untraced(kind, body, send), createAttributes);
  }

  async function untraced(kind: Kind, body: Record<string, unknown>, send: Sender): Promise<JournalCreateResult> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TypeError(`${kind}s.create: body must be an object`);
    const referenceId = body['reference_id'] === undefined ? newReferenceId() : body['reference_id'];
    if (typeof referenceId !== 'string' || referenceId.length === 0)
      throw new TypeError(`${kind}s.create: reference_id must be a non-empty string`);
    const payment = body['payment'] as { amount?: unknown; currency?: unknown } | undefined;
    const amount = exactAmount(payment?.amount);
    // No amount to record: the client's own error for a body it refuses, before anything is
    // recorded or sent (the client would refuse this amount too, with the same path).
    if (amount === undefined) {
      throw new InvalidRequestError(`${kind}s.create`, [
        { path: 'payment.amount', message: 'must be a positive number, or a decimal string such as "10.50"' },
      ]);
    }
    const currency = typeof payment?.currency === 'string' ? payment.currency : null;
    const full = { ...body, reference_id: referenceId };
    const digest = await bodyDigest(full);
    const key = `${kind}\u0000${referenceId}`;
    const joined = running.get(key);
    if (joined !== undefined) {
      if (joined.digest === digest) return joined.promise;
      throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
    }
    const promise = run(kind, referenceId, amount, currency, digest, full, send).finally(() => running.delete(key));
    running.set(key, { digest, promise });
    return promise;
  }

  async function run(
    kind: Kind,
    referenceId: string,
    amount: string,
    currency: string | null,
    digest: string,
    full: Record<string, unknown>,
    send: Sender,
  ): Promise<JournalCreateResult> {
    // One statement, committed before anything is sent: a new intent, or an intent proven not
    // created taken again, with this body's amount and currency (nothing exists under its
    // reference_id: it was refused, never sent, or looked up and missing). No row back: someone
    // holds it.
    // A transaction, not a bare statement: one that answers after the caller's timeout must not
    // commit, or an intent nobody sent would hold the reference_id until recover() frees it.
    const claimed = await db.transaction('record intent', (query) =>
      query(
        `${PREPARE}INSERT INTO ${names.intents} AS i (kind, reference_id, amount, currency, body_digest, state, lease_owner, lease_until, attempts)
       VALUES ($1, $2, $3::numeric, $4, $5, 'in_flight', $6, now() + $7 * interval '1 millisecond', 1)
       ON CONFLICT (kind, reference_id) DO UPDATE SET state = 'in_flight', body_digest = EXCLUDED.body_digest,
         amount = EXCLUDED.amount, currency = EXCLUDED.currency,
         lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until, attempts = i.attempts + 1,
         last_error = NULL, decidable_at = NULL, updated_at = now()
       WHERE i.state = 'not_created'
       RETURNING i.attempts`,
        [kind, referenceId, amount, currency, digest, ctx.owner, ctx.inFlightLeaseMs],
      ),
    );
    if (claimed.length === 0) return existing(kind, referenceId, amount, currency);

    let data: Record<string, unknown>;
    try {
      ({ data } = await send(full));
    } catch (error) {
      await settleFailure(kind, referenceId, error);
      throw error;
    }
    const id = String(data['id']);
    const status = String(data['status']);
    const nextAction = data['next_action'] === undefined ? null : JSON.stringify(data['next_action']);
    let reported: EventReport | undefined;
    const result = await db.transaction('record outcome', async (query) => {
      const updated = await query(
        `${PREPARE}UPDATE ${names.intents} SET state = 'created', transaction_id = $3, next_action = $4::jsonb, lease_owner = NULL,
           lease_until = NULL, decidable_at = NULL, updated_at = now()
         WHERE kind = $1 AND reference_id = $2 AND state IN ('in_flight', 'unknown')
         RETURNING amount::text AS amount, currency, next_action`,
        [kind, referenceId, id, nextAction],
      );
      const answered = (data['payment'] as { amount?: unknown } | undefined)?.amount;
      const input = {
        kind,
        id,
        referenceId,
        status,
        source: 'create',
        amount: exactAmount(answered) ?? amount,
        currency: currency ?? undefined,
      } as const;
      const event = await recordEvent(query, names, input, ctx.handler);
      reported = eventReport(input, event);
      // Everything is known from the two statements; only an intent decided meanwhile (by a
      // recover() elsewhere) is read back.
      const row = updated[0];
      const transaction = row
        ? toRecorded(kind, referenceId, { ...row, id, status: event.status })
        : await recorded(kind, referenceId, query);
      return { transaction, replayed: false };
    });
    ctx.report(reported);
    return result;
  }

  /** The intent already there: what is recorded, a conflict, or a create in flight. */
  async function existing(kind: Kind, referenceId: string, amount: string, currency: string | null): Promise<JournalCreateResult> {
    const rows = await db.query(
      'read intent',
      `SELECT state, amount::text AS amount, currency, decidable_at FROM ${names.intents} WHERE kind = $1 AND reference_id = $2`,
      [kind, referenceId],
    );
    const row = rows[0];
    // Gone between the two statements: impossible, intents are never deleted; say so plainly.
    if (row === undefined) throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
    const recordedAmount = String(row['amount']);
    const recordedCurrency = (row['currency'] as string | null) ?? null;
    if (!sameAmount(recordedAmount, amount) || recordedCurrency !== currency) {
      throw new ReferenceConflictError(kind, referenceId, { amount: recordedAmount, currency: recordedCurrency }, { amount, currency });
    }
    const state = row['state'];
    if (state === 'created') return { transaction: await recorded(kind, referenceId), replayed: true };
    const decidable = row['decidable_at'] == null ? undefined : new Date(row['decidable_at'] as string);
    // not_created was re-claimed above unless another instance just did.
    throw new CreateInFlightError(kind, referenceId, state === 'unknown' ? 'unknown' : 'in_flight', decidable);
  }

  /**
   * Records why a create failed: not created only when the error proves it (see proof.ts), else
   * unknown, decidable when the client says or, for an error that says nothing, when the in-flight
   * lease ends (it outlasts the client's whole call and every attempt's acceptance).
   */
  async function settleFailure(kind: Kind, referenceId: string, error: unknown): Promise<void> {
    const reason = describe(error);
    try {
      if (provesNotCreated(error)) {
        await db.query(
          'record outcome',
          `UPDATE ${names.intents} SET state = 'not_created', lease_owner = NULL, lease_until = NULL, last_error = $3, updated_at = now()
             WHERE kind = $1 AND reference_id = $2 AND state = 'in_flight'`,
          [kind, referenceId, reason],
        );
      } else {
        await db.query(
          'record outcome',
          `UPDATE ${names.intents} SET state = 'unknown', decidable_at = COALESCE($3::timestamptz, lease_until), lease_owner = NULL,
             lease_until = NULL, last_error = $4, updated_at = now()
           WHERE kind = $1 AND reference_id = $2 AND state = 'in_flight'`,
          [kind, referenceId, decidableAtOf(error)?.toISOString() ?? null, reason],
        );
      }
    } catch {
      // The client's error is the one the caller must see; the intent stays in flight and
      // recover() decides it once its lease ends.
    }
  }

  return { create };
}

/** A recorded row as the public shape. */
/** A transaction from a row of the intent joined with its transaction (id, status, amount, currency, next_action). */
export function toRecorded(kind: Kind, referenceId: string, row: Row): RecordedTransaction {
  const next = row['next_action'];
  return {
    kind,
    id: row['id'] as string,
    referenceId,
    status: (row['status'] as string | null) ?? null,
    amount: (row['amount'] as string | null) ?? null,
    currency: (row['currency'] as string | null) ?? null,
    nextAction: (typeof next === 'string' ? JSON.parse(next) : (next ?? null)) as RecordedTransaction['nextAction'],
  };
}
