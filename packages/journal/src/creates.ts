// Creates that survive crashes. The intent (kind, reference_id, exact amount, currency, body
// digest) is recorded before the request leaves, with a lease that outlasts the client's whole
// call; the outcome is recorded when known, and the create answer goes down the one event path. A
// reference_id has one intent: a repeat with the same amount and currency gets what is recorded,
// a different one a ReferenceConflictError, and one while a create is in flight anywhere a
// CreateInFlightError (in this process it joins the running create instead). Nothing is ever sent
// twice: only an intent proven not created may be sent again.
//
// A create may also be recorded inside the merchant's own transaction (`enqueue`): the intent
// waits as `queued`, with its request, and commits or rolls back with the merchant's order. It is
// sent after that commit by `send`, or by recover() on any instance if the process died first.
//
// Round trips to the database, with no handler: one statement before the request (the intent) and
// one after (record_created); with a handler, the second is a transaction around it and the handler.
// Creates running at once share those statements (group commit, see group-commit.ts): the intents
// of all the creates that arrive while one group is on its way are written in the next, and so are
// their outcomes when no handler runs. Each create still leaves only once its own intent committed.
import { InvalidRequestError, type Operation } from '@pay/client';
import {
  CreatePayinRequest,
  CreatePayoutRequest,
  CreatePayoutRequestPaymentPage,
  isSameCreate,
  TRANSACTION_KINDS,
  validate,
} from '@pay/schema';
import { exactAmount } from './amount.js';
import type { Context } from './context.js';
import { bodyDigest } from './digest.js';
import { CreateInFlightError, CreateRefusedError, type Kind, NotRecordedError, ReferenceConflictError } from './errors.js';
import { groupCommit } from './group-commit.js';
import { type Created, recordCreated, recordCreatedTogether, recordedTransaction } from './outcome.js';
import type { IntentState } from './intent-states.js';
import type { Query, Row } from './port.js';
import { decidableAtOf, describe, provesNotCreated } from './proof.js';
import type { RecordedTransaction } from './recorded.js';
import {
  claimIntent,
  claimIntents,
  claimQueued,
  claimQueuedMany,
  type IntentValues,
  queueIntent,
  readIntentAmount,
  readIntentState,
  settleNotCreated,
  settleUnknown,
} from './sql/intents.js';
import { run, runIn } from './sql/statement.js';
import { traced } from './telemetry.js';

/** What a create through the journal resolves with. */
export interface JournalCreateResult {
  /** The transaction as recorded, after the create's event was recorded and handled. */
  readonly transaction: RecordedTransaction;
  /** True when nothing was sent: the reference_id was already created, and this is the record. */
  readonly replayed: boolean;
}

/** A create, checked and ready to record: its reference_id filled in. */
interface Prepared extends IntentValues {
  /** The body as sent, reference_id included. */
  readonly body: Record<string, unknown>;
  /** A payout to the payment page (the client's `paymentPage` option). */
  readonly paymentPage: boolean;
}

/** A random reference_id (UUID v4): the journal must know it before the request leaves. */
const newReferenceId = () => globalThis.crypto.randomUUID();

/** What a create's span ends with: the transaction, and whether it was sent now or replayed. */
const createAttributes = ({ transaction, replayed }: JournalCreateResult) => ({
  'pay.transaction.id': transaction.id,
  'pay.reference_id': transaction.referenceId,
  ...(transaction.status === null ? {} : { 'pay.transaction.status': transaction.status }),
  'pay.journal.replayed': replayed,
});

const operationOf = (kind: Kind): Operation => (kind === 'payin' ? 'payins.create' : 'payouts.create');

/**
 * The most creates one group statement carries (see group-commit.ts). Past a few dozen a larger
 * group saves little (the commit is shared already) and holds its first create's answer longer.
 */
const GROUP_SIZE = 64;

/** A create's key in this process's maps: its kind and reference_id. */
const keyOf = (kind: unknown, referenceId: unknown) => `${String(kind)}\u0000${String(referenceId)}`;

/** Creates of one journal: `create`, `enqueue` and `send`, joined per reference_id within this process. */
export function creates(ctx: Context) {
  const { db, names } = ctx;
  const running = new Map<string, { digest: string | undefined; promise: Promise<JournalCreateResult> }>();
  /** Whether a create or send other than the caller runs in this process: only then may a group gather more. */
  const othersRunning = () => running.size > 1;

  /** Claims an intent (true) or finds it there in another state (false), in a group with the creates running meanwhile. */
  const claim = groupCommit<Prepared, boolean>(
    {
      together: async (ps) => {
        const rows = await run(db, claimIntents(names, ps, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()));
        const claimed = new Set(rows.map((row) => keyOf(row['kind'], row['reference_id'])));
        return ps.map((p) => ({ ok: true, value: claimed.has(keyOf(p.kind, p.referenceId)) }) as const);
      },
      alone: async (p) => (await run(db, claimIntent(names, p, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()))).length > 0,
    },
    GROUP_SIZE,
    othersRunning,
  );

  /** Claims a queued create to send (its row), or finds it not queued or held elsewhere (undefined), in a group with the sends running meanwhile. */
  const claimToSend = groupCommit<{ kind: Kind; referenceId: string }, Row | undefined>(
    {
      together: async (keys) => {
        const rows = await run(db, claimQueuedMany(names, keys, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()));
        const claimed = new Map(rows.map((row) => [keyOf(row['kind'], row['reference_id']), row]));
        return keys.map((k) => ({ ok: true, value: claimed.get(keyOf(k.kind, k.referenceId)) }) as const);
      },
      alone: async (k) => (await run(db, claimQueued(names, k.kind, k.referenceId, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now())))[0],
    },
    GROUP_SIZE,
    othersRunning,
  );

  /**
   * Records a create's outcome. Without a handler, in a group with the outcomes recorded meanwhile;
   * with one, alone: each status commits with its own handler's writes, and one handler's failure
   * rolls back its own event only.
   */
  const record: (created: Created) => Promise<{ transaction: RecordedTransaction }> =
    ctx.handler === undefined
      ? groupCommit<Created, { transaction: RecordedTransaction }>(
          {
            together: (cs) => recordCreatedTogether(ctx, cs),
            alone: (c) => recordCreated(ctx, c),
          },
          GROUP_SIZE,
          othersRunning,
        )
      : (c) => recordCreated(ctx, c);

  /**
   * Runs `start` unless a create of the same reference_id runs here: then joins it, or refuses.
   * A send (`digest` undefined) joins whatever runs; a create joins only a create of the same body
   * (a send's body is the queued one, which this caller may not have given).
   */
  function joined(kind: Kind, referenceId: string, digest: string | undefined, start: () => Promise<JournalCreateResult>) {
    const key = keyOf(kind, referenceId);
    const other = running.get(key);
    if (other !== undefined) {
      if (digest === undefined || other.digest === digest) return other.promise;
      throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
    }
    const promise = start().finally(() => running.delete(key));
    running.set(key, { digest, promise });
    return promise;
  }

  /** A create, in a span (`journal payins.create`) that ends with the transaction and whether it was replayed. */
  function create(kind: Kind, body: Record<string, unknown>, paymentPage: boolean): Promise<JournalCreateResult> {
    return traced(
      `journal ${kind}s.create`,
      { 'pay.transaction.kind': kind },
      async () => {
        const p = await prepare(kind, body, paymentPage, false);
        return joined(kind, p.referenceId, p.digest, () => claimAndSend(p));
      },
      createAttributes,
    );
  }

  /**
   * Checks a body and fills in its reference_id. `strict`: also by the client's own schema, since
   * nobody will see the client refuse it (a queued create is sent later).
   */
  async function prepare(kind: Kind, body: Record<string, unknown>, paymentPage: boolean, strict: boolean): Promise<Prepared> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TypeError(`${kind}s.create: body must be an object`);
    const referenceId = body['reference_id'] === undefined ? newReferenceId() : body['reference_id'];
    if (typeof referenceId !== 'string' || referenceId.length === 0)
      throw new TypeError(`${kind}s.create: reference_id must be a non-empty string`);
    const payment = body['payment'] as { amount?: unknown; currency?: unknown } | undefined;
    const amount = exactAmount(payment?.amount);
    // No amount to record: the client's own error for a body it refuses, before anything is
    // recorded or sent (the client would refuse this amount too, with the same path).
    if (amount === undefined) {
      throw new InvalidRequestError(operationOf(kind), [
        { path: 'payment.amount', message: 'must be a positive number, or a decimal string such as "10.50"' },
      ]);
    }
    const full = { ...body, reference_id: referenceId };
    if (strict) {
      const schema = kind === 'payin' ? CreatePayinRequest : paymentPage ? CreatePayoutRequestPaymentPage : CreatePayoutRequest;
      const checked = validate(schema, full);
      if (!checked.ok) throw new InvalidRequestError(operationOf(kind), checked.errors);
    }
    const currency = typeof payment?.currency === 'string' ? payment.currency : null;
    return { kind, referenceId, amount, currency, digest: bodyDigest(full), body: full, paymentPage };
  }

  async function claimAndSend(p: Prepared): Promise<JournalCreateResult> {
    // One statement (shared with the creates claimed meanwhile), committed before anything is sent: a new intent, or an intent proven not
    // created taken again, with this body's amount and currency (nothing exists under its
    // reference_id: it was refused, never sent, or looked up and missing). No row back: someone
    // holds it. A bare statement (one round trip): should it commit after the caller was answered
    // with a timeout, the intent is in flight and never sent, and recover() proves it not created
    // once its lease ends; nothing can be sent twice either way.
    if (!(await claim(p))) return existing(p.kind, p.referenceId, p);
    return transmit(p);
  }

  /** Sends a claimed intent's create and records what came of it. */
  async function transmit(p: Prepared): Promise<JournalCreateResult> {
    let data: Record<string, unknown>;
    try {
      ({ data } = await sendThroughClient(p));
    } catch (error) {
      await settleFailure(p.kind, p.referenceId, error);
      throw error;
    }
    const answered = exactAmount((data['payment'] as { amount?: unknown } | undefined)?.amount);
    const { transaction } = await record({
      kind: p.kind,
      referenceId: p.referenceId,
      data,
      amount: answered ?? p.amount,
      currency: p.currency,
      source: 'create',
      owner: null,
    });
    return { transaction, replayed: false };
  }

  function sendThroughClient(p: Prepared): Promise<{ data: Record<string, unknown> }> {
    const { payins, payouts } = ctx.client;
    const body = p.body as never;
    if (p.kind === 'payin') return payins.create(body) as Promise<{ data: Record<string, unknown> }>;
    return (p.paymentPage ? payouts.create(body, { paymentPage: true }) : payouts.create(body)) as Promise<{
      data: Record<string, unknown>;
    }>;
  }

  /**
   * The intent already there: what is recorded, a conflict (when `given` is another amount or
   * currency), a refused queued create, or a create in flight.
   */
  async function existing(
    kind: Kind,
    referenceId: string,
    given: Pick<Prepared, 'amount' | 'currency'> | undefined,
  ): Promise<JournalCreateResult> {
    const rows = await run(db, readIntentState(names, kind, referenceId));
    const row = rows[0];
    if (row === undefined) {
      if (given === undefined) {
        // Nothing of this kind: name what the other kind holds under it, a likely mix-up.
        const other = TRANSACTION_KINDS.find((k) => k !== kind)!;
        const elsewhere = (await run(db, readIntentState(names, other, referenceId)))[0];
        throw new NotRecordedError(kind, referenceId, elsewhere && { kind: other, state: elsewhere['state'] as IntentState });
      }
      // Gone between the two statements: impossible, intents are never deleted; say so plainly.
      throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
    }
    const recordedAmount = String(row['amount']);
    const recordedCurrency = (row['currency'] as string | null) ?? null;
    if (given !== undefined && !isSameCreate(given, { amount: recordedAmount, currency: recordedCurrency })) {
      throw new ReferenceConflictError(kind, referenceId, { amount: recordedAmount, currency: recordedCurrency }, given);
    }
    const state = row['state'] as IntentState;
    if (state === 'created') return { transaction: await recordedTransaction(ctx, kind, referenceId), replayed: true };
    if (state === 'not_created' && given === undefined) throw new CreateRefusedError(kind, referenceId, String(row['last_error'] ?? ''));
    const decidable = row['decidable_at'] == null ? undefined : new Date(row['decidable_at'] as string);
    // not_created was re-claimed above unless another instance just did; queued is being sent by another.
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
      await run(
        db,
        provesNotCreated(error)
          ? settleNotCreated(names, kind, referenceId, reason, ctx.clock.now())
          : settleUnknown(names, kind, referenceId, decidableAtOf(error)?.toISOString() ?? null, reason, ctx.clock.now()),
      );
    } catch {
      // The client's error is the one the caller must see; the intent stays in flight and
      // recover() decides it once its lease ends.
    }
  }

  /**
   * Records a create in the merchant's transaction (`query`): it commits or rolls back with the
   * merchant's own writes, and is sent after the commit by {@link send} (or recover()). Checked
   * here by the client's own rules, since nobody would see the client refuse it later. A repeat
   * with the same amount and currency is accepted as it is; another is a conflict.
   */
  async function enqueue(query: Query, kind: Kind, body: Record<string, unknown>, paymentPage: boolean): Promise<{ referenceId: string }> {
    if (typeof query !== 'function') throw new TypeError(`${kind}s.enqueue: query must be the query function of your transaction`);
    const p = await prepare(kind, body, paymentPage, true);
    const request = JSON.stringify(paymentPage ? { body: p.body, paymentPage } : { body: p.body });
    const queued = await runIn(query, queueIntent(names, p, request, ctx.sendQueuedAfterMs, ctx.clock.now()));
    if (queued.length === 0) {
      const rows = await runIn(query, readIntentAmount(names, kind, p.referenceId));
      const recorded = { amount: String(rows[0]?.['amount']), currency: (rows[0]?.['currency'] as string | null) ?? null };
      if (!isSameCreate(p, recorded)) {
        throw new ReferenceConflictError(kind, p.referenceId, recorded, p);
      }
    }
    return { referenceId: p.referenceId };
  }

  /**
   * Sends the create queued under `referenceId`, once: claimed from `queued` by one instance (this
   * process joins its own running send). Already created: the record, replayed. Sent elsewhere
   * right now: CreateInFlightError. Refused earlier: CreateRefusedError. Work of its own on the
   * clock (`journal.send`): the outbox's sends often run in the background, after a commit or
   * from recover(), and a test clock must not move while one is under way.
   */
  function send(kind: Kind, referenceId: string): Promise<JournalCreateResult> {
    if (typeof referenceId !== 'string' || referenceId.length === 0) {
      return Promise.reject(new TypeError(`${kind}s.send: referenceId must be a non-empty string`));
    }
    return ctx.clock.track('journal.send', () =>
      traced(
        `journal ${kind}s.send`,
        { 'pay.transaction.kind': kind },
        () => joined(kind, referenceId, undefined, () => sendQueued(kind, referenceId)),
        createAttributes,
      ),
    );
  }

  async function sendQueued(kind: Kind, referenceId: string): Promise<JournalCreateResult> {
    const row = await claimToSend({ kind, referenceId });
    if (row === undefined) return existing(kind, referenceId, undefined);
    const request = JSON.parse(String(row['request'])) as { body: Record<string, unknown>; paymentPage?: boolean };
    return transmit({
      kind,
      referenceId,
      amount: String(row['amount']),
      currency: (row['currency'] as string | null) ?? null,
      digest: String(row['body_digest']),
      body: request.body,
      paymentPage: request.paymentPage === true,
    });
  }

  return { create, enqueue, send };
}
