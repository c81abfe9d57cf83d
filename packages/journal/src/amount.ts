// Exact amounts. The journal stores the amount as PostgreSQL `numeric` from its decimal text: the
// client writes a decimal string into the body digit for digit, and a JS number as JSON writes
// it (its shortest round-trip form), so that text is exactly what the service receives. Never
// through a binary float column.

// A plain decimal (`10`, `10.10`, `0.5`) or JSON's exponent form of a number (`1e-7`).
const DECIMAL = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i;

/** The exact decimal text of an amount, or undefined when it is neither a finite number nor a decimal string. */
export function exactAmount(amount: unknown): string | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) && amount >= 0 ? String(amount) : undefined;
  if (typeof amount === 'string' && amount.length <= 40 && DECIMAL.test(amount)) return amount;
  return undefined;
}

/** True when two decimal texts name the same amount (`10.1` and `10.10`), compared exactly. */
export function sameAmount(a: string, b: string): boolean {
  return normalise(a) === normalise(b);
}

/** A plain decimal without exponent, leading zeros or trailing fractional zeros. */
function normalise(text: string): string {
  const m = /^([0-9]+)(?:\.([0-9]+))?(?:e([+-]?[0-9]+))?$/i.exec(text);
  if (!m) return text;
  let digits = m[1]! + (m[2] ?? '');
  let point = m[1]!.length + Number(m[3] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
