// Whether the body an SDK sent is the one it was asked to send: the same JSON value as the params
// given (whatever the key order or escaping), with the amount written as a JSON number, digit for
// digit the decimal given (never through binary floating point).
import { parseJsonBytes, sameJson } from '../../harness/serialisers.js';

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

/**
 * Whether two decimal texts are the same number, exactly. Deliberately the runner's own, not
 * @pay/schema's `sameDecimal`: client mode judges @pay/client (through the reference adapter), which
 * compares amounts with @pay/schema's, so a mistake there would pass unseen if the judge shared it.
 * It also reads signs and exponents, which an SDK may send.
 */
export function sameDecimal(a: string, b: string): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  return x !== null && y !== null && x.digits === y.digits && x.exp === y.exp && x.negative === y.negative;
}

/** What is wrong with a body: a mistake name and what it is. */
export interface BodyProblem {
  mistake: string;
  text: string;
}

/** The Unicode normalisation forms, the least change first, and what each does to the data. */
const FORMS = {
  NFC: 'characters composed',
  NFD: 'characters decomposed',
  NFKC: 'compatibility characters replaced, the "ﬁ" ligature by "fi", full-width "１" by "1", "²" by "2"',
  NFKD: 'compatibility characters replaced and decomposed',
} as const;

/** The normalisation form that turns `want` into `got`, when one does. */
function normalisedBy(want: string, got: string): keyof typeof FORMS | undefined {
  return (Object.keys(FORMS) as (keyof typeof FORMS)[]).find((f) => want !== got && want.normalize(f) === got);
}

/** The first path where two JSON values differ, with what each has there; null when equal. */
function firstDifference(want: unknown, got: unknown, path = ''): BodyProblem | null {
  const at = path === '' ? 'the body' : path;
  if (typeof want !== 'object' || want === null || typeof got !== 'object' || got === null) {
    if (sameJson(want, got)) return null;
    if (typeof want === 'string' && typeof got === 'string' && want.trim() === got && /^\s|\s$/.test(want)) {
      return {
        mistake: 'whitespace_trimmed',
        text: `${at} is sent as ${JSON.stringify(got)}, not ${JSON.stringify(want)}: the white space at its ends was trimmed; send values as given`,
      };
    }
    const form = typeof want === 'string' && typeof got === 'string' ? normalisedBy(want, got) : undefined;
    if (form) {
      return {
        mistake: 'strings_normalised',
        text: `${at} is sent as ${JSON.stringify(got)}, not ${JSON.stringify(want)}: Unicode-normalised (${form}: ${FORMS[form]}) before sending; send strings as given, the service's data is not the SDK's to rewrite`,
      };
    }
    if (typeof want === 'string' && typeof got === 'string' && got.length > 0 && got.length < want.length && want.startsWith(got)) {
      return {
        mistake: 'value_cut_to_fit',
        text: `${at} is sent as ${JSON.stringify(got)}, the first ${[...got].length} of the ${[...want].length} characters given: cut to fit; a value the service would refuse is refused (invalid_request) or sent as given, never changed into another transaction's data`,
      };
    }
    return { mistake: 'body_not_as_given', text: `${at} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}` };
  }
  if (Array.isArray(want) !== Array.isArray(got))
    return { mistake: 'body_not_as_given', text: `${at} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}` };
  const w = want as Record<string, unknown>;
  const g = got as Record<string, unknown>;
  for (const k of Object.keys(w)) {
    if (!(k in g)) return { mistake: 'body_not_as_given', text: `${path ? `${path}.` : ''}${k} is missing` };
    const d = firstDifference(w[k], g[k], path ? `${path}.${k}` : k);
    if (d) return d;
  }
  for (const k of Object.keys(g))
    if (!(k in w)) return { mistake: 'body_not_as_given', text: `${path ? `${path}.` : ''}${k} was not given, but sent` };
  return null;
}

/**
 * What is wrong with the amount literal sent for `given` (a decimal string), or null: it must be a
 * JSON number written with exactly the digits given. A service may read amounts as decimals, which
 * keep their digits (149.90 and 149.9 are different decimals to Java's BigDecimal.equals), and a
 * change of digits shows the amount went through a number type on the way, the path on which
 * binary floating point alters amounts with more digits.
 */
export function amountProblem(literal: string, given: string): BodyProblem | null {
  if (literal === given) return null;
  if (literal.startsWith('"'))
    return {
      mistake: 'amount_as_string',
      text: `payment.amount is sent as the JSON string ${literal}; the interface's amounts are JSON numbers`,
    };
  if (sameDecimal(literal, given)) {
    return {
      mistake: 'amount_digits_changed',
      text: `payment.amount is sent as ${literal}, not ${given}: the same value in other digits, so it went through a number type on the way; send the decimal given digit for digit`,
    };
  }
  const minor = decimalOf(given);
  if (
    minor !== null &&
    /^[0-9]+$/.test(literal) &&
    sameDecimal(literal, `${minor.negative ? '-' : ''}${minor.digits || '0'}e${minor.exp + 2}`)
  ) {
    return {
      mistake: 'amount_minor_units',
      text: `payment.amount is sent as ${literal} for ${given}: in minor units (cents, x100); the interface's amount is the decimal amount itself`,
    };
  }
  if (Number(literal) === Number(given) || Math.abs(Number(literal) - Number(given)) <= Math.abs(Number(given)) * 1e-12) {
    return {
      mistake: 'amount_binary_float',
      text: `payment.amount is sent as ${literal}, not ${given}: the amount went through binary floating point; a decimal amount must reach the wire digit for digit`,
    };
  }
  return { mistake: 'amount_wrong', text: `payment.amount is sent as ${literal}, not ${given}` };
}

/**
 * What is wrong with the body sent for `params`, or null. `params.payment.amount`, when present, is
 * a decimal string that must be sent as a JSON number with exactly its digits.
 */
export function bodyProblem(sent: Buffer, params: Record<string, unknown>): BodyProblem | null {
  let value: unknown;
  try {
    value = JSON.parse(sent.toString('utf8'));
  } catch {
    return { mistake: 'body_not_as_given', text: `the body sent is not JSON (${sent.length} bytes)` };
  }
  const payment = params['payment'] as { amount?: string } | undefined;
  if (payment?.amount !== undefined) {
    const literal = /"amount"\s*:\s*(-?[0-9][0-9.eE+-]*|"[^"]*")/.exec(sent.toString('utf8'))?.[1];
    if (literal === undefined) return { mistake: 'body_not_as_given', text: 'payment.amount is missing' };
    const a = amountProblem(literal, payment.amount);
    if (a) return a;
    const want = { ...params, payment: { ...payment, amount: Number(payment.amount) } };
    return firstDifference(want, value);
  }
  return firstDifference(params, value);
}

/** The string field `name` of a JSON object in `body`: null when the body is not JSON or has none. */
const stringIn = (body: Uint8Array, name: 'id' | 'reference_id'): string | null => {
  const value = (parseJsonBytes(body) as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};

/** The reference_id a create's body (or a record) carries; null when it is not JSON or has none. */
export const referenceIn = (body: Uint8Array): string | null => stringIn(body, 'reference_id');

/** The id of a JSON record; null when it is not JSON or has none. */
export const idIn = (body: Uint8Array): string | null => stringIn(body, 'id');
