// Writing into a statement's text what is not a parameter: the journal's own constants (a status,
// a kind, an intent state) and the conversion of a timestamp, spelled one way for every statement
// of this folder and for the migrations.
import type { IntentState } from '../intent-states.js';

/**
 * A constant of the journal's own (a status, a kind, an intent state) as SQL text. Constants are
 * written into the text, not passed as parameters, because the planner must see them: a partial
 * index (the intents' by state) serves only a predicate it can prove from the statement, which a
 * parameter's value in a prepared statement's generic plan is not.
 */
export const sqlLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** Constants as a SQL list: `('payin', 'payout')`. */
export const sqlList = (values: readonly string[]): string => `(${values.map(sqlLiteral).join(', ')})`;

/**
 * A time of the journal's clock (unix ms) as a statement's parameter, ISO 8601 in UTC: every
 * statement casts it (`$n::timestamptz`), so each driver sends it the same way. The journal never
 * writes or compares the database's `now()`: its clock is the one a test moves.
 */
export const clockTime = (ms: number): string => new Date(ms).toISOString();

/** A timestamp column as ISO 8601 text in UTC, whatever the session's time zone and driver. */
export const isoText = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An intent state as SQL text: `'in_flight'`; typed, so a state that does not exist does not compile. */
export const sqlState = (state: IntentState): string => sqlLiteral(state);

/** Intent states as a SQL list: `('in_flight', 'unknown')`. */
export const sqlStates = (states: readonly IntentState[]): string => sqlList(states);
