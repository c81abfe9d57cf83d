// Moving a test clock under work that waits on it (a client's back-offs, a create waiting for its
// decidable time, a reconciler's pacing) only as far as that work needs: in small steps until it
// ends, so the sandbox's own schedule (webhook retries, expiry) is not run hours ahead, as
// `runUntilIdle` would.
import type { TestClock } from '@pay/clock/test-clock';

/** Resolves or rejects as `work` does, the clock moved in steps of `stepMs` until it ended. */
export async function whileClockSteps<T>(clock: TestClock, work: Promise<T>, stepMs = 100): Promise<T> {
  let ended = false;
  const watched = work.finally(() => {
    ended = true;
  });
  watched.catch(() => {}); // observed below; not an unhandled rejection meanwhile
  while (!ended) await clock.advance(stepMs);
  return watched;
}
