// Leases that come back soon after a crash. recover() and the reconciler claim rows in batches
// (one round trip), then work through them one lookup at a time. A lease long enough for the whole
// batch would hide a killed instance's rows for that long; so each row's lease is as long as one
// lookup, and the rows still ahead are renewed as the batch goes, whenever half a lease has passed.
// A crash then gives its rows back within one lease.
//
// The lengths come from the client's own time limits (openJournal refuses a client that does not
// say them), so no default of the client is restated here. Their times are the journal's clock's,
// like every time it writes.
import type { Client } from '@pay/client';
import type { Clock } from '@pay/clock';
import type { Guarded } from './guard.js';
import { MAX_TIMER_MS } from './options.js';
import { type Leased, renewLeases } from './sql/leases.js';
import { run } from './sql/statement.js';

/** Room beyond a call's own time limit: clocks that differ, a slow database, the pacing between lookups. */
const LEASE_MARGIN_MS = 10_000;

/** One lookup's lease (of recover() and the reconciler), with `gapMs` of pacing before it, ms. */
export const lookupLeaseMs = (client: Client, gapMs = 0): number =>
  Math.min(MAX_TIMER_MS, Math.ceil(client.limits.totalTimeoutMs + gapMs + LEASE_MARGIN_MS));

/**
 * A create's in-flight lease: its whole call, then until no attempt can still be accepted by the
 * service (its tolerance, one second of rounding and its settle time), ms.
 */
export function inFlightLeaseMs(client: Client): number {
  const { limits } = client;
  return Math.min(MAX_TIMER_MS, limits.totalTimeoutMs + (limits.toleranceSeconds + 1 + limits.settleSeconds) * 1000 + LEASE_MARGIN_MS);
}

/**
 * A renewer for a claimed batch: call it before each row's lookup with the rows still ahead
 * (that one included); it renews their leases once half a lease has passed on `clock` since the
 * claim or the last renewal. A failed renewal is ignored: the lease lapses, and another instance
 * may look a row up too, which the owner checks on every write make harmless.
 */
export function renewer(db: Guarded, clock: Clock, table: Leased, owner: string, leaseMs: number) {
  let renewedAt = clock.now();
  return async (ahead: readonly { kind: string; key: string }[]): Promise<void> => {
    const now = clock.now();
    if (ahead.length === 0 || now - renewedAt < leaseMs / 2) return;
    renewedAt = now;
    await run(db, renewLeases(table, owner, leaseMs, ahead, now)).catch(() => {});
  };
}
