// The checks table's statements: the reconciler's work list (a row per transaction without a
// terminal status, which record_event keeps). Every write after the claim is made only while this
// instance holds the row's lease, so a row another instance took after the lease lapsed is left alone.
import type { Kind } from '../errors.js';
import type { Names } from '../names.js';
import type { Statement } from './statement.js';
import { clockTime } from './text.js';

/** A row of the checks table, by its key. */
export interface CheckKey {
  readonly kind: Kind;
  readonly id: string;
}

/**
 * Up to `batch` rows due by `now` (the clock's; a row without due_at is due `firstCheckMs` after
 * its first status) and not leased then, leased to `owner`, with their transactions' reference_id
 * and status.
 */
export const claimChecks = (n: Names, owner: string, leaseMs: number, firstCheckMs: number, now: Date, batch: number): Statement => ({
  step: 'claim checks',
  text: `UPDATE ${n.checks} c SET lease_owner = $1, lease_until = $4::timestamptz + $2 * interval '1 millisecond'
           FROM (SELECT kind, id FROM ${n.checks}
                  WHERE COALESCE(due_at, since + $3 * interval '1 millisecond') <= $4::timestamptz
                    AND (lease_until IS NULL OR lease_until <= $4::timestamptz)
                  ORDER BY COALESCE(due_at, since + $3 * interval '1 millisecond') LIMIT $5 FOR UPDATE SKIP LOCKED) due,
                ${n.transactions} t
          WHERE c.kind = due.kind AND c.id = due.id AND t.kind = c.kind AND t.id = c.id
          RETURNING c.kind, c.id, t.reference_id, t.status, c.checks, c.since`,
  params: [owner, leaseMs, firstCheckMs, clockTime(now.getTime()), batch],
});

/** A row's next lookup at `nextAt`, after its `checks`th; the lease given back. */
export const rescheduleCheck = (
  n: Names,
  row: CheckKey,
  owner: string,
  checks: number,
  nextAt: Date,
  reason: string | null,
): Statement => ({
  step: 'record check',
  text: `UPDATE ${n.checks} SET checks = $4, due_at = $5::timestamptz, last_error = $6, lease_owner = NULL, lease_until = NULL
        WHERE kind = $1 AND id = $2 AND lease_owner = $3 RETURNING 1`,
  params: [row.kind, row.id, owner, checks, nextAt.toISOString(), reason === null ? null : reason.slice(0, 500)],
});

/** A row given up (too old): removed, never looked up again. */
export const giveUpCheck = (n: Names, row: CheckKey, owner: string): Statement => ({
  step: 'record check',
  text: `DELETE FROM ${n.checks} WHERE kind = $1 AND id = $2 AND lease_owner = $3 RETURNING 1`,
  params: [row.kind, row.id, owner],
});

/** A claimed row given back without a lookup (the pass is ending). */
export const releaseCheck = (n: Names, row: CheckKey, owner: string): Statement => ({
  step: 'release checks',
  text: `UPDATE ${n.checks} SET lease_owner = NULL, lease_until = NULL WHERE kind = $1 AND id = $2 AND lease_owner = $3`,
  params: [row.kind, row.id, owner],
});
