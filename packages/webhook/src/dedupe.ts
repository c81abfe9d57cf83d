// Duplicate deliveries. The service retries a webhook until it gets a 2xx (at once, then after
// 15 min, 30 min and 1 h) and signs each attempt anew, and the payload carries no delivery id, so
// a delivery is known by what it says: (transaction id, status). A status change is processed
// once; the same change arriving again is acknowledged without calling the handler.

/** What a store knows of a delivery key. */
export type ClaimResult = 'claimed' | 'in_progress' | 'done';

/**
 * Where delivery keys live. The in-memory store serves one process; several instances behind a
 * load balancer need a shared one: `redisStore` from `@pay/webhook/redis`, or your own.
 * Any failure (a throw, a rejection, a claim answer other than the three values) is a store
 * failure: before the handler ran it is answered 503, so the service retries.
 */
export interface DeliveryStore {
  /**
   * Atomically marks `key` in progress for `leaseMs`, held by `token`, unless it is already known;
   * says what it found. The lease is short so that a receiver that dies while processing does not
   * block the service's later attempts: once it lapses, the next attempt claims the delivery again.
   * `token` is unique to each attempt (the pipeline makes it), so a release can tell whose claim
   * it gives back.
   */
  claim(key: string, leaseMs: number, token: string): ClaimResult | Promise<ClaimResult>;
  /** Marks `key` done, for `ttlMs`. */
  complete(key: string, ttlMs: number): void | Promise<void>;
  /**
   * Gives back the claim on `key` (the handler failed), so the service's next attempt is
   * processed, but only while `token` still holds it: once the lease lapsed another attempt may
   * have claimed the key, and a late release must not hand that claim to a third. A key already
   * marked done stays done.
   */
  release(key: string, token: string): void | Promise<void>;
}

/**
 * How long a processed delivery is remembered: longer than the whole retry schedule (0 + 15 + 30
 * + 60 minutes), with room for a slow receiver and clock drift.
 */
export const DEFAULT_DELIVERY_TTL_MS = 3 * 60 * 60 * 1000;

/**
 * How long a claim on a delivery being processed holds: longer than a handler should take, and
 * shorter than the 15 minutes before the service's second retry, so a delivery whose processing
 * died is processed again by that retry.
 */
export const DEFAULT_PROCESSING_LEASE_MS = 5 * 60 * 1000;

/** The key of a delivery: transaction id and status, unambiguous whatever they contain. */
export function deliveryKey(event: { id: string; status: string }): string {
  return JSON.stringify([event.id, event.status]);
}

/**
 * A store in this process's memory, with expiry. `now` is the clock, unix milliseconds like
 * `Date.now` (the default); tests pass their own to drive a retry schedule.
 */
export function memoryStore(now: () => number = Date.now): DeliveryStore {
  const entries = new Map<string, { state: 'in_progress' | 'done'; expires: number; token?: string }>();
  let sweptAt = now();
  const sweep = (t: number) => {
    // Amortised: at most once a minute, so the map holds only live keys plus a minute's worth.
    if (t - sweptAt < 60_000) return;
    sweptAt = t;
    for (const [key, entry] of entries) if (entry.expires <= t) entries.delete(key);
  };
  return {
    claim(key, leaseMs, token) {
      const t = now();
      sweep(t);
      const entry = entries.get(key);
      if (entry && entry.expires > t) return entry.state;
      entries.set(key, { state: 'in_progress', expires: t + leaseMs, token });
      return 'claimed';
    },
    complete(key, ttlMs) {
      entries.set(key, { state: 'done', expires: now() + ttlMs });
    },
    release(key, token) {
      const entry = entries.get(key);
      if (entry?.state === 'in_progress' && entry.token === token) entries.delete(key);
    },
  };
}
