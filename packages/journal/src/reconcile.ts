// The reconciler: finds what the webhooks missed. The service retries a webhook four times over
// about 1 h 46 min and then stops, so a change whose every attempt failed (a receiver down, a
// certificate expired) is known only to the service. The reconciler looks up each transaction
// the journal holds that has no terminal status yet, on a schedule that grows from its first
// status, and feeds what it finds into the one event path: the handler sees each (transaction,
// status) once, whether a webhook, a lookup or both brought it, in any order.
//
// Its work list is the checks table, which record_event keeps (a row from a transaction's first
// status until its terminal one). A pass claims due rows with FOR UPDATE SKIP LOCKED and a lease,
// so every instance may reconcile at once and no two look the same transaction up at the same
// time; lookups are spaced (`lookupsPerSecond` per instance); a 429 ends the pass; a transaction
// older than `giveUpMs` is looked up one last time, then reported and left to a person.
import { exactAmount } from './amount.js';
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import { eventReport, recordEvent } from './events.js';
import type { Query } from './port.js';
import type { RecoverySummary } from './recover.js';
import type { CheckReport } from './report.js';
import { lookupLeaseMs, renewer } from './leases.js';
import { describe, isRateLimited, provesMissing } from './proof.js';
import { traced } from './telemetry.js';
import { isTerminal } from './status-order.js';

/** Options of `journal.reconciler()`. Every duration is in milliseconds. */
export interface ReconcilerOptions {
  /**
   * The first lookup of a transaction, this long after its first status was recorded (default
   * 15 min: most changes arrive by webhook well before).
   */
  firstCheckMs?: number;
  /**
   * The longest wait between two lookups of one transaction (default 2 h). Waits double from
   * `firstCheckMs` up to this: with the defaults, lookups at 15 min, 45 min, 1 h 45 min, then
   * every 2 h, so a change whose webhooks all failed is found within 2 h of the change.
   */
  maxIntervalMs?: number;
  /** Age (since the first status) after which a transaction is no longer looked up (default 7 days). */
  giveUpMs?: number;
  /** Lookups per second of this instance, at most (default 5). */
  lookupsPerSecond?: number;
  /** How often `start()` runs a pass (default 60 000). */
  everyMs?: number;
  /** Rows claimed per database round trip (default 10). */
  batch?: number;
  /**
   * The clock of the schedule (default this host's). Against the sandbox, pass its clock
   * (`parseDateTime((await admin.clock()).now)`, with `parseDateTime` of `@pay/schema`: the
   * sandbox writes UTC without an offset), so that moving it forward moves the schedule too.
   */
  now?: () => Date | Promise<Date>;
}

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

/** The reconciler of one journal: as a loop (`start`/`stop`) or one pass at a time (`runOnce`). */
export interface Reconciler {
  /** One pass: `recover()`, then a lookup of every transaction due. For a cron job or a test. */
  runOnce(): Promise<ReconcileSummary>;
  /** Runs a pass now and then every `everyMs` (each after the last ends) until `stop()`. */
  start(): void;
  /** Ends the loop: resolves once the pass under way has stopped; no timer is left. */
  stop(): Promise<void>;
}

const MINUTE = 60_000;

/** Checks one option: a whole number from `min` to 2^31-1, or the default. */
function whole(value: unknown, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 2_147_483_647) {
    throw new TypeError(`${name} must be a whole number from ${min} to 2147483647`);
  }
  return value;
}

/** `journal.reconciler(options)`. */
export function reconciler(ctx: Context, recover: () => Promise<RecoverySummary>, options: ReconcilerOptions = {}): Reconciler {
  if (options === null || typeof options !== 'object') throw new TypeError('reconciler options must be an object');
  const firstCheckMs = whole(options.firstCheckMs, 'firstCheckMs', 15 * MINUTE);
  const maxIntervalMs = whole(options.maxIntervalMs, 'maxIntervalMs', 120 * MINUTE);
  const giveUpMs = whole(options.giveUpMs, 'giveUpMs', 7 * 24 * 60 * MINUTE);
  const everyMs = whole(options.everyMs, 'everyMs', MINUTE);
  const batch = whole(options.batch, 'batch', 10);
  if (batch > 1000) throw new TypeError('batch must be a whole number from 1 to 1000');
  const perSecond = options.lookupsPerSecond ?? 5;
  if (typeof perSecond !== 'number' || !(perSecond > 0 && perSecond <= 1000)) {
    throw new TypeError('lookupsPerSecond must be a number above 0, at most 1000');
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('now must be a function returning a Date');
  const gapMs = 1000 / perSecond;
  // Each claimed row is held for one lookup, renewed while the batch goes (leases.ts).
  const leaseMs = lookupLeaseMs(ctx.client.limits?.totalTimeoutMs, gapMs);
  const { db, names } = ctx;

  /** The wait after the `checks`th lookup: doubling from firstCheckMs, at most maxIntervalMs. */
  const interval = (checks: number) => Math.min(maxIntervalMs, firstCheckMs * 2 ** Math.min(checks, 30));

  async function clock(): Promise<Date> {
    const now = options.now ? await options.now() : new Date();
    if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now() must return a valid Date');
    return now;
  }

  let stopping = false;
  let lastLookup = 0;
  /** Waits until this instance may make its next lookup. */
  async function pace(): Promise<void> {
    const wait = lastLookup + gapMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastLookup = Date.now();
  }

  /** One pass, in a span that ends with its counts. */
  const runOnce = () =>
    traced('journal reconcile', {}, onePass, (s) => ({
      'pay.journal.reconcile.checked': s.checked,
      'pay.journal.reconcile.changed': s.changed,
      'pay.journal.reconcile.failed': s.failed,
      'pay.journal.reconcile.gave_up': s.gaveUp,
      'pay.journal.reconcile.rate_limited': s.rateLimited,
    }));

  async function onePass(): Promise<ReconcileSummary> {
    const recovery = await recover();
    const now = await clock();
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
    while (!stopping && !summary.rateLimited) {
      const claimed = await db.query(
        'claim checks',
        `UPDATE ${names.checks} c SET lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond'
           FROM (SELECT kind, id FROM ${names.checks}
                  WHERE COALESCE(due_at, since + $3 * interval '1 millisecond') <= $4::timestamptz
                    AND (lease_until IS NULL OR lease_until <= now())
                  ORDER BY COALESCE(due_at, since + $3 * interval '1 millisecond') LIMIT $5 FOR UPDATE SKIP LOCKED) due,
                ${names.transactions} t
          WHERE c.kind = due.kind AND c.id = due.id AND t.kind = c.kind AND t.id = c.id
          RETURNING c.kind, c.id, t.reference_id, t.status, c.checks, c.since`,
        [ctx.owner, leaseMs, firstCheckMs, now.toISOString(), batch],
      );
      const renew = renewer(db, { table: names.checks, key: 'id' }, ctx.owner, leaseMs);
      for (const [i, row] of claimed.entries()) {
        if (stopping || summary.rateLimited) {
          await release(claimed.slice(i));
          break;
        }
        await pace();
        await renew(claimed.slice(i).map((r) => ({ kind: String(r['kind']), key: String(r['id']) })));
        await check(
          {
            kind: row['kind'] as Kind,
            id: String(row['id']),
            referenceId: String(row['reference_id']),
            status: (row['status'] as string | null) ?? null,
            checks: Number(row['checks']) + 1,
            since: new Date(row['since'] as string),
          },
          now,
          summary,
        );
      }
      if (claimed.length < batch) break;
    }
    return summary;
  }

  interface Claimed {
    kind: Kind;
    id: string;
    referenceId: string;
    status: string | null;
    /** This lookup's number. */
    checks: number;
    since: Date;
  }

  /** Looks one claimed transaction up and records what it finds. */
  async function check(row: Claimed, now: Date, summary: ReconcileSummary): Promise<void> {
    const { kind, id, referenceId } = row;
    const calls = kind === 'payin' ? ctx.client.payins : ctx.client.payouts;
    let found: { status: unknown; payment?: { amount?: unknown; currency?: unknown } };
    try {
      found = (await calls.get(id)).data;
    } catch (error) {
      if (isRateLimited(error)) {
        summary.rateLimited = true;
        await release([{ kind, id }]);
        ctx.report({ type: 'rate_limited' });
        return;
      }
      const notFound = provesMissing(error);
      summary.checked++;
      summary[notFound ? 'notFound' : 'failed']++;
      const reason = notFound ? 'the service does not know this id (404)' : describe(error);
      const next = await reschedule(row, now, reason);
      report(row, { result: notFound ? 'not_found' : 'failed', reason }, next, summary);
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
      ({ recorded, next } = await db.transaction('record check', async (query) => {
        const recorded = await recordEvent(query, names, input, ctx.handler);
        // A terminal status took the row away with the event; otherwise reschedule it.
        const terminal = recorded.status !== null && isTerminal(recorded.status);
        return { recorded, next: terminal ? { nextAt: null, gaveUp: false } : await rescheduleIn(query, row, now, null) };
      }));
    } catch (error) {
      summary.failed++;
      const reason = describe(error);
      report(row, { result: 'failed', status: input.status, reason }, await reschedule(row, now, reason), summary);
      return;
    }
    const changed = recorded.outcome === 'change' || recorded.outcome === 'delivered';
    summary[changed ? 'changed' : 'unchanged']++;
    ctx.report(eventReport(input, recorded));
    report(row, { result: changed ? 'changed' : 'unchanged', status: input.status }, next, summary);
  }

  /** What comes after a lookup: the next one, or none (terminal, given up, or not ours any more). */
  interface Next {
    nextAt: Date | null;
    gaveUp: boolean;
  }

  /** Reports a lookup (after its commit), and the give-up it led to. */
  function report(row: Claimed, what: Pick<CheckReport, 'result' | 'status' | 'reason'>, next: Next, summary: ReconcileSummary) {
    const { kind, id, referenceId, checks } = row;
    ctx.report({ type: 'check', kind, id, referenceId, ...what, checks, nextAt: next.nextAt });
    if (!next.gaveUp) return;
    summary.gaveUp++;
    ctx.report({ type: 'give_up', kind, id, referenceId, status: what.status ?? row.status, checks });
  }

  /** Reschedules a row after a failed lookup, in a transaction of its own. */
  async function reschedule(row: Claimed, now: Date, reason: string): Promise<Next> {
    try {
      return await db.transaction('record check', (query) => rescheduleIn(query, row, now, reason));
    } catch {
      return { nextAt: null, gaveUp: false }; // the database failed too: the lease lapses and a later pass claims it again
    }
  }

  /**
   * After a lookup, while this instance holds the lease: the row's next lookup, or (older than
   * giveUpMs) the row removed.
   */
  async function rescheduleIn(query: Query, row: Claimed, now: Date, reason: string | null): Promise<Next> {
    const mine = 'kind = $1 AND id = $2 AND lease_owner = $3';
    if (now.getTime() - row.since.getTime() >= giveUpMs) {
      const gone = await query(`DELETE FROM ${names.checks} WHERE ${mine} RETURNING 1`, [row.kind, row.id, ctx.owner]);
      return { nextAt: null, gaveUp: gone.length > 0 };
    }
    const nextAt = new Date(now.getTime() + interval(row.checks));
    const kept = await query(
      `UPDATE ${names.checks} SET checks = $4, due_at = $5::timestamptz, last_error = $6, lease_owner = NULL, lease_until = NULL
        WHERE ${mine} RETURNING 1`,
      [row.kind, row.id, ctx.owner, row.checks, nextAt.toISOString(), reason === null ? null : reason.slice(0, 500)],
    );
    return { nextAt: kept.length > 0 ? nextAt : null, gaveUp: false };
  }

  /** Gives claimed rows back without looking them up (the pass is ending). */
  async function release(rows: readonly Record<string, unknown>[]): Promise<void> {
    for (const row of rows) {
      await db
        .query(
          'release checks',
          `UPDATE ${names.checks} SET lease_owner = NULL, lease_until = NULL WHERE kind = $1 AND id = $2 AND lease_owner = $3`,
          [row['kind'], row['id'], ctx.owner],
        )
        .catch(() => {}); // the lease lapses anyway
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  let pass: Promise<void> | undefined;
  let looping = false;

  function loop(): void {
    timer = undefined;
    pass = runOnce().then(
      () => {},
      (error: unknown) => ctx.report({ type: 'pass_failed', reason: describe(error) }),
    );
    void pass.then(() => {
      pass = undefined;
      if (looping && !stopping) {
        timer = setTimeout(loop, everyMs);
        (timer as { unref?(): void }).unref?.();
      }
    });
  }

  return Object.freeze({
    runOnce: async () => {
      stopping = false;
      return runOnce();
    },
    start() {
      if (looping) return;
      looping = true;
      stopping = false;
      loop();
    },
    async stop() {
      looping = false;
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await pass;
    },
  });
}
