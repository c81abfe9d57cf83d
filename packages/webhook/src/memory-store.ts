// The default delivery store: this process's memory, with expiry. Enough for a receiver that runs
// as one process; several instances behind a load balancer share a store instead (redis-store.ts).
import { type Clock, clockOption } from '@pay/clock';
import type { DeliveryStore } from './deliveries.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** The clock entries expire by (`@pay/clock`); the machine's when not given. */
  clock?: Clock | undefined;
}

/**
 * A store in this process's memory, with expiry on the handler's clock.
 * @throws TypeError for a clock that is not a Clock.
 */
export function memoryStore(options: MemoryStoreOptions = {}): DeliveryStore {
  const { now } = clockOption(options.clock, 'memoryStore: clock');
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
