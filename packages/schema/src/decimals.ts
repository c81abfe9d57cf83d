// How many decimals an amount has, and how many significant digits a JSON number amount carries,
// read from decimal text and never through arithmetic on binary floating point (10.5 * 100 is
// 1050, but 1.005 * 100 is 100.49999999999999).
//
// A number is judged by the shortest text that reads back as the same number: what
// `JSON.stringify` (and `String`) prints, and so exactly the digits the client puts on the wire.
// `10.5` has one decimal, `0.1 + 0.2` (0.30000000000000004) has seventeen, `1e-7` has seven,
// `1e21` has none. A decimal string is judged by its value: trailing zeros after the dot do not
// count ("10.50" has one decimal, "100.000" none), so a number and a string meaning the same amount
// get the same verdict.

/**
 * A positive decimal written in digits: no sign, no exponent, no leading zeros, at least one
 * non-zero digit. The lookahead only scans forward once, so the check stays linear.
 */
export const POSITIVE_DECIMAL_PATTERN = '^(?=[0-9.]*[1-9])(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$';

/**
 * The most significant digits a JSON number amount may carry: any decimal of at most 15
 * significant digits survives the trip to a binary double and back unchanged (IEEE 754 double,
 * DBL_DIG), so an amount within it is the decimal its writer meant. Beyond it a number may already
 * have been rounded on its way in (12345678901234567 arrives as 12345678901234568); such an
 * amount is written as a decimal string, which carries any number of digits exactly.
 */
export const MAX_NUMBER_DIGITS = 15;

/** The decimals and significant digits of a JSON number, from its shortest round-trip text. */
export function numberDigits(amount: number): { decimals: number; significant: number } {
  const text = String(amount);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  // Significant digits: every digit between the first and the last non-zero one.
  let first = -1;
  let last = -1;
  for (let i = 0; i < mantissa.length; i += 1) {
    const c = mantissa.charCodeAt(i);
    if (c >= 49 && c <= 57) {
      if (first < 0) first = i;
      last = i;
    }
  }
  const significant = first < 0 ? 0 : last - first + 1 - (dot > first && dot < last ? 1 : 0);
  return { decimals: Math.max(0, fraction - exponent), significant };
}

/** The decimals of a decimal string such as "10.50" (1): digits after the dot, trailing zeros left out. */
export function stringDecimals(amount: string): number {
  const dot = amount.indexOf('.');
  if (dot < 0) return 0;
  let end = amount.length;
  while (end > dot + 1 && amount.charCodeAt(end - 1) === 48 /* 0 */) end -= 1;
  return end - dot - 1;
}

/**
 * The one spelling of a decimal's value: plain digits without exponent, leading zeros or trailing
 * fractional zeros (`010.50` and `1.05e1` are both `10.5`). Text that is not an unsigned decimal
 * comes back unchanged. Worked on the digits, never through a binary float.
 */
export function canonicalDecimal(text: string): string {
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

/** True when two decimal texts name the same amount (`10.1` and `10.10`), compared exactly. */
export function sameDecimal(a: string, b: string): boolean {
  return canonicalDecimal(a) === canonicalDecimal(b);
}
