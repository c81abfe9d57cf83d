// Whether the body an SDK sent is the one it was asked to send: the same JSON value as the params
// given (whatever the key order or escaping), with the amount written as a JSON number, digit for
// digit the decimal given (never through binary floating point).
import { sameJson } from '../../harness/serialisers.js';

/** A decimal literal as (digits without leading zeros, exponent), or null when it is not one. */
function decimalOf(text: string): { digits: string; exp: number; negative: boolean } | null {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m) return null;
  const fraction = m[3] ?? '';
  let digits = `${m[2]}${fraction}`.replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - fraction.length;
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp++;
  }
  return { digits, exp: digits === '' ? 0 : exp, negative: m[1] === '-' && digits !== '' };
}

/** Whether two decimal texts are the same number, exactly. */
export function sameDecimal(a: string, b: string): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  return x !== null && y !== null && x.digits === y.digits && x.exp === y.exp && x.negative === y.negative;
}

/** The first path where two JSON values differ, with what each has there; null when equal. */
function firstDifference(want: unknown, got: unknown, path = ''): string | null {
  const at = path === '' ? 'the body' : path;
  if (typeof want !== 'object' || want === null || typeof got !== 'object' || got === null) {
    return sameJson(want, got) ? null : `${at} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`;
  }
  if (Array.isArray(want) !== Array.isArray(got)) return `${at} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}`;
  const w = want as Record<string, unknown>;
  const g = got as Record<string, unknown>;
  for (const k of Object.keys(w)) {
    if (!(k in g)) return `${path ? `${path}.` : ''}${k} is missing`;
    const d = firstDifference(w[k], g[k], path ? `${path}.${k}` : k);
    if (d) return d;
  }
  for (const k of Object.keys(g)) if (!(k in w)) return `${path ? `${path}.` : ''}${k} was not given, but sent`;
  return null;
}

/**
 * What is wrong with the body sent for `params`, or null. `params.payment.amount`, when present, is
 * a decimal string that must be sent as a JSON number of exactly that value.
 */
export function bodyProblem(sent: Buffer, params: Record<string, unknown>): string | null {
  let value: unknown;
  try {
    value = JSON.parse(sent.toString('utf8'));
  } catch {
    return `the body sent is not JSON (${sent.length} bytes)`;
  }
  const payment = params['payment'] as { amount?: string } | undefined;
  if (payment?.amount !== undefined) {
    const literal = /"amount"\s*:\s*(-?[0-9][0-9.eE+-]*|"[^"]*")/.exec(sent.toString('utf8'))?.[1];
    if (literal === undefined) return 'payment.amount is missing';
    if (literal.startsWith('"')) return `payment.amount is sent as the JSON string ${literal}; the interface's amounts are JSON numbers`;
    if (!sameDecimal(literal, payment.amount)) {
      return `payment.amount is sent as ${literal}, not ${payment.amount}: a decimal amount must reach the wire digit for digit, never through binary floating point`;
    }
    const want = { ...params, payment: { ...payment, amount: Number(payment.amount) } };
    return firstDifference(want, value);
  }
  return firstDifference(params, value);
}
