// The one masking rule: what of a request may leave the sandbox's memory. Every string built from
// what a caller sent passes through it on its way out: the request target (path and query), the
// header the request log keeps (x-merchant-id), the body, the sandbox's own sentences that quote
// any of them (a refusal's message, hint and field errors), log lines, pages, the admin API's JSON
// and the `pay-sandbox` commands that print it.
//
// Where it is applied, so that a new code path cannot forget it: at the writers every string goes
// out through, not at the places that build sentences. `fail()` (http.ts) masks the message, hint
// and field errors of every refusal, so the caller's answer, the log line and the request log all
// carry the masked sentence; `RequestLog.add` masks every text field it keeps (the requests page,
// `GET /_sandbox/requests`, the timeline and `pay-sandbox requests` read only what it kept); the
// core's log writer masks every line. A sentence may quote raw input freely: it cannot reach
// anyone unmasked. Where raw input is cut to a length, it is masked first (maskedCut): a card
// number cut in two is no longer recognised as one.
//
// What is hidden, in any spelling:
// - card numbers: 12 to 19 digits that pass the Luhn check, grouped by any of space, tab, `.`,
//   `-`, `+`, `/`, `_` (one to three of them between digits), or percent-encoded (`%20`, `%2B`, a
//   digit as `%34`), cut to their last four (`••••4242`); under a card-number key, whatever the
//   value is;
// - values by their key, in a query or form (`key=value`, the key percent-decoded, `card[cvc]`
//   and `card.cvc` read by their last part), a JSON object, a JSON fragment quoted in a sentence,
//   and a header: security codes, expiry, PINs, and credentials (passwords, secrets, tokens, keys,
//   signatures, sessions, cookies, authorization). A signature is not a secret of the merchant's,
//   but a signed URL's signature is a credential to whoever holds the URL: hidden too, as the
//   sandbox always has in webhook URLs;
// - in a query (after `?`, `&` or `#`), any value of 16 characters or more under a name that is
//   not one of the interface's own parameters: a token under a name nobody listed;
// - URL credentials (`https://user:pw@`), and the card push address's one-time token.
// A hidden value is shown as `***` in text (ASCII: a terminal or log shipper shows it as it is)
// and as `•••` in a JSON body; a card number as `••••` and its last four digits.
import { passesLuhn } from '@pay/schema';

/** What a hidden value is shown as in a JSON body (the request log's `body`). */
const HIDDEN = '•••';
/** What a hidden value is shown as in text: a URL, a query, a sentence, a log line. */
const HIDDEN_IN_TEXT = '***';

/** What a key's value is: a secret (hidden whole), a card number (cut to its last four), or anything else. */
type KeyKind = 'secret' | 'card' | 'other';

// Names (lower case, without `_`, `-`, `.`, spaces) whose value is a card's security code or
// expiry, a PIN, or a credential.
const SECRET_NAMES = new Set([
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
  'exp',
  'expiry',
  'expiration',
  'password',
  'passwd',
  'pass',
  'pwd',
  'passphrase',
  'secret',
  'key',
  'sig',
  'code',
  'otp',
  'sid',
  'jwt',
  'hmac',
  'bearer',
  'credential',
  'credentials',
]);
// Words that make any name holding them a credential: `refresh_token`, `client_secret`,
// `x-api-key`, `session_id`, `set-cookie`, `proxy-authorization`.
const SECRET_WORDS = /token|secret|passw|apikey|privatekey|accesskey|credential|signature|cookie|session|authoriz|hmac|jwt|bearer/;
// Names ending in `key` (`signing_key`), `sig` or `auth` (`basic_auth`), or starting with `auth`
// (`auth_code`); and every name of an expiry (`exp_month`, `card_expiry_year`, `expiration_date`).
const SECRET_SHAPES = /(?:key|sig|auth|pwd)$|^auth|^(?:card)?exp(?:iry|iration)?(?:month|year|date|mm|yy|yyyy)$/;
// Names whose value is a card number: cut to its last four digits even when it fails the Luhn
// check (a mistyped card number is still one).
const CARD_NAMES = new Set([
  'pan',
  'card',
  'cc',
  'ccnum',
  'ccnumber',
  'cardnum',
  'cardnumber',
  'cardno',
  'creditcard',
  'creditcardnumber',
  'primaryaccountnumber',
]);
// The interface's own query parameters (and the admin API's): a long value under one of them is
// an id the developer wants to read, not a token.
const PLAIN_PARAMS = new Set(['referenceid', 'transactionid', 'transaction', 'merchant', 'merchantid', 'status', 'path', 'limit']);

/** A text percent-decoded (`+` as a space), as far as it decodes: never throws. */
function decoded(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  return spaced.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A name as it is compared: decoded, lower case, without separators. */
function normalName(name: string): string {
  return name.replace(/[\s_.\-[\]]/g, '').toLowerCase();
}

function kindOfName(name: string): KeyKind {
  if (name === '') return 'other';
  if (SECRET_NAMES.has(name) || SECRET_WORDS.test(name) || SECRET_SHAPES.test(name)) return 'secret';
  return CARD_NAMES.has(name) ? 'card' : 'other';
}

const kinds = new Map<string, KeyKind>();
const MAX_KEY_NAMES = 512;
const PLAIN_KEY = /^[A-Za-z_-]*[0-9]?[A-Za-z_-]*$/;

/**
 * What a key's value is, by the key's name (JSON, query, form or header): any spelling (case,
 * `_`, `-`, spaces, percent-encoding) of a name of the list, and a bracketed or dotted name
 * (`card[cvc]`, `card.number`) by its whole and by its parts.
 */
function keyKind(key: string): KeyKind {
  const known = kinds.get(key);
  if (known !== undefined) return known;
  const name = decoded(key);
  const parts = name.split(/[[\].]/).map(normalName);
  const whole = kindOfName(normalName(name));
  const kind =
    whole === 'secret' || parts.some((p) => kindOfName(p) === 'secret')
      ? 'secret'
      : whole === 'card' || kindOfName(parts.at(-1) ?? '') === 'card'
        ? 'card'
        : 'other';
  // Names a body is made of are few: kept once worked out (a bounded set of short names of
  // letters and at most one digit: never one that could hold card data).
  if (key.length <= 40 && PLAIN_KEY.test(key) && kinds.size < MAX_KEY_NAMES) kinds.set(key, kind);
  return kind;
}

/** A card number's value as shown: its last four digits (none when it has fewer than 8, unless it is shown so already). */
function lastFour(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 8 ? `••••${digits.slice(-4)}` : /^••••\d{0,4}$/.test(value) ? value : '••••';
}

// A run of digits grouped by up to three of space, tab, `.`, `-`, `+`, `/` or `_` between any two
// of them. The separators and the digits are disjoint, so matching is linear.
const DIGIT_RUN = /(?<!\d)\d(?:[ \t.+\-/_]{0,3}\d){11,}(?!\d)/g;
// Twelve digits can only be there when four are close together: most texts stop at this test.
const FOUR_DIGITS = /\d[^\d]{0,3}\d[^\d]{0,3}\d[^\d]{0,3}\d/;
// `scheme://user:password@`: everything up to the last `@` of the authority.
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/?#\s"'<>]*@/gi;
// The card push address's one-time token.
const PUSH_TOKEN = /(\/card-proxy\/v1\/push\/)[^/?#\s"'<>]+/g;
// `name=value` in a query, a form, a cookie or a sentence: after the start, `?`, `&`, `#`, `;`, a
// space, a quote, a parenthesis, a comma or a brace. Never after `[`: a name may hold one
// (`card[cvc]`), and a start that can also be inside a name lets every `[` of a long run begin a
// new 256-character try (65 ms for 64 KiB of `[`, measured); with starts a name cannot hold, the
// tries never overlap and the work is linear.
const PAIR = /(^|[?&#;\s"'(,{])([^\s=&?#;"'<>(),{}]{1,256})=([^&\s#;"'<>)]*)/g;
// `"name": value` of a JSON fragment quoted in a sentence.
const JSON_PAIR = /"([^"\\\n]{1,256})"(\s*:\s*)("(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*)/g;
// A run of text with percent-encoding in it: decoded, it is masked again.
const ENCODED_RUN = /[^\s"'<>]*%[0-9a-f]{2}[^\s"'<>]*/gi;
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Query values this long or longer are taken for tokens unless their name is a PLAIN_PARAM. */
const TOKEN_LENGTH = 16;

function hidePair(whole: string, before: string, key: string, value: string): string {
  if (value === '') return whole;
  const kind = keyKind(key);
  if (kind === 'secret') return `${before}${key}=${HIDDEN_IN_TEXT}`;
  if (kind === 'card') return `${before}${key}=${lastFour(decoded(value))}`;
  const inQuery = before === '?' || before === '&' || before === '#';
  // A URL as a value (a return address) is masked by its own parts, which this rule has seen.
  if (inQuery && value.length >= TOKEN_LENGTH && !URL_START.test(value) && !PLAIN_PARAMS.has(normalName(decoded(key))))
    return `${before}${key}=${HIDDEN_IN_TEXT}`;
  return whole;
}

function hideJsonPair(whole: string, key: string, colon: string, value: string): string {
  const kind = keyKind(key);
  if (kind === 'secret') return `"${key}"${colon}"${HIDDEN}"`;
  if (kind === 'card') return `"${key}"${colon}"${lastFour(value)}"`;
  return whole;
}

/**
 * Card numbers in a run of grouped digits: each sequence of whole groups holding 12 to 19 digits
 * that passes the Luhn check, the longest from each group on, becomes `••••` and its last four.
 * Groups, not the whole run: a card number may follow other digits (`/v3/4242 4242 …`, the `3`
 * of the path joins the run). A group of more than 19 digits is no card number's.
 */
function hideCardsInRun(run: string): string {
  const parts = run.match(/\d+|\D+/g)!; // digits, separators, digits...: it starts and ends with digits
  let out = '';
  let i = 0;
  while (i < parts.length) {
    let digits = '';
    let card = '';
    let last = -1;
    for (let j = i; j < parts.length; j += 2) {
      digits += parts[j]!;
      if (digits.length > 19) break;
      if (digits.length >= 12 && passesLuhn(digits)) {
        card = digits;
        last = j;
      }
    }
    if (last < 0) {
      out += parts[i]! + (parts[i + 1] ?? '');
      i += 2;
    } else {
      out += `••••${card.slice(-4)}${parts[last + 1] ?? ''}`;
      i = last + 2;
    }
  }
  return out;
}

function hideCardNumbers(text: string): string {
  if (text.length < 12 || !FOUR_DIGITS.test(text)) return text;
  return text.replace(DIGIT_RUN, hideCardsInRun);
}

/** The rule on a text as it is written (no decoding). */
function maskWritten(text: string): string {
  let out = text;
  if (out.includes('@')) out = out.replace(USERINFO, `$1${HIDDEN_IN_TEXT}@`);
  if (out.includes('/push/')) out = out.replace(PUSH_TOKEN, '$1<token>');
  if (out.includes('=')) out = out.replace(PAIR, hidePair);
  if (out.includes('"')) out = out.replace(JSON_PAIR, hideJsonPair);
  return hideCardNumbers(out);
}

/** Percent-decoded until it no longer changes (three rounds at most: `%2534` is `%34` is `4`). */
function fullyDecoded(run: string): string {
  let text = run;
  for (let i = 0; i < 3; i++) {
    const next = decoded(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * A text with everything the rule hides hidden (see the top of this file): the request target,
 * a sentence quoting it, a log line, a string of a body. A run of percent-encoded text is read
 * decoded too; when decoding shows something to hide, that run is shown decoded, masked (its
 * spaces and quotes encoded again so it stays one run). Idempotent: masking twice is masking once.
 */
export function maskText(text: string): string {
  const masked = maskWritten(text);
  if (!masked.includes('%')) return masked;
  return masked.replace(ENCODED_RUN, (run) => {
    const plain = fullyDecoded(run);
    if (plain === run) return run;
    const hidden = maskWritten(plain);
    if (hidden === plain) return run;
    return hidden.replace(/[\s"'<>%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  });
}

/** A text masked (maskText), then cut to `max` characters: cut after masking, never before. */
export function maskedCut(text: string, max: number): string {
  const masked = maskText(text);
  return masked.length > max ? masked.slice(0, max) : masked;
}

/** A header's value as it may be shown: hidden by its name (authorization, cookie, a key or token...), else masked as text. */
export function maskHeader(name: string, value: string): string {
  const kind = keyKind(name);
  return kind === 'secret' ? HIDDEN_IN_TEXT : kind === 'card' ? lastFour(value) : maskText(value);
}

/** Every http(s) URL in a text (a JSON text, say) masked by the rule; the rest as it is. */
export function redactUrlsIn(text: string): string {
  // Credentials need an `@` and a query value an `=`: a text with neither has nothing to hide.
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(/https?:\/\/[^\s"'<>\\]+/gi, maskText);
}

/**
 * A parsed JSON value with the rule applied: a value hidden by its key (any type), card numbers in
 * any string or as a number of 12 to 19 digits, and every string, key included, masked as text.
 * Depth and size are those of a parsed request body (bounded by the body limit).
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
      const kind = keyKind(key);
      const shown =
        inner === null
          ? null
          : kind === 'secret'
            ? HIDDEN
            : kind === 'card' && (typeof inner === 'string' || typeof inner === 'number')
              ? lastFour(String(inner))
              : maskJson(inner);
      const shownKey = maskText(key);
      // A `__proto__` key (JSON.parse makes it an own key) stays a plain key.
      if (shownKey === '__proto__')
        Object.defineProperty(out, shownKey, { value: shown, enumerable: true, writable: true, configurable: true });
      else out[shownKey] = shown;
    }
    return out;
  }
  return value;
}
