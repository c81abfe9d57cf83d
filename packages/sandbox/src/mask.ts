// Card data and credentials hidden from a body the sandbox shows (the request log, its page, the
// `requests` command). Judged on the parsed JSON, never on the raw text: the same card number can
// be written `4242424242424242`, `4242 4242 4242 4242`, `4242-4242-…`, `"\u0034242…"` or as a
// JSON number, and a URL as `https:\/\/user:pw@…` (PHP's default escaping); after parsing, each
// is one value, checked once.
import { passesLuhn } from '@pay/schema';
import { redactUrlsIn } from './redact.js';

/** What a hidden value is shown as. */
const HIDDEN = '•••';

// Keys (compared in lower case without `_`, `-` or spaces) whose value is a card's security code or
// expiry, or a credential, whatever its type: hidden whole.
const SECRET_KEYS = new Set([
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'csc',
  'cid',
  'cav2',
  'cvn',
  'cvd',
  'securitycode',
  'cardsecuritycode',
  'cardverificationvalue',
  'cardverificationcode',
  'verificationcode',
  'pin',
  'expmonth',
  'expyear',
  'expiry',
  'expirydate',
  'expiration',
  'expirationdate',
  'exp',
  'password',
  'passwd',
  'secret',
  'apikey',
  'token',
  'accesstoken',
  'authorization',
]);
// Keys whose value is a card number: cut to its last four digits even when it fails the Luhn check
// (a mistyped card number is still one).
const CARD_NUMBER_KEYS = new Set(['pan', 'cardnumber', 'ccnumber', 'creditcardnumber', 'primaryaccountnumber', 'cardno']);
// Keys are compared by their name without `_`, `-`, spaces and case. What short keys of letters,
// `_`, `-` and at most one digit (every key of the interface's bodies, `addr_line_1` included)
// hold is kept once worked out: a bounded set, and never a key that could hold card data. Such a
// key has no `://` and fewer than 12 digits, so it is also shown as it is (maskText would return
// it unchanged): only other keys are masked as strings are.
interface KeyInfo {
  /** What the key's value is: a secret or expiry hidden whole, a card number, or anything else. */
  kind: 'secret' | 'card' | 'other';
  /** Whether the key itself is shown unmasked. */
  plain: boolean;
}
const keyInfos = new Map<string, KeyInfo>();
const MAX_KEY_NAMES = 512;
const PLAIN_KEY = /^[A-Za-z_-]*[0-9]?[A-Za-z_-]*$/;
function keyInfo(key: string): KeyInfo {
  let info = keyInfos.get(key);
  if (info === undefined) {
    const name = key.replace(/[\s_-]/g, '').toLowerCase();
    const kind = SECRET_KEYS.has(name) ? 'secret' : CARD_NUMBER_KEYS.has(name) ? 'card' : 'other';
    const plain = key.length <= 40 && PLAIN_KEY.test(key);
    info = { kind, plain };
    if (plain && keyInfos.size < MAX_KEY_NAMES) keyInfos.set(key, info);
  }
  return info;
}

// A run of 12 to 19 digits, possibly grouped by single spaces, dashes or dots (`4242 4242 …`).
const HAS_DIGITS = /\d[ .-]?\d[ .-]?\d[ .-]?\d/;
const DIGIT_RUN = /(?<![\d])\d(?:[ .-]?\d){11,18}(?![\d])/g;

/** A text with every card number in it (any grouping, Luhn-valid) cut to its last four digits, and URLs redacted. */
export function maskText(text: string): string {
  // Most strings of a body hold neither a URL nor 12 digits: they are returned as they are.
  const withUrls = text.includes('://') ? redactUrlsIn(text) : text;
  if (withUrls.length < 12 || !HAS_DIGITS.test(withUrls)) return withUrls;
  return withUrls.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/\D/g, '');
    return passesLuhn(digits) ? `••••${digits.slice(-4)}` : run;
  });
}

/**
 * A parsed JSON value with card data and credentials hidden: security codes, expiry and secrets by
 * key (any type), card numbers in any string (any grouping) or as a number of 12 to 19 digits,
 * URL credentials and tokens in any string; keys are masked as strings are. Depth and size are
 * those of a parsed request body (bounded by the body limit).
 */
export function maskJson(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (typeof value === 'number') {
    // A card number sent as a number: past 2^53 it is not even exact, so Luhn cannot be trusted.
    const whole = Math.trunc(Math.abs(value));
    return whole >= 1e11 && whole < 1e19 ? `••••${BigInt(whole).toString().slice(-4)}` : value;
  }
  if (Array.isArray(value)) return value.map(maskJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key in value) {
      const inner = (value as Record<string, unknown>)[key];
      const { kind, plain } = keyInfo(key);
      const shown =
        inner === null
          ? null
          : kind === 'secret'
            ? HIDDEN
            : kind === 'card' && (typeof inner === 'string' || typeof inner === 'number')
              ? `••••${String(inner).replace(/\D/g, '').slice(-4)}`
              : maskJson(inner);
      const shownKey = plain ? key : maskText(key);
      // A `__proto__` key (JSON.parse makes it an own key) stays a plain key.
      if (shownKey === '__proto__')
        Object.defineProperty(out, shownKey, { value: shown, enumerable: true, writable: true, configurable: true });
      else out[shownKey] = shown;
    }
    return out;
  }
  return value;
}
