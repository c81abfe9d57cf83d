// Lookups of one instance spaced by at least `gapMs` (its `lookupsPerSecond`), across every pass
// of one reconciler: the service's rate limit is per merchant, and a burst would end in 429s. The
// gap is a wait on the journal's clock, so a test clock skips it with the rest.
import type { Clock } from '@pay/clock';

/**
 * A function that waits until the next lookup may go, or until `signal` ends the pass (then it
 * resolves early; the pass sees its signal and stops).
 */
export function pacer(gapMs: number, clock: Clock): (signal: AbortSignal) => Promise<void> {
  let lastLookup = Number.NEGATIVE_INFINITY;
  return async (signal) => {
    const wait = lastLookup + gapMs - clock.now();
    if (wait > 0) await clock.sleep(wait, { signal }).catch(() => {});
    lastLookup = clock.now();
  };
}
