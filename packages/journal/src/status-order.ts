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
// but the terminal status stays; `stale`: recorded as stale, never delivered. The judge function
// of the first migration applies this table, with `new` written in from FIRST_STATUS of
// @pay/schema, and the terminal statuses passed to it on every call from TERMINAL_STATUSES
// (sql/functions.ts): @pay/schema is the one source of which status is first and which are final.

/** The outcomes an event row is kept with (the events table's CHECK is made from this list). */
export const RECORDED_OUTCOMES = Object.freeze(['change', 'delivered', 'stale'] as const);

/** What recording one (transaction, status) did: a kept outcome, or `duplicate` (nothing written). */
export type EventOutcome = (typeof RECORDED_OUTCOMES)[number] | 'duplicate';
