// The one event path. Webhooks, lookups (recovery) and create answers all come here: one
// (kind, transaction, status) is recorded, judged by the status order, and, when it is a change
// (or an unknown status after a terminal one), handed to the merchant's handler inside the same
// database transaction, with that transaction's query function. A handler that throws rolls the
// event back with its own writes, so the event is handled again by whatever brings it next (the
// service's retry, the next recovery).
import { HandlerFailedError, type Kind } from './errors.js';
import type { Names } from './names.js';
import type { Query } from './port.js';
import type { EventOutcome } from './status-order.js';
import { TERMINAL_STATUSES } from './status-order.js';

/** Where an event came from. */
export type EventSource = 'create' | 'webhook' | 'recovery';

/** A status of a transaction, as something reported it. */
export interface EventInput {
  readonly kind: Kind;
  /** The service's transaction id. */
  readonly id: string;
  readonly referenceId: string;
  readonly status: string;
  readonly source: EventSource;
  /** Exact decimal text, when the source knows it (a webhook does not). */
  readonly amount?: string | undefined;
  readonly currency?: string | undefined;
}

/** What the merchant's handler receives: an event the journal has just recorded. */
export interface JournalEvent {
  readonly kind: Kind;
  readonly id: string;
  readonly referenceId: string;
  readonly status: string;
  /** The status recorded before this one (null for the first). */
  readonly previous: string | null;
  /**
   * True when `status` is now the transaction's status; false for an unknown status arriving
   * after a terminal one (delivered, but the terminal status stays).
   */
  readonly change: boolean;
  readonly source: EventSource;
}

/**
 * The merchant's handler: called once per (transaction, status) inside the transaction that
 * records it. Write with `query` so your writes commit or roll back with the event; throw to roll
 * both back.
 */
export type EventHandler = (event: JournalEvent, query: Query) => unknown;

const TERMINAL_LIST = TERMINAL_STATUSES.join(',');

/**
 * Records `input` inside the caller's transaction (`query`) and hands it to `handler` when it is
 * delivered. Resolves with what recording did.
 *
 * @throws HandlerFailedError when the handler throws (the caller's transaction must roll back).
 */
export async function recordEvent(query: Query, names: Names, input: EventInput, handler: EventHandler | undefined): Promise<EventOutcome> {
  const rows = await query(`SELECT r_outcome, r_previous FROM ${names.recordEvent}($1, $2, $3, $4, $5, $6::numeric, $7, $8)`, [
    input.kind,
    input.id,
    input.referenceId,
    input.status,
    input.source,
    input.amount ?? null,
    input.currency ?? null,
    TERMINAL_LIST,
  ]);
  const outcome = rows[0]?.['r_outcome'] as EventOutcome;
  if (outcome === 'duplicate' || outcome === 'stale' || handler === undefined) return outcome;
  const event: JournalEvent = {
    kind: input.kind,
    id: input.id,
    referenceId: input.referenceId,
    status: input.status,
    previous: (rows[0]?.['r_previous'] as string | null) ?? null,
    change: outcome === 'change',
    source: input.source,
  };
  try {
    await handler(event, query);
  } catch (error) {
    throw new HandlerFailedError(`${input.kind} ${JSON.stringify(input.id)} status ${JSON.stringify(input.status)}`, error);
  }
  return outcome;
}
