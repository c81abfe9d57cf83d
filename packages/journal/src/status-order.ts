// Status order: the one rule for what a status does to a transaction. Webhooks arrive late, twice
// and out of order, and lookups race them, so a status is judged against the one recorded:
//
//   recorded \ arriving | new    | executed/failed/expired | another (unknown) status
//   (none)              | change | change                  | change
//   new                 | -      | change                  | change
//   unknown status      | stale  | change                  | change
//   terminal            | stale  | stale (a different one) | delivered, not recorded as the status
//
// `change`: recorded as the transaction's status and delivered; `delivered`: handed to the handler
// but the terminal status stays; `stale`: recorded as stale, never delivered. The SQL function of
// the first migration applies this table; TERMINAL_STATUSES is passed to it, so this file is the
// one source of which statuses are final.

/** Statuses after which a transaction never changes. */
export const TERMINAL_STATUSES: readonly string[] = Object.freeze(['executed', 'failed', 'expired']);

/** What recording one (transaction, status) did. */
export type EventOutcome = 'change' | 'delivered' | 'stale' | 'duplicate';

/** True for executed, failed and expired. */
export function isTerminal(status: string | null | undefined): boolean {
  return typeof status === 'string' && TERMINAL_STATUSES.includes(status);
}
