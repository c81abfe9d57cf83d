// Recovery: every intent left in flight (its owner crashed, or its lease ran out) or unknown (an
// OutcomeUnknownError, or an error that proved nothing) is decided once it can be, by a lookup by
// reference_id: found (with the amount and currency sent) means created, and its status goes down
// the event path; missing after the decidable time means not created, since no attempt can still
// be accepted by then. A queued create (enqueue) nobody sent in time is sent; one of those proven
// missing is queued again, since the merchant committed to sending it.
// Intents are claimed with FOR UPDATE SKIP LOCKED and a lease in one statement, so every instance
// may run recover() at once and each intent is looked up by one of them.
import { isSameCreate } from '@pay/schema';
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import type { JournalCreateResult } from './recorded.js';
import type { IntentState } from './intent-states.js';
import { renewer } from './leases.js';
import { optionsObject, wholeOption } from './options.js';
import { recordCreated } from './outcome.js';
import { describe, provesMissing } from './proof.js';
import { claimUndecided, countUndecided, noteUndecided, settleMissing } from './sql/intents.js';
import { run } from './sql/statement.js';
import { traced } from './telemetry.js';

/** What one recover() run did. */
export interface RecoverySummary {
  /** Queued creates (enqueue) that nobody had sent, sent now and created. */
  sent: number;
  /** Intents found on the service and recorded as created. */
  created: number;
  /** Intents proven not created (they may be created again with the same reference_id). */
  notCreated: number;
  /** Intents whose reference_id the service holds with another amount or currency: left unknown, for a person. */
  conflicts: number;
  /** Intents whose lookup, send or recording failed this time; claimed again after the recovery lease. */
  failed: number;
  /** Intents still queued, in flight or unknown and not yet decidable (or held by another instance). */
  waiting: number;
  /** The earliest time one of those becomes decidable, when there is one. */
  nextAt: Date | null;
}

/** Options of recover(). */
export interface RecoverOptions {
  /** Intents claimed per round trip, 1 to 1000 (default 20). */
  batch?: number | undefined;
}

/** recover() of one journal. */
export function recovery(ctx: Context, send: (kind: Kind, referenceId: string) => Promise<JournalCreateResult>) {
  const { db, names } = ctx;

  /** recover(), in a span that ends with the run's counts; work on the clock (`journal.recover`). */
  return (options: RecoverOptions = {}): Promise<RecoverySummary> =>
    ctx.clock.track('journal.recover', () =>
      traced(
        'journal recover',
        {},
        () => recover(options),
        (s) => ({
          'pay.journal.recovery.sent': s.sent,
          'pay.journal.recovery.created': s.created,
          'pay.journal.recovery.not_created': s.notCreated,
          'pay.journal.recovery.conflicts': s.conflicts,
          'pay.journal.recovery.failed': s.failed,
          'pay.journal.recovery.waiting': s.waiting,
        }),
      ),
    );

  async function recover(options: RecoverOptions): Promise<RecoverySummary> {
    const batch = wholeOption(optionsObject(options, 'recover').batch, 'batch', 20, { max: 1000 });
    const summary: RecoverySummary = { sent: 0, created: 0, notCreated: 0, conflicts: 0, failed: 0, waiting: 0, nextAt: null };
    for (;;) {
      const claimed = await run(db, claimUndecided(names, ctx.owner, ctx.recoveryLeaseMs, batch, ctx.clock.now()));
      const renew = renewer(db, ctx.clock, { table: names.intents, key: 'reference_id' }, ctx.owner, ctx.recoveryLeaseMs);
      for (const [i, row] of claimed.entries()) {
        await renew(claimed.slice(i).map((r) => ({ kind: String(r['kind']), key: String(r['reference_id']) })));
        if ((row['state'] as IntentState) === 'queued') {
          summary[await sendQueued(row['kind'] as Kind, row['reference_id'] as string)]++;
          continue;
        }
        const outcome = await decide(
          row['kind'] as Kind,
          row['reference_id'] as string,
          String(row['amount']),
          row['currency'] as string | null,
        );
        summary[outcome]++;
      }
      if (claimed.length < batch) break;
    }
    const left = await run(db, countUndecided(names));
    summary.waiting = Number(left[0]?.['n'] ?? 0);
    const next = left[0]?.['next_at'];
    summary.nextAt = next == null ? null : new Date(next as string);
    return summary;
  }

  /** Looks one claimed intent up and records what that proves. */
  async function decide(
    kind: Kind,
    referenceId: string,
    amount: string,
    currency: string | null,
  ): Promise<'created' | 'notCreated' | 'conflicts' | 'failed'> {
    const calls = kind === 'payin' ? ctx.client.payins : ctx.client.payouts;
    let found: { id: unknown; status: unknown; payment: { amount: unknown; currency: unknown } };
    try {
      found = (await calls.getByReference(referenceId)).data;
    } catch (error) {
      try {
        if (provesMissing(error)) {
          // Only while this instance still holds the lease: another may have taken it after it lapsed.
          await run(db, settleMissing(names, kind, referenceId, ctx.owner, ctx.clock.now()));
          return 'notCreated';
        }
        await note(kind, referenceId, `lookup failed: ${describe(error)}`);
      } catch {
        // The database failed too: the lease lapses and the next recover() tries again.
      }
      return 'failed';
    }
    if (!isSameCreate({ amount, currency }, found.payment)) {
      await note(kind, referenceId, 'the service holds this reference_id with another amount or currency').catch(() => {});
      return 'conflicts';
    }
    try {
      await recordCreated(ctx, {
        kind,
        referenceId,
        data: found,
        amount,
        currency,
        source: 'recovery',
        owner: ctx.owner,
      });
      return 'created';
    } catch {
      return 'failed';
    }
  }

  /** Sends a queued create nobody sent in time (this instance holds it); its failure is recorded as any create's. */
  async function sendQueued(kind: Kind, referenceId: string): Promise<'sent' | 'failed'> {
    try {
      await send(kind, referenceId);
      return 'sent';
    } catch {
      return 'failed';
    }
  }

  /** Keeps an intent undecided with a reason, until its recovery lease lapses. */
  async function note(kind: Kind, referenceId: string, reason: string): Promise<void> {
    await run(db, noteUndecided(names, kind, referenceId, ctx.owner, reason));
  }
}
