// Waiting between attempts: capped exponential backoff with jitter, Retry-After, and sleeps on the
// client's clock that end early when the caller aborts.

import type { Clock } from '@pay/clock';

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
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Resolves with true after `ms` on `clock`, or early with false when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return clock.sleep(Math.max(0, ms), { signal }).then(
    () => true,
    () => false,
  );
}
