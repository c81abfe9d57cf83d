// The intents table's statements: a create's intent from its claim to its outcome, and recover()'s
// work on the ones left undecided. Statements that decide an intent check its state (and, for
// recover(), this instance's lease) in their WHERE, so a row decided elsewhere meanwhile is left
// as it is: nothing is ever sent twice. Every time written or compared is `now`, the journal's
// clock (unix ms), passed as a parameter.
import type { Kind } from '../errors.js';
import { UNDECIDED_STATES } from '../intent-states.js';
import type { Names } from '../names.js';
import { PREPARE } from '../port.js';
import type { Statement } from './statement.js';
import { clockTime, isoText, sqlState, sqlStates } from './text.js';

/** A create's intent, as checked and ready to record. */
export interface IntentValues {
  readonly kind: Kind;
  readonly referenceId: string;
  /** Exact decimal text. */
  readonly amount: string;
  readonly currency: string | null;
  readonly digest: string;
}

/**
 * How a claim meets an intent already there (alone or in a group): taken again, with the new
 * body's amount, currency and lease, only when it was proven not created; else left as it is.
 */
const TAKEN_AGAIN_IF_NOT_CREATED = `ON CONFLICT (kind, reference_id) DO UPDATE SET state = ${sqlState('in_flight')}, body_digest = EXCLUDED.body_digest,
         amount = EXCLUDED.amount, currency = EXCLUDED.currency, request = NULL,
         lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until, attempts = i.attempts + 1,
         last_error = NULL, decidable_at = NULL, updated_at = EXCLUDED.updated_at
       WHERE i.state = ${sqlState('not_created')}`;

/**
 * A new intent in flight under `owner`'s lease, or one proven not created taken again with this
 * body's amount and currency. No row back: the intent is there in another state.
 */
export const claimIntent = (n: Names, p: IntentValues, owner: string, leaseMs: number, now: number): Statement => ({
  step: 'record intent',
  text: `${PREPARE}INSERT INTO ${n.intents} AS i (kind, reference_id, amount, currency, body_digest, state, lease_owner, lease_until, attempts,
           created_at, updated_at)
       VALUES ($1, $2, $3::numeric, $4, $5, ${sqlState('in_flight')}, $6, $8::timestamptz + $7 * interval '1 millisecond', 1, $8::timestamptz, $8::timestamptz)
       ${TAKEN_AGAIN_IF_NOT_CREATED}
       RETURNING i.attempts`,
  params: [p.kind, p.referenceId, p.amount, p.currency, p.digest, owner, leaseMs, clockTime(now)],
});

/**
 * {@link claimIntent} for many creates at once (group commit): one statement, one commit. Rows are
 * written in (kind, reference_id) order, so two instances whose groups share rows lock them in the
 * same order and cannot deadlock. Answers the kind and reference_id of each intent claimed; one
 * not answered is there in another state. Each (kind, reference_id) at most once per group: a
 * statement cannot update one row twice (the creates of one journal are joined by reference_id
 * before they get here).
 */
export const claimIntents = (n: Names, ps: readonly IntentValues[], owner: string, leaseMs: number, now: number): Statement => ({
  step: 'record intent',
  text: `${PREPARE}INSERT INTO ${n.intents} AS i (kind, reference_id, amount, currency, body_digest, state, lease_owner, lease_until, attempts,
           created_at, updated_at)
       SELECT b.kind, b.reference_id, b.amount::numeric, b.currency, b.body_digest, ${sqlState('in_flight')}, $2,
              $4::timestamptz + $3 * interval '1 millisecond', 1, $4::timestamptz, $4::timestamptz
         FROM jsonb_to_recordset($1::text::jsonb) AS b(kind text, reference_id text, amount text, currency text, body_digest text)
        ORDER BY b.kind, b.reference_id
       ${TAKEN_AGAIN_IF_NOT_CREATED}
       RETURNING i.kind, i.reference_id`,
  params: [
    JSON.stringify(
      ps.map((p) => ({ kind: p.kind, reference_id: p.referenceId, amount: p.amount, currency: p.currency, body_digest: p.digest })),
    ),
    owner,
    leaseMs,
    clockTime(now),
  ],
});

/**
 * A create recorded in the merchant's transaction: queued with its request until `send` or
 * recover() sends it (after `sendAfterMs`). No row back: the intent is there in another state.
 */
export const queueIntent = (n: Names, p: IntentValues, request: string, sendAfterMs: number, now: number): Statement => ({
  step: 'enqueue',
  text: `INSERT INTO ${n.intents} AS i (kind, reference_id, amount, currency, body_digest, state, request, lease_until, attempts,
           created_at, updated_at)
       VALUES ($1, $2, $3::numeric, $4, $5, ${sqlState('queued')}, $6, $8::timestamptz + $7 * interval '1 millisecond', 0, $8::timestamptz, $8::timestamptz)
       ON CONFLICT (kind, reference_id) DO UPDATE SET state = ${sqlState('queued')}, body_digest = EXCLUDED.body_digest,
         amount = EXCLUDED.amount, currency = EXCLUDED.currency, request = EXCLUDED.request, lease_owner = NULL,
         lease_until = EXCLUDED.lease_until, last_error = NULL, decidable_at = NULL, updated_at = EXCLUDED.updated_at
       WHERE i.state = ${sqlState('not_created')}
       RETURNING 1`,
  params: [p.kind, p.referenceId, p.amount, p.currency, p.digest, request, sendAfterMs, clockTime(now)],
});

/**
 * A queued intent (of table alias `q`) free for `owner` (parameter `$owner`) at `$now`: nobody's,
 * its own, or held past its lease. The one condition of a claim alone and of a group's.
 */
const queuedFreeFor = (q: string, owner: string, now: string) =>
  `${q}.state = ${sqlState('queued')} AND (${q}.lease_owner IS NULL OR ${q}.lease_owner = ${owner} OR ${q}.lease_until <= ${now}::timestamptz)`;

/** A queued create taken to be sent by `owner` (unless another instance holds it): its amount, currency, digest and request. */
export const claimQueued = (n: Names, kind: Kind, referenceId: string, owner: string, leaseMs: number, now: number): Statement => ({
  step: 'claim queued',
  text: `${PREPARE}UPDATE ${n.intents} q SET state = ${sqlState('in_flight')}, lease_owner = $3, lease_until = $5::timestamptz + $4 * interval '1 millisecond',
         attempts = q.attempts + 1, updated_at = $5::timestamptz
       WHERE q.kind = $1 AND q.reference_id = $2 AND ${queuedFreeFor('q', '$3', '$5')}
       RETURNING q.amount::text AS amount, q.currency, q.body_digest, q.request`,
  params: [kind, referenceId, owner, leaseMs, clockTime(now)],
});

/**
 * {@link claimQueued} for many queued creates at once (group commit): one statement, one commit,
 * rows locked in (kind, reference_id) order. Answers the kind and reference_id of each one claimed,
 * with its amount, currency, digest and request; one not answered is not queued, or held elsewhere.
 */
export const claimQueuedMany = (
  n: Names,
  keys: readonly { readonly kind: Kind; readonly referenceId: string }[],
  owner: string,
  leaseMs: number,
  now: number,
): Statement => ({
  step: 'claim queued',
  text: `${PREPARE}UPDATE ${n.intents} i SET state = ${sqlState('in_flight')}, lease_owner = $2, lease_until = $4::timestamptz + $3 * interval '1 millisecond',
         attempts = i.attempts + 1, updated_at = $4::timestamptz
       FROM (SELECT q.kind, q.reference_id FROM ${n.intents} q
               JOIN jsonb_to_recordset($1::text::jsonb) AS b(kind text, reference_id text) ON q.kind = b.kind AND q.reference_id = b.reference_id
              WHERE ${queuedFreeFor('q', '$2', '$4')}
              ORDER BY q.kind, q.reference_id FOR UPDATE OF q) due
       WHERE i.kind = due.kind AND i.reference_id = due.reference_id
       RETURNING i.kind, i.reference_id, i.amount::text AS amount, i.currency, i.body_digest, i.request`,
  params: [JSON.stringify(keys.map((k) => ({ kind: k.kind, reference_id: k.referenceId }))), owner, leaseMs, clockTime(now)],
});

/** What an intent already there holds: its state, amount, currency, when it is decidable and why it failed. */
export const readIntentState = (n: Names, kind: Kind, referenceId: string): Statement => ({
  step: 'read intent',
  text: `SELECT state, amount::text AS amount, currency, decidable_at, last_error FROM ${n.intents} WHERE kind = $1 AND reference_id = $2`,
  params: [kind, referenceId],
});

/** The amount and currency recorded under a reference_id (the merchant's transaction, for enqueue's conflict check). */
export const readIntentAmount = (n: Names, kind: Kind, referenceId: string): Statement => ({
  step: 'enqueue',
  text: `SELECT amount::text AS amount, currency FROM ${n.intents} WHERE kind = $1 AND reference_id = $2`,
  params: [kind, referenceId],
});

/**
 * An intent and, once created, its transaction, in one statement: state, amount, currency,
 * attempts, decidable_at (ISO text), and the transaction's id, status and next_action.
 */
export const readIntent = (n: Names, kind: Kind, referenceId: string): Statement => ({
  step: 'read intent',
  text: `${PREPARE}SELECT i.state, i.amount::text AS amount, i.currency, i.attempts, ${isoText('i.decidable_at')} AS decidable_at,
              i.transaction_id AS id, t.status, i.next_action
         FROM ${n.intents} i LEFT JOIN ${n.transactions} t ON t.kind = i.kind AND t.id = i.transaction_id
        WHERE i.kind = $1 AND i.reference_id = $2`,
  params: [kind, referenceId],
});

/** A create proven not created (see proof.ts): its reference_id is free again. */
export const settleNotCreated = (n: Names, kind: Kind, referenceId: string, reason: string, now: number): Statement => ({
  step: 'record outcome',
  text: `UPDATE ${n.intents} SET state = ${sqlState('not_created')}, request = NULL, lease_owner = NULL, lease_until = NULL, last_error = $3,
             updated_at = $4::timestamptz
           WHERE kind = $1 AND reference_id = $2 AND state = ${sqlState('in_flight')}`,
  params: [kind, referenceId, reason, clockTime(now)],
});

/** A create whose outcome is unknown: decidable from `decidableAt`, else from the end of its in-flight lease. */
export const settleUnknown = (
  n: Names,
  kind: Kind,
  referenceId: string,
  decidableAt: string | null,
  reason: string,
  now: number,
): Statement => ({
  step: 'record outcome',
  text: `UPDATE ${n.intents} SET state = ${sqlState('unknown')}, decidable_at = COALESCE($3::timestamptz, lease_until), lease_owner = NULL,
             lease_until = NULL, last_error = $4, updated_at = $5::timestamptz
           WHERE kind = $1 AND reference_id = $2 AND state = ${sqlState('in_flight')}`,
  params: [kind, referenceId, decidableAt, reason, clockTime(now)],
});

/**
 * Up to `batch` intents recover() may take now, leased to `owner`: queued or in flight past their
 * lease, or unknown and decidable. FOR UPDATE SKIP LOCKED: instances running at once take different ones.
 */
export const claimUndecided = (n: Names, owner: string, leaseMs: number, batch: number, now: number): Statement => ({
  step: 'claim intents',
  text: `${PREPARE}UPDATE ${n.intents} i SET lease_owner = $1, lease_until = $4::timestamptz + $2 * interval '1 millisecond', updated_at = $4::timestamptz
           FROM (SELECT kind, reference_id FROM ${n.intents}
                  WHERE (state IN ${sqlStates(['queued', 'in_flight'])} AND lease_until <= $4::timestamptz)
                     OR (state = ${sqlState('unknown')} AND decidable_at <= $4::timestamptz
                         AND (lease_until IS NULL OR lease_until <= $4::timestamptz))
                  ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED) due
          WHERE i.kind = due.kind AND i.reference_id = due.reference_id
          RETURNING i.kind, i.reference_id, i.state, i.amount::text AS amount, i.currency`,
  params: [owner, leaseMs, batch, clockTime(now)],
});

/**
 * An intent `owner` holds, proven missing after it became decidable: not created, or queued again
 * when it has a request (the merchant committed to sending it).
 */
export const settleMissing = (n: Names, kind: Kind, referenceId: string, owner: string, now: number): Statement => ({
  step: 'record not created',
  text: `UPDATE ${n.intents} SET state = CASE WHEN request IS NULL THEN ${sqlState('not_created')} ELSE ${sqlState('queued')} END, lease_owner = NULL,
               lease_until = CASE WHEN request IS NULL THEN NULL ELSE $4::timestamptz END, decidable_at = NULL,
               last_error = 'not found after it became decidable', updated_at = $4::timestamptz
         WHERE kind = $1 AND reference_id = $2 AND lease_owner = $3 AND state IN ${sqlStates(['in_flight', 'unknown'])}`,
  params: [kind, referenceId, owner, clockTime(now)],
});

/** Why recover() left an intent `owner` holds undecided (kept until its lease lapses). */
export const noteUndecided = (n: Names, kind: Kind, referenceId: string, owner: string, reason: string): Statement => ({
  step: 'record recovery',
  text: `UPDATE ${n.intents} SET last_error = $4 WHERE kind = $1 AND reference_id = $2 AND lease_owner = $3`,
  params: [kind, referenceId, owner, reason.slice(0, 500)],
});

/** How many intents are still undecided, and the earliest time one of them can be taken. */
export const countUndecided = (n: Names): Statement => ({
  step: 'count intents',
  text: `SELECT count(*)::int AS n, min(GREATEST(COALESCE(decidable_at, lease_until), lease_until)) AS next_at
         FROM ${n.intents} WHERE state IN ${sqlStates(UNDECIDED_STATES)}`,
  params: [],
});
