// Waiting between attempts: capped exponential backoff with jitter, Retry-After, and sleeps that
// end early when the caller aborts.

const BASE_MS = 250;
const CAP_MS = 5_000;

/**
 * The delay before retry number `retry` (1, 2, ...): between half and all of
 * min(5 s, 250 ms * 2^(retry - 1)), at random, so clients that failed together do not retry
 * together.
 */
export function backoffMs(retry: number): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** The delay a `Retry-After` header asks for (seconds, or an HTTP date), in milliseconds. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Resolves after `ms`, or early with false when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
