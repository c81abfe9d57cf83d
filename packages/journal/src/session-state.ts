// Which statements of a text would change the session rather than the transaction. The handler
// runs on the journal's connection, which later callers reuse (a pool's next checkout, PGlite's
// only connection): a role, a parameter, a prepared statement, a lock or a temporary table the
// handler leaves on the session would be theirs too (`SET ROLE` without LOCAL, and every later
// journal call is refused; `SET default_transaction_read_only = on`, and every later write is).
// Each has a transaction-scoped form that ends with the journal's transaction; the refusal names
// it. Read like transaction control: every statement, under both readings of its strings.
//
// This is the guard that explains. It reads words, so a function of the handler's own can still
// change parameters: those are set back after every handler (session-restore.ts).
import { READINGS, statementsOf } from './statements.js';

/** A session-level statement found in a text, and what to use in a handler instead. */
export interface SessionChange {
  /** Its first words (or the function called), such as `SET ROLE` or `pg_advisory_lock`. */
  readonly statement: string;
  /** What does the same for the journal's transaction only. */
  readonly instead: string;
}

const LOCAL_SET = 'SET LOCAL (or set_config(name, value, true)), which ends with the transaction';
const ENCODING = 'nothing: the driver sends UTF-8, and the encoding must stay UTF8 (on PGlite a multibyte one breaks the instance)';
const TEMPORARY = 'CREATE TEMP TABLE ... ON COMMIT DROP, which ends with the transaction';

/** Statements judged by their first words: a pattern, and the statement's name and what to use instead. */
const FIRST_WORDS: readonly [RegExp, (m: RegExpExecArray) => string, string][] = [
  // SET without LOCAL: the session's value (SET LOCAL, SET CONSTRAINTS and SET TRANSACTION act on
  // the transaction; the last is transaction control). SET LOCAL client_encoding changes how the
  // server decodes the handler's later texts from the driver's UTF-8, so it is refused too.
  [
    /^set (?!local |constraints\b|transaction\b|session characteristics\b)(?:session (?!authorization\b))?(?:(session authorization|role|time zone|names|schema)\b|"?([a-z_][a-z0-9_.]*))/,
    (m) => `SET ${m[1]?.toUpperCase() ?? m[2]}`,
    LOCAL_SET,
  ],
  [/^set local "?(client_encoding|names)\b/, (m) => `SET LOCAL ${m[1]}`, ENCODING],
  [/^reset\b/, () => 'RESET', 'SET LOCAL name TO DEFAULT'],
  [/^discard\b/, () => 'DISCARD', 'nothing: the connection is shared with later callers'],
  [/^deallocate\b/, () => 'DEALLOCATE', "nothing: the connection's prepared statements are the driver's"],
  [/^prepare\b/, () => 'PREPARE', 'a statement with parameters ($1, $2, ...) through query'],
  [/^(listen|unlisten)\b/, (m) => m[1]!.toUpperCase(), 'a connection of your own for notifications (NOTIFY and pg_notify are fine)'],
  [/^load\b/, () => 'LOAD', 'nothing: a library loaded stays in the session'],
  [/^create (or replace )?((global|local) )?(temp|temporary)\b(?!.*\bon commit drop\b)/, () => 'CREATE TEMP', TEMPORARY],
  [/^create\b(?!.*\bon commit drop\b).*\bpg_temp\b/, () => 'CREATE TEMP', TEMPORARY],
  [/^select\b.*\binto (temp|temporary)\b/, () => 'SELECT INTO TEMP', TEMPORARY],
  [/^declare\b.*\bwith hold\b/, () => 'DECLARE ... WITH HOLD', 'a cursor WITHOUT HOLD, which ends with the transaction'],
];

/** A call of a function by name, wherever it stands (qualified or quoted too): `name (`. */
const call = (names: string) => new RegExp(`(?:^|[^a-z0-9_$])"?(${names})"?\\s*\\(`, 'g');

/** Session-level advisory locks: held (or released) past the transaction, on a shared connection. */
const ADVISORY = call('pg_(?:try_)?advisory_lock(?:_shared)?|pg_advisory_unlock(?:_shared|_all)?');

/** set_config: session-level unless its third argument is literally `true`. */
const SET_CONFIG = call('set_config');

/**
 * The first session-level change `text` holds under either reading of its strings, or undefined
 * when it holds none.
 */
export function sessionChangeIn(text: string): SessionChange | undefined {
  for (const reading of READINGS) {
    for (const statement of statementsOf(text, reading)) {
      for (const [pattern, name, instead] of FIRST_WORDS) {
        const match = pattern.exec(statement);
        if (match) return { statement: name(match), instead };
      }
      for (const match of statement.matchAll(ADVISORY)) {
        return { statement: match[1]!, instead: 'pg_advisory_xact_lock or pg_try_advisory_xact_lock, released with the transaction' };
      }
      for (const match of statement.matchAll(SET_CONFIG)) {
        const args = argumentsAt(statement, match.index + match[0].length);
        if (args[2]?.trim() !== 'true')
          return { statement: 'set_config(..., false)', instead: 'set_config(name, value, true), which ends with the transaction' };
        // Its name is in a string, blanked here: any mention of the encoding in the text will do.
        if (/client_encoding/i.test(text)) return { statement: "set_config('client_encoding', ...)", instead: ENCODING };
      }
    }
  }
  return undefined;
}

/** The top-level arguments of the call whose `(` ends just before `from` (strings are blanked, so commas are code). */
function argumentsAt(code: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      args.push(code.slice(start, i));
      start = i + 1;
    } else if (c === ')') {
      args.push(code.slice(start, i));
      return args;
    }
  }
  args.push(code.slice(start));
  return args;
}
