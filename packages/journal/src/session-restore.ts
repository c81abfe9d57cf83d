// The session's parameters, set back after every handler. session-state.ts refuses the statements
// that change the session, by their words; but a function of the handler's own, or a trigger on
// its table, can still run `set_config('role', 'app', false)`, and the value would outlive the
// journal's transaction on a connection later callers reuse. So the journal reads the parameters
// below when a transaction a handler runs in begins, and, when the handler sent any statement,
// sets each one back at the session level right before COMMIT: what the handler set with SET LOCAL
// ends with the transaction anyway, and what it set for the session is undone when the journal
// commits. Setting back unconditionally (not only what differs) also undoes `SET x = v` followed
// by `SET LOCAL x = <old>`. A handler that throws needs nothing: the rollback undoes its
// session-level SETs too.
//
// Both statements ride in the round trips of BEGIN and COMMIT on pg (the read on postgres.js too,
// whose COMMIT is its own; there setting back is one round trip more). PGlite, in this process,
// reads only when the handler sends its first statement.
//
// The parameters are those that decide whether a later caller's statements run at all, as whom,
// on what, how their text and values are read and written, and whether a commit is durable: not
// every parameter (reading pg_settings costs the server half a millisecond). Left out: the
// journal's own per-transaction limits (statement_timeout, idle_in_transaction_session_timeout,
// set again by every journal transaction; the session's own value is not readable inside it),
// planner and cost settings (they change speed, not results) and superuser-only settings other
// than session_replication_role. The README lists them with what else a function can leave.
import type { Bracket, Query, Row } from './port.js';

/**
 * Read and set back, in this order (the session's user and role first: setting them back first
 * restores the rights to set the rest). A parameter this server does not have (transaction_timeout
 * before PostgreSQL 17) reads as null and is skipped.
 */
const KEPT = [
  'role',
  'search_path',
  'default_transaction_read_only',
  'default_transaction_isolation',
  'default_transaction_deferrable',
  'transaction_timeout',
  'lock_timeout',
  'idle_session_timeout',
  'exit_on_error',
  'synchronous_commit',
  'session_replication_role',
  'row_security',
  'client_encoding',
  'standard_conforming_strings',
  'backslash_quote',
  'DateStyle',
  'IntervalStyle',
  'TimeZone',
  'extra_float_digits',
  'bytea_output',
  'array_nulls',
  'transform_null_equals',
  'xmloption',
  'check_function_bodies',
  'default_tablespace',
  'temp_tablespaces',
  'client_min_messages',
  'application_name',
] as const;

/** Only a superuser may set these: set back only when they differ (a handler without the right cannot have changed them). */
const SUPERUSER_ONLY: ReadonlySet<string> = new Set(['session_replication_role']);

/**
 * One row, a column per parameter (`p0`...), the session's user first. That user is read as
 * `session_user`: PGlite's single-user backend shows its session_authorization parameter empty,
 * which cannot be set back. Every name is qualified (a handler may have moved search_path).
 */
const SNAPSHOT = `SELECT session_user::pg_catalog.text AS p0, ${KEPT.map((name, i) => `pg_catalog.current_setting('${name}', true) AS p${i + 1}`).join(', ')}`;
const NAMES = ['session_authorization', ...KEPT];

/** `value` as a dollar-quoted literal: read the same whatever standard_conforming_strings says. */
function literal(value: string): string {
  let tag = 'v';
  while (value.includes(`$${tag}$`)) tag += 'v';
  return `$${tag}$${value}$${tag}$`;
}

/**
 * The statement that sets every parameter of `snapshot` back for the session, left to right (a
 * target list is evaluated in order). It runs after the handler, whose SET LOCAL search_path may
 * still be in effect: every name is qualified.
 */
function restoreOf(snapshot: readonly (readonly [string, string])[]): string {
  const sets = snapshot.map(([name, value]) => {
    const set = `pg_catalog.set_config('${name}', ${literal(value)}, false)`;
    return SUPERUSER_ONLY.has(name)
      ? `CASE WHEN pg_catalog.current_setting('${name}') IS DISTINCT FROM ${literal(value)} THEN ${set} END`
      : set;
  });
  return `SELECT ${sets.join(', ')}`;
}

/** The parameters of a SNAPSHOT row, [name, value], the ones this server lacks left out. */
function snapshotOf(row: Row | undefined): (readonly [string, string])[] {
  if (row === undefined) throw new Error('@pay/journal: the session parameters could not be read');
  const pairs: (readonly [string, string])[] = [];
  NAMES.forEach((name, i) => {
    const value = row[`p${i}`];
    if (typeof value === 'string') pairs.push([name, value]);
  });
  return pairs;
}

/** The session bracket of one transaction a handler runs in. */
export interface SessionBracket extends Bracket {
  /**
   * Called before each statement of the handler: the first one reads the parameters (with
   * `query`) unless the adapter read them at BEGIN, and every one makes COMMIT set them back.
   */
  use(query: Query): Promise<void>;
}

/** A new session bracket (one per transaction). */
export function sessionBracket(): SessionBracket {
  let snapshot: (readonly [string, string])[] | undefined;
  let reading: Promise<void> | undefined;
  let used = false;
  return {
    atBegin: SNAPSHOT,
    begun(rows) {
      snapshot = snapshotOf(rows[0]);
    },
    async use(query) {
      used = true;
      if (snapshot === undefined) {
        await (reading ??= query(SNAPSHOT).then((rows) => {
          snapshot = snapshotOf(rows[0]);
        }));
      }
    },
    beforeCommit() {
      if (!used) return undefined;
      // Used, yet never read (its read failed): the transaction must not commit what it cannot undo.
      if (snapshot === undefined) throw new Error('@pay/journal: the session parameters were not read; rolled back');
      return restoreOf(snapshot);
    },
  };
}
