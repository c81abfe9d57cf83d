// Which statements of a text would end or take over the transaction they run in. The text is
// split into statements (statements.ts) under both readings of a backslash in plain strings, so
// that a server with `standard_conforming_strings = off` cannot hide a COMMIT behind `'shop\'s'`;
// only each statement's first words are judged.
import { READINGS, statementsOf } from './statements.js';

/**
 * First words that end or take over a transaction. SAVEPOINT, RELEASE and ROLLBACK TO stay
 * allowed: they act only on savepoints the handler itself made. A DO block or procedure cannot
 * COMMIT inside a transaction block (PostgreSQL refuses it), so they need no rule.
 */
const CONTROL =
  /^(begin|start\s+transaction|commit|end|abort|rollback(?!\s+((work|transaction)\s+)?to\b)|prepare\s+transaction|set\s+transaction|set\s+session\s+characteristics)\b/;

/**
 * The transaction-control statement `text` holds under either reading of its strings (its first
 * words, in capitals, such as `COMMIT`), or undefined when it holds none.
 */
export function transactionControlIn(text: string): string | undefined {
  for (const reading of READINGS) {
    for (const statement of statementsOf(text, reading)) {
      const match = CONTROL.exec(statement);
      if (match) return match[0].toUpperCase();
    }
  }
  return undefined;
}
