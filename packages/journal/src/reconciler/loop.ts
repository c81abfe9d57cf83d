// The reconciler of one journal: finds what the webhooks missed. The service retries a webhook
// four times over about 1 h 46 min and then stops, so a change whose every attempt failed (a
// receiver down, a certificate expired) is known only to the service. The reconciler looks up
// each transaction the journal holds that has no terminal status yet (schedule.ts), in passes
// (pass.ts) that feed what they find into the one event path: the handler sees each
// (transaction, status) once, whether a webhook, a lookup or both brought it, in any order.
//
// This file is the loop around the passes. Each pass has a signal of its own: stop() ends the
// passes under way and waits for them, and a pass started afterwards (a runOnce) is not affected
// by it, nor does it revive the ones stop() ended. The loop waits on the journal's clock (an
// alarm of a loop that runs for ever), and each pass is work on it (`journal.reconcile`), so a
// test clock runs the passes at the times of the schedule and waits for each.
import type { Context } from '../context.js';
import { lookupLeaseMs } from '../leases.js';
import { describe } from '../proof.js';
import type { RecoverySummary } from '../recover.js';
import { traced } from '../telemetry.js';
import { type ReconcilerOptions, readReconcilerOptions } from './options.js';
import { pacer } from './pacer.js';
import { type PassParts, pass, type ReconcileSummary } from './pass.js';
import { scheduleOf } from './schedule.js';

/** The reconciler of one journal: as a loop (`start`/`stop`) or one pass at a time (`runOnce`). */
export interface Reconciler {
  /** One pass: `recover()`, then a lookup of every transaction due. For a cron job or a test. */
  runOnce(): Promise<ReconcileSummary>;
  /** Runs a pass now and then every `everyMs` (each after the last ends) until `stop()`. */
  start(): void;
  /**
   * Ends the loop and every pass under way (each gives back the rows it has not looked up yet):
   * resolves once they have stopped; no timer is left. A later `runOnce` or `start` runs anew.
   */
  stop(): Promise<void>;
}

/** `journal.reconciler(options)`. @throws TypeError naming an unusable option. */
export function reconciler(ctx: Context, recover: () => Promise<RecoverySummary>, options?: ReconcilerOptions): Reconciler {
  const settings = readReconcilerOptions(options);
  const parts: PassParts = {
    ctx,
    settings,
    schedule: scheduleOf(settings),
    pace: pacer(settings.gapMs, ctx.clock),
    recover,
    leaseMs: lookupLeaseMs(ctx.client, settings.gapMs),
  };
  /** The passes under way, each with the controller that ends it. */
  const running = new Map<Promise<unknown>, AbortController>();

  /** One pass, in a span that ends with its counts; tracked on the clock from its first step. */
  function runOnce(): Promise<ReconcileSummary> {
    const controller = new AbortController();
    const done = ctx.clock.track('journal.reconcile', () =>
      traced(
        'journal reconcile',
        {},
        () => pass(parts, controller.signal),
        (s) => ({
          'pay.journal.reconcile.checked': s.checked,
          'pay.journal.reconcile.changed': s.changed,
          'pay.journal.reconcile.failed': s.failed,
          'pay.journal.reconcile.gave_up': s.gaveUp,
          'pay.journal.reconcile.rate_limited': s.rateLimited,
        }),
      ),
    );
    running.set(done, controller);
    const forget = () => void running.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** The loop under way: the cancel of its next pass's alarm, and whether stop() ended it. */
  let loop: { cancel: (() => void) | undefined; stopped: boolean } | undefined;

  /** Runs a pass, then, unless stopped meanwhile, schedules the next `everyMs` after it ended. */
  function tick(current: NonNullable<typeof loop>): void {
    current.cancel = undefined;
    void runOnce()
      .then(
        () => {},
        (error: unknown) => ctx.report({ type: 'pass_failed', reason: describe(error) }),
      )
      .then(() => {
        if (current.stopped) return;
        // A background schedule: it never keeps the process up, and a test clock's runUntilIdle
        // does not wait for it. Its firing reaches the next pass's track() synchronously.
        current.cancel = ctx.clock.alarm(settings.everyMs, () => tick(current), { loop: true, unref: true });
      });
  }

  return Object.freeze({
    runOnce,
    start() {
      if (loop !== undefined) return;
      loop = { cancel: undefined, stopped: false };
      tick(loop);
    },
    async stop() {
      if (loop !== undefined) {
        loop.stopped = true;
        loop.cancel?.();
        loop = undefined;
      }
      const passes = [...running];
      for (const [, controller] of passes) controller.abort();
      await Promise.allSettled(passes.map(([done]) => done));
    },
  });
}
