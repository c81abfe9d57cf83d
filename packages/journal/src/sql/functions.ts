// Calls of the journal's two SQL functions (as the fourth migration defines them), the only
// statements that write events: record_event records one (transaction, status) judged by the
// status order; record_created decides a create's intent and records its status through
// record_event. Both take the time they write from the journal's clock (p_now), and are prepared
// once per connection (PREPARE): they are the hot path.
import { TERMINAL_STATUSES } from '@pay/schema';
import type { Kind } from '../errors.js';
import type { EventSource } from '../handler.js';
import type { Names } from '../names.js';
import { PREPARE } from '../port.js';
import type { Statement } from './statement.js';
import { clockTime } from './text.js';

/**
 * The terminal statuses as the functions take them (p_terminal, comma-separated): a parameter,
 * not text of the functions, so a database migrated before keeps working with the same call, and
 * record_event's first UPDATE keeps the one generic plan it was tuned for.
 */
const TERMINAL_LIST = TERMINAL_STATUSES.join(',');

/** A status of a transaction, as something reported it: what record_event takes. */
export interface EventInput {
  /** Undefined for a webhook: placed by its transaction's row, else its intent's (see `record_event`). */
  readonly kind: Kind | undefined;
  /** The service's transaction id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** The status this event reports. */
  readonly status: string;
  /** What brought it: the create answer, a webhook, a recovery lookup or a reconciler lookup. */
  readonly source: EventSource;
  /** Exact decimal text, when the source knows it (a webhook does not). */
  readonly amount?: string | undefined;
  /** The currency, as sent (ISO 4217). */
  readonly currency?: string | undefined;
}

/** Records an event at `now` (the clock's, unix ms): answers r_outcome, r_previous and r_kind. */
export const callRecordEvent = (n: Names, e: EventInput, now: number): Statement => ({
  step: 'record event',
  text: `${PREPARE}SELECT r_outcome, r_previous, r_kind FROM ${n.recordEvent}($1, $2, $3, $4, $5, $6::numeric, $7, $8, $9::timestamptz)`,
  params: [e.kind ?? null, e.id, e.referenceId, e.status, e.source, e.amount ?? null, e.currency ?? null, TERMINAL_LIST, clockTime(now)],
});

/** `cs` with their indexes, in (kind, reference_id) order: the order record_created locks their rows in. */
const inKeyOrder = <C extends { readonly kind: Kind; readonly referenceId: string }>(cs: readonly C[]) =>
  cs
    .map((c, i) => ({ c, i }))
    .sort(({ c: a }, { c: b }) =>
      a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.referenceId < b.referenceId ? -1 : a.referenceId > b.referenceId ? 1 : 0,
    );

/** A create's outcome, as record_created takes it. */
export interface CreatedValues {
  readonly kind: Kind;
  readonly referenceId: string;
  readonly id: string;
  /** The create answer's next_action as JSON text, or null. */
  readonly nextAction: string | null;
  readonly status: string;
  readonly source: 'create' | 'recovery';
  readonly amount: string;
  readonly currency: string | null;
  /** Only while this instance holds the intent's lease; null: whoever holds it. */
  readonly owner: string | null;
}

/**
 * Decides a create's intent and records its status at `now` (the clock's, unix ms): answers what
 * record_event does, and r_taken (this call decided the intent), r_amount, r_currency and r_next_action.
 */
export const callRecordCreated = (n: Names, c: CreatedValues, now: number): Statement => ({
  step: 'record outcome',
  text: `${PREPARE}SELECT r_outcome, r_previous, r_kind, r_taken, r_amount, r_currency, r_next_action
         FROM ${n.recordCreated}($1, $2, $3, $4::text::jsonb, $5, $6, $7::numeric, $8, $9, $10, $11::timestamptz)`,
  params: [c.kind, c.referenceId, c.id, c.nextAction, c.status, c.source, c.amount, c.currency, c.owner, TERMINAL_LIST, clockTime(now)],
});

/**
 * {@link callRecordCreated} for many creates at once (group commit): one statement, one commit,
 * answering in `r_rows` (JSON text) one object per create: its index in `cs` (`r_index`) beside
 * what record_created answers. The calls run in (kind, reference_id) order, whatever the order of
 * `cs`: the rows are locked in that order, so two instances whose groups share rows cannot
 * deadlock. Creates only: no owner (whoever holds the lease).
 */
export const callRecordCreatedMany = (n: Names, cs: readonly Omit<CreatedValues, 'owner'>[], now: number): Statement => ({
  step: 'record outcome',
  // One row, a JSON array of the answers as text, built once every call has returned: a driver
  // never holds part of a group's answer when a later call fails (postgres.js would hand the rows
  // of a statement that failed midway to the next statement on its connection).
  text: `${PREPARE}SELECT COALESCE(jsonb_agg(jsonb_build_object('r_index', b.i, 'r_outcome', r.r_outcome, 'r_previous', r.r_previous,
           'r_kind', r.r_kind, 'r_taken', r.r_taken, 'r_amount', r.r_amount, 'r_currency', r.r_currency,
           'r_next_action', r.r_next_action) ORDER BY b.i), '[]'::jsonb)::text AS r_rows
         FROM jsonb_to_recordset($1::text::jsonb)
              AS b(i int, kind text, reference_id text, id text, next_action text, status text, source text, amount text, currency text)
        CROSS JOIN LATERAL ${n.recordCreated}(b.kind, b.reference_id, b.id, b.next_action::jsonb, b.status, b.source, b.amount::numeric,
              b.currency, NULL, $2, $3::timestamptz) r`,
  params: [
    JSON.stringify(
      inKeyOrder(cs).map(({ c, i }) => ({
        i,
        kind: c.kind,
        reference_id: c.referenceId,
        id: c.id,
        next_action: c.nextAction, // JSON text, or null (SQL NULL), as record_created takes it alone
        status: c.status,
        source: c.source,
        amount: c.amount,
        currency: c.currency,
      })),
    ),
    TERMINAL_LIST,
    clockTime(now),
  ],
});
