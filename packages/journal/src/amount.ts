// Exact amounts. The journal stores the amount as PostgreSQL `numeric` from its decimal text: the
// client writes a decimal string into the body digit for digit, and a JS number as JSON writes
// it (its shortest round-trip form), so that text is exactly what the service receives. Never
// through a binary float column. Two texts of one amount are compared by `sameDecimal` of
// @pay/schema, the one home of decimal spelling; a decimal string is one by the schema's own
// pattern (POSITIVE_DECIMAL_PATTERN), so the journal takes exactly the strings the client sends.
import { POSITIVE_DECIMAL_PATTERN } from '@pay/schema';

const DECIMAL = new RegExp(POSITIVE_DECIMAL_PATTERN);
// A bound on the text written into a statement: a longer amount string is refused before anything is recorded.
const MAX_DECIMAL_LENGTH = 40;

/** The exact decimal text of an amount, or undefined when it is neither a finite number nor a decimal string. */
export function exactAmount(amount: unknown): string | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) && amount >= 0 ? String(amount) : undefined;
  if (typeof amount === 'string' && amount.length <= MAX_DECIMAL_LENGTH && DECIMAL.test(amount)) return amount;
  return undefined;
}
