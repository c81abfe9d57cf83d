// What a statement of the journal is: its text, its parameters, and the step a DatabaseError names
// when it fails. Each table's statements live in one module of this folder, built from the
// journal's names; the logic calls them by name and never writes SQL itself.
import { DatabaseError, type DatabaseFailure } from '../errors.js';
import type { Guarded } from '../guard.js';
import type { Query, Row } from '../port.js';

/** One statement, ready to run. */
export interface Statement {
  /** What the journal is doing, as a DatabaseError names it (`record intent`, `claim checks`...). */
  readonly step: string;
  readonly text: string;
  readonly params: readonly unknown[];
}

/** Runs a statement on its own (outside any transaction), bounded by the journal's time limit. */
export const run = (db: Guarded, s: Statement): Promise<Row[]> => db.query(s.step, s.text, s.params);

/** Runs a statement with a transaction's query function (the journal's, or the merchant's own). */
export const runIn = (query: Query, s: Statement): Promise<Row[]> => query(s.text, s.params);

/**
 * The row a statement always answers (a call of the journal's functions, a read by key of a row
 * that exists). A driver that answered none has failed in a way the journal cannot read, and gets
 * a DatabaseError of `step`, never a TypeError: `reason` says what may have happened meanwhile
 * (`commit_unknown` for a bare statement that writes: it may have committed).
 */
export function oneRow(rows: readonly Row[], step: string, reason: DatabaseFailure): Row {
  const row = rows[0] as Row | null | undefined;
  if (row === undefined || row === null || typeof row !== 'object') {
    throw new DatabaseError(step, new Error('the statement answered no row'), reason);
  }
  return row;
}
