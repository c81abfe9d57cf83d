// Exact amounts. The journal stores the amount as PostgreSQL `numeric` from its decimal text: the
// client writes a decimal string into the body digit for digit, and a JS number as JSON writes
// it (its shortest round-trip form), so that text is exactly what the service receives. Never
// through a binary float column. Two texts of one amount are compared by `sameDecimal` of
// @pay/schema, the one home of decimal spelling.

// A plain decimal (`10`, `10.10`, `0.5`) or JSON's exponent form of a number (`1e-7`).
const DECIMAL = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i;

/** The exact decimal text of an amount, or undefined when it is neither a finite number nor a decimal string. */
export function exactAmount(amount: unknown): string | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) && amount >= 0 ? String(amount) : undefined;
  if (typeof amount === 'string' && amount.length <= 40 && DECIMAL.test(amount)) return amount;
  return undefined;
}
