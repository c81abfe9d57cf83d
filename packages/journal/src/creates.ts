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
import { isSameCreate } from '@pay/schema';
import { exactAmount } from './amount.js';
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import { ReferenceConflictError } from './errors.js';
import type { Query } from './port.js';
import type { JournalCreateResult } from './recorded.js';
import { queueIntent, readIntentAmount } from './sql/intents.js';
import { runIn } from './sql/statement.js';
import { traced } from './telemetry.js';
import { existing } from './create/existing.js';
import { createGroups } from './create/groups.js';
import { inFlight } from './create/joined.js';
import { type Prepared, prepare } from './create/prepare.js';
import { sendThroughClient } from './create/send.js';
import { settleFailure } from './create/settle-failure.js';

/** What a create's span ends with: the transaction, and whether it was sent now or replayed. */
const createAttributes = ({ transaction, replayed }: JournalCreateResult) => ({
  'pay.transaction.id': transaction.id,
  'pay.reference_id': transaction.referenceId,
  'pay.transaction.status': transaction.status,
  'pay.journal.replayed': replayed,
});

/** Creates of one journal: `create`, `enqueue` and `send`, joined per reference_id within this process. */
export function creates(ctx: Context) {
  const { names } = ctx;
  const { joined, othersRunning } = inFlight<JournalCreateResult>();
  const { claim, claimToSend, record } = createGroups(ctx, othersRunning);

  /** A create, in a span (`journal payins.create`) that ends with the transaction and whether it was replayed. */
  function create(kind: Kind, body: Record<string, unknown>, paymentPage: boolean): Promise<JournalCreateResult> {
    return traced(
      `journal ${kind}s.create`,
      { 'pay.transaction.kind': kind },
      async () => {
        const p = await prepare(kind, body, paymentPage, undefined);
        return joined(kind, p.referenceId, p.digest, () => claimAndSend(p));
      },
      createAttributes,
    );
  }

  async function claimAndSend(p: Prepared): Promise<JournalCreateResult> {
    // One statement (shared with the creates claimed meanwhile), committed before anything is sent: a new intent, or an intent proven not
    // created taken again, with this body's amount and currency (nothing exists under its
    // reference_id: it was refused, never sent, or looked up and missing). No row back: someone
    // holds it. A bare statement (one round trip): should it commit after the caller was answered
    // with a timeout, the intent is in flight and never sent, and recover() proves it not created
    // once its lease ends; nothing can be sent twice either way.
    if (!(await claim(p))) return existing(ctx, p.kind, p.referenceId, p);
    return transmit(p);
  }

  /** Sends a claimed intent's create and records what came of it. */
  async function transmit(p: Prepared): Promise<JournalCreateResult> {
    let data: Record<string, unknown>;
    try {
      ({ data } = await sendThroughClient(ctx.client, p));
    } catch (error) {
      await settleFailure(ctx, p.kind, p.referenceId, error);
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

  /**
   * Records a create in the merchant's transaction (`query`): it commits or rolls back with the
   * merchant's own writes, and is sent after the commit by {@link send} (or recover()). Checked
   * here by the client's own check (`payins.check`), since nobody would see the client refuse it
   * later. A repeat with the same amount and currency is accepted as it is; another is a conflict.
   */
  async function enqueue(query: Query, kind: Kind, body: Record<string, unknown>, paymentPage: boolean): Promise<{ referenceId: string }> {
    if (typeof query !== 'function') throw new TypeError(`${kind}s.enqueue: query must be the query function of your transaction`);
    const p = await prepare(kind, body, paymentPage, ctx.client);
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
    if (row === undefined) return existing(ctx, kind, referenceId, undefined);
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
