// The reconciler's schedule: when a transaction without a terminal status is looked up. The first
// lookup comes `firstCheckMs` after its first status (most changes arrive by webhook well
// before); the waits then double up to `maxIntervalMs`; past `giveUpMs` of age a transaction is
// looked up one last time and left to a person. All of it on the journal's clock: `now` is the
// time a pass began, `since` the time the first status was recorded.
import type { ReconcilerSettings } from './options.js';

/** When a transaction is looked up next. */
export interface Schedule {
  /** How long after its first status a transaction is first due, ms (the checks table's due_at NULL). */
  readonly firstCheckMs: number;
  /**
   * The lookup after the `checks`th, made at `now`, of a transaction whose first status was at
   * `since`: its time, or null when the transaction is past the give-up age (no more lookups).
   */
  next(checks: number, since: Date, now: Date): Date | null;
}

/** The schedule of a reconciler's settings. */
export function scheduleOf({ firstCheckMs, maxIntervalMs, giveUpMs }: ReconcilerSettings): Schedule {
  return {
    firstCheckMs,
    next(checks, since, now) {
      if (now.getTime() - since.getTime() >= giveUpMs) return null;
      // Doubling from firstCheckMs (the exponent bounded, so the product stays finite), at most maxIntervalMs.
      return new Date(now.getTime() + Math.min(maxIntervalMs, firstCheckMs * 2 ** Math.min(checks, 30)));
    },
  };
}
