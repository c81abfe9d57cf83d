// One pass of the reconciler: recover() first, then every due row of the checks table, claimed in
// batches with FOR UPDATE SKIP LOCKED and a lease (so every instance may run passes at once and
// no two look the same transaction up together), looked up one at a time at this instance's
// pace, and fed into the one event path. A 429 ends the pass; so does `signal` (the loop
// stopping): the rows claimed and not yet looked up are given back at once.
//
// A backlog can be any size (a receiver down for days leaves every transaction of those days
// pending), so a pass never holds more than one batch: it walks the due rows in order of due time
// with a cursor (the last row claimed), each claim the next `batch` rows after it, read through an
// index (sql/checks.ts). Its memory and each claim's cost stay the same for 100 or 100 000 rows.
import { isTerminalStatus } from '@pay/schema';
import { exactAmount } from '../amount.js';
import type { Context } from '../context.js';
import type { Kind } from '../errors.js';
import { eventReport, recordEvent } from '../events.js';
import { renewer } from '../leases.js';
import type { Query, Row } from '../port.js';
import { describe, isRateLimited, provesMissing } from '../proof.js';
import type { RecoverySummary } from '../recover.js';
import type { CheckReport } from '../report.js';
import {
  type CheckCursor,
  type CheckKey,
  claimChecks,
  FIRST_CHECK,
  giveUpCheck,
  inIndexOrder,
  releaseCheck,
  rescheduleCheck,
} from '../sql/checks.js';
import { run, runIn } from '../sql/statement.js';
import type { ReconcilerSettings } from './options.js';
import type { Schedule } from './schedule.js';
import { upkeep } from './upkeep.js';

/** What one pass did. */
export interface ReconcileSummary {
  /** Transactions looked up. */
  checked: number;
  /** Of those, how many had a status the journal did not (recorded and handled). */
  changed: number;
  /** Of those, how many had nothing new. */
  unchanged: number;
  /** Of those, how many the service did not know (404). */
  notFound: number;
  /** Of those, how many failed (the lookup or the recording); they are looked up again later. */
  failed: number;
  /** Transactions given up (older than `giveUpMs`). */
  gaveUp: number;
  /** True when the service answered 429 and the pass ended early. */
  rateLimited: boolean;
  /** What the pass's `recover()` did with intents left in flight or unknown. */
  recovery: RecoverySummary;
}

/** What a pass needs of its reconciler: the journal, its settings, schedule and pace. */
export interface PassParts {
  readonly ctx: Context;
  readonly settings: ReconcilerSettings;
  readonly schedule: Schedule;
  /** Waits until this instance may make its next lookup (or the pass's signal ends it). */
  readonly pace: (signal: AbortSignal) => Promise<void>;
  readonly recover: () => Promise<RecoverySummary>;
  /** How long a claimed row is held for its one lookup, ms (renewed while the batch goes, leases.ts). */
  readonly leaseMs: number;
}

/** A claimed row, as a lookup uses it. */
interface Claimed extends CheckKey {
  readonly referenceId: string;
  readonly status: string | null;
  /** This lookup's number. */
  readonly checks: number;
  readonly since: Date;
  /** Where the row stands in the pass's walk (the cursor once it is the last of its batch). */
  readonly at: CheckCursor;
  /** Its rank in its batch, in the walk's order (the database's: its collation orders the ids). */
  readonly place: number;
}

/** What comes after a lookup: the next one, or none (terminal, given up, or not ours any more). */
interface Next {
  readonly nextAt: Date | null;
  readonly gaveUp: boolean;
}

const claimedRow = (row: Row): Claimed => ({
  kind: row['kind'] as Kind,
  id: String(row['id']),
  referenceId: String(row['reference_id']),
  status: (row['status'] as string | null) ?? null,
  checks: Number(row['checks']) + 1,
  since: new Date(row['since'] as string),
  at: { due: String(row['due']), kind: String(row['kind']), id: String(row['id']) },
  place: Number(row['place']),
});

/** One pass; it ends early, giving back what it claimed, once `signal` is aborted. */
export async function pass(parts: PassParts, signal: AbortSignal): Promise<ReconcileSummary> {
  const { ctx, settings } = parts;
  const { db, names } = ctx;
  const recovery = await parts.recover();
  // One time for the whole pass, on the journal's clock: what is due, and when each row is next.
  const now = new Date(ctx.clock.now());
  const summary: ReconcileSummary = {
    checked: 0,
    changed: 0,
    unchanged: 0,
    notFound: 0,
    failed: 0,
    gaveUp: 0,
    rateLimited: false,
    recovery,
  };
  const ending = () => signal.aborted || summary.rateLimited;
  let after = FIRST_CHECK;
  while (!ending()) {
    const claimed = await claimBatch(parts, now, after);
    after = claimed.at(-1)?.at ?? after;
    const renew = renewer(db, ctx.clock, { table: names.checks, key: 'id' }, ctx.owner, parts.leaseMs);
    for (const [i, row] of claimed.entries()) {
      if (!ending()) await parts.pace(signal);
      if (ending()) {
        await release(parts, claimed.slice(i));
        break;
      }
      await renew(claimed.slice(i).map((r) => ({ kind: r.kind, key: r.id })));
      await check(parts, row, now, summary);
    }
    if (claimed.length < settings.batch) break;
  }
  if (!signal.aborted) await upkeep(ctx);
  return summary;
}

/** The next batch of the walk: the rows due after `after`, leased to this instance, in the walk's order. */
async function claimBatch(parts: PassParts, now: Date, after: CheckCursor): Promise<Claimed[]> {
  const { ctx, settings } = parts;
  // Due by the pass's time, but leased from the claim's: a pass over a large backlog lasts hours,
  // and a lease counted from its start would have run out before its later rows were looked up.
  const claim = {
    leaseMs: parts.leaseMs,
    firstCheckMs: parts.schedule.firstCheckMs,
    now,
    leasedAt: ctx.clock.now(),
    batch: settings.batch,
    after,
  };
  const rows = await ctx.db.transaction('claim checks', async (query) => {
    await runIn(query, inIndexOrder);
    return runIn(query, claimChecks(ctx.names, ctx.owner, claim));
  });
  return rows.map(claimedRow).sort((a, b) => a.place - b.place);
}

/** Looks one claimed transaction up and records what it finds. */
async function check(parts: PassParts, row: Claimed, now: Date, summary: ReconcileSummary): Promise<void> {
  const { ctx } = parts;
  const { kind, id, referenceId } = row;
  const calls = kind === 'payin' ? ctx.client.payins : ctx.client.payouts;
  let found: { status: unknown; payment?: { amount?: unknown; currency?: unknown } };
  try {
    found = (await calls.get(id)).data;
  } catch (error) {
    if (isRateLimited(error)) {
      summary.rateLimited = true;
      await release(parts, [row]);
      ctx.report({ type: 'rate_limited' });
      return;
    }
    const notFound = provesMissing(error);
    summary.checked++;
    summary[notFound ? 'notFound' : 'failed']++;
    const reason = notFound ? 'the service does not know this id (404)' : describe(error);
    const next = await reschedule(parts, row, now, reason);
    report(ctx, row, { result: notFound ? 'not_found' : 'failed', reason }, next, summary);
    return;
  }
  summary.checked++;
  const input = {
    kind,
    id,
    referenceId,
    status: String(found.status),
    source: 'reconciler',
    amount: exactAmount(found.payment?.amount),
    currency: typeof found.payment?.currency === 'string' ? found.payment.currency : undefined,
  } as const;
  let recorded: Awaited<ReturnType<typeof recordEvent>>;
  let next: Next;
  try {
    ({ recorded, next } = await ctx.db.transaction(
      'record check',
      async (query) => {
        const recorded = await recordEvent(query, ctx.names, input, ctx.handler, ctx.clock.now());
        // A terminal status took the row away with the event; otherwise reschedule it.
        const terminal = recorded.status !== null && isTerminalStatus(recorded.status);
        return { recorded, next: terminal ? { nextAt: null, gaveUp: false } : await rescheduleIn(parts, query, row, now, null) };
      },
      ctx.handler !== undefined,
    ));
  } catch (error) {
    summary.failed++;
    const reason = describe(error);
    report(ctx, row, { result: 'failed', status: input.status, reason }, await reschedule(parts, row, now, reason), summary);
    return;
  }
  const changed = recorded.outcome === 'change' || recorded.outcome === 'delivered';
  summary[changed ? 'changed' : 'unchanged']++;
  ctx.report(eventReport(input, recorded));
  report(ctx, row, { result: changed ? 'changed' : 'unchanged', status: input.status }, next, summary);
}

/** Reports a lookup (after its commit), and the give-up it led to. */
function report(
  ctx: Context,
  row: Claimed,
  what: Pick<CheckReport, 'result' | 'status' | 'reason'>,
  next: Next,
  summary: ReconcileSummary,
) {
  const { kind, id, referenceId, checks } = row;
  ctx.report({ type: 'check', kind, id, referenceId, ...what, checks, nextAt: next.nextAt });
  if (!next.gaveUp) return;
  summary.gaveUp++;
  ctx.report({ type: 'give_up', kind, id, referenceId, status: what.status ?? row.status, checks });
}

/** Reschedules a row after a failed lookup, in a transaction of its own. */
async function reschedule(parts: PassParts, row: Claimed, now: Date, reason: string): Promise<Next> {
  try {
    return await parts.ctx.db.transaction('record check', (query) => rescheduleIn(parts, query, row, now, reason));
  } catch {
    return { nextAt: null, gaveUp: false }; // the database failed too: the lease lapses and a later pass claims it again
  }
}

/**
 * After a lookup, while this instance holds the lease: the row's next lookup, or (past the
 * give-up age) the row removed.
 */
async function rescheduleIn(parts: PassParts, query: Query, row: Claimed, now: Date, reason: string | null): Promise<Next> {
  const { names, owner } = parts.ctx;
  const nextAt = parts.schedule.next(row.checks, row.since, now);
  if (nextAt === null) {
    const gone = await runIn(query, giveUpCheck(names, row, owner));
    return { nextAt: null, gaveUp: gone.length > 0 };
  }
  const kept = await runIn(query, rescheduleCheck(names, row, owner, row.checks, nextAt, reason));
  return { nextAt: kept.length > 0 ? nextAt : null, gaveUp: false };
}

/** Gives claimed rows back without looking them up (the pass is ending). */
async function release(parts: PassParts, rows: readonly CheckKey[]): Promise<void> {
  const { db, names, owner } = parts.ctx;
  for (const row of rows) {
    await run(db, releaseCheck(names, row, owner)).catch(() => {}); // the lease lapses anyway
  }
}
