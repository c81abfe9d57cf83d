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
 * Where a pass stands in its walk through the due rows: the order key (due time, kind, id) of the
 * last row it claimed. Each claim takes the rows after it, so a pass reads each due row once,
 * through an index, however long the backlog (see claimChecks).
 */
export interface CheckCursor {
  /** When that row was due, as the database wrote it back (ISO 8601 in UTC, to the microsecond). */
  readonly due: string;
  readonly kind: string;
  readonly id: string;
}

/**
 * Before the first row: every due row comes after it. (The cursor's time is a text parameter, cast
 * in the statement: a driver that writes a timestamptz parameter from a Date cannot write this one.)
 */
export const FIRST_CHECK: CheckCursor = { due: '-infinity', kind: '', id: '' };

/** What a claim needs besides the journal's names and the instance. */
export interface ClaimWindow {
  /** How long each claimed row is leased, ms. */
  readonly leaseMs: number;
  /** A row without due_at is due this long after its first status (`since`), ms. */
  readonly firstCheckMs: number;
  /** The pass's time (the clock's when it began): rows due by then, and not leased then, are claimed. */
  readonly now: Date;
  /** The clock's time of this claim, unix ms: the leases run from it. */
  readonly leasedAt: number;
  readonly batch: number;
  /** Only rows after this one in the order of due time, kind and id. */
  readonly after: CheckCursor;
}

/** A due time as the cursor keeps it: every digit the column has, so no row is read twice. */
const dueText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Run in the claim's transaction, before it: read the rows through the indexes, in their order.
 * The planner chooses by the table's statistics, and a table nobody has analysed yet (PGlite has
 * no autovacuum; a backlog written faster than autovacuum comes round) looks to it like a few
 * rows, cheaper to read whole and sort: every claim then sorts the whole backlog again (at 30 000
 * due rows, 10 ms a claim on PGlite and 6 ms on PostgreSQL, against 1.2 and 0.9 ms through the
 * indexes). Only the scans that ignore an index's order are ruled out: `enable_sort = off` would
 * also weigh the merge's sort of two batches (which no plan avoids) and so blind the planner to
 * every other cost of the statement (on PostgreSQL: a hash join over both whole tables, and JIT).
 */
export const inIndexOrder: Statement = {
  step: 'claim checks',
  text: 'SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off',
  params: [],
};

/**
 * Up to `batch` rows due by `now` and not leased then, the first after `after` in the order of
 * due time, kind and id, leased to `owner` from `leasedAt`; with their transactions' reference_id
 * and status, their due time (for the cursor) and `place`, their rank in that order.
 *
 * Why this shape: a row's due time is due_at, or `since` + firstCheckMs before its first lookup
 * (an option of the reconciler, so no index can hold the sum). The two kinds of row are read
 * apart, each from an index in its own order (the fifth migration's), and merged: each claim reads
 * about `batch` index entries of each, however many rows are due, where one ORDER BY of the sum
 * sorted every due row on every claim (a pass over N rows read N²/batch). The cursor, not the
 * rows' leases, is what moves a pass on, so a row this pass could not lease (another instance
 * holds it) is not read again by every later claim of the pass.
 */
export const claimChecks = (n: Names, owner: string, w: ClaimWindow): Statement => ({
  step: 'claim checks',
  text: `WITH scheduled AS (
           SELECT kind, id, due_at AS due FROM ${n.checks}
            WHERE due_at IS NOT NULL AND due_at <= $4::timestamptz AND (due_at, kind, id) > ($6::text::timestamptz, $7::text, $8::text)
              AND (lease_until IS NULL OR lease_until <= $4::timestamptz)
            ORDER BY due_at, kind, id LIMIT $5 FOR UPDATE SKIP LOCKED),
         unchecked AS (
           SELECT kind, id, since + $3 * interval '1 millisecond' AS due FROM ${n.checks}
            WHERE due_at IS NULL AND since <= $4::timestamptz - $3 * interval '1 millisecond'
              AND (since, kind, id) > ($6::text::timestamptz - $3 * interval '1 millisecond', $7::text, $8::text)
              AND (lease_until IS NULL OR lease_until <= $4::timestamptz)
            ORDER BY since, kind, id LIMIT $5 FOR UPDATE SKIP LOCKED),
         picked AS (
           SELECT kind, id, due, row_number() OVER (ORDER BY due, kind, id) AS place
             FROM (SELECT * FROM scheduled UNION ALL SELECT * FROM unchecked) both_kinds
            ORDER BY due, kind, id LIMIT $5)
       UPDATE ${n.checks} c SET lease_owner = $1, lease_until = $9::timestamptz + $2 * interval '1 millisecond'
         FROM picked, ${n.transactions} t
        WHERE c.kind = picked.kind AND c.id = picked.id AND t.kind = c.kind AND t.id = c.id
        RETURNING c.kind, c.id, t.reference_id, t.status, c.checks, c.since, ${dueText('picked.due')} AS due, picked.place`,
  params: [
    owner,
    w.leaseMs,
    w.firstCheckMs,
    clockTime(w.now.getTime()),
    w.batch,
    w.after.due,
    w.after.kind,
    w.after.id,
    clockTime(w.leasedAt),
  ],
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
