// What a report directory may never show: a signing secret, an API key, a card number, a card's
// security code. The modes already mask the values they know (src/http/redact.ts: the run's secret
// and the card pushed, in every encoding the runner predicts), but a report directory is meant to
// be published (an SDK's README links its page), so it masks again, once, over everything it
// writes: the values the command knows, by the same redactor, then what looks like card data or a
// secret whoever wrote it (an implementation's stderr may quote another merchant's key, a card
// number the runner never sent). A false positive only hides a piece of evidence; a miss publishes it.
import { redactor, type Sensitive } from '../http/redact.js';

/** What a masked value of a sensitive field is shown as. */
const MASKED = '‹masked›';

/** Fields whose value is sensitive whatever it looks like (a card's security code is three digits). */
const SENSITIVE_KEY = /^(?:secret|signing_?key|api_?key|webhook_?secret|pan|card_?number|cvv2?|cvc|csc|password)$/i;

/**
 * A run of 13 to 19 digits, optionally grouped by single spaces or dashes, starting as card numbers
 * do (2 to 6: Mastercard, Amex, Visa, Discover, JCB…) and standing alone: not part of a longer word
 * or number, so a millisecond timestamp (which starts with 1) and a hex signature are left alone.
 */
const CARD_RUN = /(?<![0-9A-Za-z])[2-6](?:[ -]?[0-9]){12,18}(?![0-9A-Za-z])/g;

/** A key written the way payment services spell them: sk_test_…, rk_live_…, whsec_… */
const SECRET_TOKEN = /\b(?:(?:sk|rk)_(?:test|live)|whsec)_[^\s"'`<>\\,;)\]}]{6,}/g;

/** `"csc": "123"`, `'pan': '4000…'`, `cvv=123` inside a text (a body or a request quoted in stderr). */
const SENSITIVE_PAIR =
  /(?<![A-Za-z0-9_])(["']?)(secret|signing_?key|api_?key|webhook_?secret|pan|card_?number|cvv2?|cvc|csc|password)\1(\s*[:=]\s*)(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;&}\]]+)/gi;

/** Luhn's check, which every card number passes and nine in ten other digit runs fail. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A text with the known values masked in every encoding, then anything that looks like card data or a key. */
function maskerOf(sensitive: readonly Sensitive[]): (text: string) => string {
  const known = redactor(sensitive);
  return (text) =>
    known(text)
      .replace(SENSITIVE_PAIR, (_all, quote: string, key: string, between: string) => `${quote}${key}${quote}${between}"${MASKED}"`)
      .replace(SECRET_TOKEN, '‹secret›')
      .replace(CARD_RUN, (run) => (luhn(run.replace(/[ -]/g, '')) ? '‹card›' : run));
}

/**
 * A function that masks a whole value for a report: every string in it (keys included), and the
 * value of every sensitive field, whatever its type.
 */
export function reportMask(sensitive: readonly Sensitive[]): <T>(value: T) => T {
  const text = maskerOf(sensitive);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[text(k)] = SENSITIVE_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? MASKED : walk(v);
      }
      return out;
    }
    return value;
  };
  return <T>(value: T) => walk(value) as T;
}
