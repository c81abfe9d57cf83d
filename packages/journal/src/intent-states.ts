// Where a create stands, as the journal records it: one constant, from which the TypeScript type,
// the table's CHECK constraint and every statement's states are derived. Statements write a state
// with sqlState (sql/text.ts), which takes this type, so a state that does not exist does not
// compile. A new state needs a new migration that replaces the CHECK (the third did so for
// `queued`): a migration already applied is never run again.

/** Every state of an intent, in the order of the CHECK constraint. */
export const INTENT_STATES = Object.freeze(['queued', 'in_flight', 'created', 'unknown', 'not_created'] as const);

/**
 * Where a create stands: `queued` (recorded by enqueue, waiting for send or recover()),
 * `in_flight` (sent, or about to be, by this or another instance),
 * `unknown` (its answer was lost: recover() decides it once it can be), `created`, or
 * `not_created` (refused, never sent, or proven missing: its reference_id is free again).
 */
export type IntentState = (typeof INTENT_STATES)[number];

/** The states recover() still has to decide (or send): the ones its partial index covers. */
export const UNDECIDED_STATES = Object.freeze(['queued', 'in_flight', 'unknown'] as const satisfies readonly IntentState[]);
