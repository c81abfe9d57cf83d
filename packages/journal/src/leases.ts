// Leases that come back soon after a crash. recover() and the reconciler claim rows in batches
// (one round trip), then work through them one lookup at a time. A lease long enough for the whole
// batch would hide a killed instance's rows for that long; so each row's lease is as long as one
// lookup, and the rows still ahead are renewed as the batch goes, whenever half a lease has passed.
// A crash then gives its rows back within one lease.
import type { Guarded } from './guard.js';

/** Room beyond a lookup's own time limit: clocks, a slow database, the pacing between lookups. */
const LEASE_MARGIN_MS = 10_000;

/** One lookup's lease for a client whose whole call is bounded by `totalTimeoutMs`, ms. */
export const lookupLeaseMs = (totalTimeoutMs: number | undefined, gapMs = 0): number =>
  Math.min(2_147_483_647, Math.ceil((totalTimeoutMs ?? 60_000) + gapMs + LEASE_MARGIN_MS));

/** The key columns of a table whose rows are leased: the journal's own names, never input. */
type Keyed = { table: string; key: 'reference_id' | 'id' };

/**
 * A renewer for a claimed batch: call it before each row's lookup with the rows still ahead
 * (that one included); it renews their leases once half a lease has passed since the claim or the
 * last renewal. A failed renewal is ignored: the lease lapses, and another instance may look a
 * row up too, which the owner checks on every write make harmless.
 */
export function renewer(db: Guarded, { table, key }: Keyed, owner: string, leaseMs: number) {
  let renewedAt = Date.now();
  return async (ahead: readonly { kind: string; key: string }[]): Promise<void> => {
    if (ahead.length === 0 || Date.now() - renewedAt < leaseMs / 2) return;
    renewedAt = Date.now();
    await db
      .query(
        'renew leases',
        `UPDATE ${table} SET lease_until = now() + $2 * interval '1 millisecond'
          WHERE lease_owner = $1 AND (kind, ${key}) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
        [owner, leaseMs, ahead.map((r) => r.kind), ahead.map((r) => r.key)],
      )
      .catch(() => {});
  };
}
