// The merchant's handler and what it receives: the types the event path, the reports and the
// journal's options share. A leaf: it imports nothing of the journal but its kinds and its port.
import type { Kind } from './errors.js';
import type { Query } from './port.js';

/** Where an event came from. */
export type EventSource = 'create' | 'webhook' | 'recovery' | 'reconciler';

/** What the merchant's handler receives: an event the journal has just recorded. */
export interface JournalEvent {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The service's transaction id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** The status this event reports. */
  readonly status: string;
  /** The status recorded before this one (null for the first). */
  readonly previous: string | null;
  /**
   * True when `status` is now the transaction's status; false for an unknown status arriving
   * after a terminal one (delivered, but the terminal status stays).
   */
  readonly change: boolean;
  /** What brought it: the create answer, a webhook, a recovery lookup or a reconciler lookup. */
  readonly source: EventSource;
}

/**
 * The merchant's handler: called once per (transaction, status) inside the transaction that
 * records it. Write with `query` so your writes commit or roll back with the event; throw to roll
 * both back.
 */
export type EventHandler = (event: JournalEvent, query: Query) => unknown;
