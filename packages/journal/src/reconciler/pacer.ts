// Lookups of one instance spaced by at least `gapMs` (its `lookupsPerSecond`), across every pass
// of one reconciler: the service's rate limit is per merchant, and a burst would end in 429s.

/** A function that waits until the next lookup may go. */
export function pacer(gapMs: number): () => Promise<void> {
  let lastLookup = 0;
  return async () => {
    const wait = lastLookup + gapMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastLookup = Date.now();
  };
}
