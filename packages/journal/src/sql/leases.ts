// The one statement of leases.ts, for the two tables whose rows are leased (intents by recover(),
// checks by the reconciler): renew the leases `owner` still holds on the rows ahead.
import type { Statement } from './statement.js';
import { clockTime } from './text.js';

/** A table whose rows are leased, by its key columns: the journal's own names, never input. */
export interface Leased {
  readonly table: string;
  readonly key: 'reference_id' | 'id';
}

/** The leases `owner` holds on `ahead` (kind and key of each row), `leaseMs` from `now` (the clock's, unix ms). */
export const renewLeases = (
  { table, key }: Leased,
  owner: string,
  leaseMs: number,
  ahead: readonly { kind: string; key: string }[],
  now: number,
): Statement => ({
  step: 'renew leases',
  text: `UPDATE ${table} SET lease_until = $5::timestamptz + $2 * interval '1 millisecond'
          WHERE lease_owner = $1 AND (kind, ${key}) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
  params: [owner, leaseMs, ahead.map((r) => r.kind), ahead.map((r) => r.key), clockTime(now)],
});
