// The mistakes a verifier makes, as data. `verify(input, quirks)` is a correct verifier (the
// harness protocol's checks, in its order) that a mistake bends in one place; a verification
// vector lists, for every mistake that changes its answer, the answer the mistaken verifier gives.
// A runner that sees that answer can then name the mistake, as it names a signer's from a wrong
// signature.
import { EMPTY, bodyAsText, hmacHex, latin1, splitQuery, utf8 } from '../bytes.mjs';

const DIGITS = /^[0-9]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const TOLERANCE = 60;

const ok = { valid: true, reason: null };
const refuse = (reason) => ({ valid: false, reason });

// --- how mistaken verifiers read x-timestamp: the number of seconds, or null (malformed) ---

/** Decimal digits only: the protocol's rule. */
const strictSeconds = (text) => (DIGITS.test(text) ? BigInt(text) : null);

/** JavaScript's Number(): whitespace trimmed, signs, fractions, exponents, 0x/0o/0b. */
function numberSeconds(text) {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * An integer parser that forgives signs, surrounding whitespace and non-ASCII digits, as Python's
 * int(), .NET's int.Parse or Java's Long.parseLong (signs, Unicode digits) do. Modelled digits:
 * ASCII and full-width (U+FF10..U+FF19); `_` between digits as Python allows.
 */
function intSeconds(text) {
  const m = /^\s*([+-]?)([0-9\uff10-\uff19]+(?:_[0-9\uff10-\uff19]+)*)\s*$/u.exec(text);
  if (!m) return null;
  const digits = [...m[2].replaceAll('_', '')]
    .map((c) => (c >= '\uff10' ? String.fromCharCode(c.charCodeAt(0) - 0xff10 + 48) : c))
    .join('');
  return BigInt(`${m[1]}${digits}`);
}

/** The leading digits, whatever follows: JavaScript's parseInt(text, 10), C's atoi and strtol. */
function leadingDigitSeconds(text) {
  const m = /^\s*([+-]?[0-9]+)/.exec(text);
  return m ? BigInt(m[1]) : null;
}

/** A decimal fraction accepted as well: `^[0-9]+(\.[0-9]+)?$`. */
const fractionSeconds = (text) => (/^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : null);

/** now − seconds, exactly for whole seconds (a 30-digit timestamp must not overflow). */
function skew(now, seconds) {
  return typeof seconds === 'bigint' ? Number(BigInt(now) - seconds) : Number(now) - seconds;
}

// --- how mistaken verifiers build the URL they sign ---

function toggleSlash(url) {
  const { path, query } = splitQuery(url);
  return (path.endsWith('/') ? path.slice(0, -1) : `${path}/`) + query;
}
const otherScheme = (url) => (url.startsWith('https:') ? `http:${url.slice(6)}` : `https:${url.slice(5)}`);
const withoutQuery = (url) => splitQuery(url).path;
const pathOnly = (url) => url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');

/**
 * The verdict of a verifier for one vector's input. `quirks` bend it:
 * - `skip`: accepts everything;
 * - `absent(value)`: when a header counts as missing (default: absent or empty);
 * - `seconds(text)`: how x-timestamp is read (default: decimal digits only);
 * - `expired(skew)`: when a timestamp is too far (default: |skew| > 60); `skew` = now − timestamp;
 * - `merchantMatches(received, expected)`;
 * - `checkFormat`: whether a signature that is not 64 hex characters is malformed (default true);
 * - `signatureFirst`: checks the signature before the timestamp and the merchant;
 * - `urls(url)`: the URLs whose signature it accepts (default: exactly the one given);
 * - `timestampText(text, seconds)`, `method(m)`, `body(bytes, method)`, `key(secret)`: the parts it signs;
 * - `matches(expectedHex, receivedHex)`: the comparison (default: all 64 characters, either case).
 */
export function verify(input, quirks = {}) {
  if (quirks.skip) return ok;
  const q = quirks;
  const headers = input.headers;
  const merchant = headers['x-merchant-id'];
  const timestamp = headers['x-timestamp'];
  const signature = headers['x-signature'];
  const absent = q.absent ?? ((value) => value === undefined || value === '');
  if (absent(merchant) || absent(timestamp) || absent(signature)) return refuse('missing_header');

  const seconds = (q.seconds ?? strictSeconds)(timestamp);
  const checkTimestamp = () => {
    if (seconds === null) return refuse('malformed_timestamp');
    const expired = q.expired ?? ((s) => Math.abs(s) > TOLERANCE);
    return expired(skew(input.now, seconds)) ? refuse('expired') : null;
  };
  const checkMerchant = () =>
    (q.merchantMatches ?? ((a, b) => a === b))(merchant, input.merchant_id) ? null : refuse('merchant_mismatch');
  const checkSignature = () => {
    if ((q.checkFormat ?? true) && !HEX64.test(signature)) return refuse('malformed_signature');
    const method = input.method.toUpperCase();
    const bytes = Buffer.from(input.body_b64, 'base64');
    const body = q.body ? q.body(bytes, method) : method === 'GET' ? EMPTY : bytes;
    const text = q.timestampText ? q.timestampText(timestamp, seconds) : timestamp;
    const key = q.key ? q.key(input.secret) : utf8(input.secret);
    const matches = q.matches ?? ((expected, received) => expected === received.toLowerCase());
    for (const url of q.urls ? q.urls(input.url) : [input.url]) {
      const head = utf8(`${merchant}${text}${q.method ? q.method(method) : method}${url}`);
      if (matches(hmacHex(key, Buffer.concat([head, body])), signature)) return null;
    }
    return refuse('bad_signature');
  };
  const order = q.signatureFirst ? [checkSignature, checkTimestamp, checkMerchant] : [checkTimestamp, checkMerchant, checkSignature];
  for (const check of order) {
    const refused = check();
    if (refused) return refused;
  }
  return ok;
}

/** A JSON body parsed and written again by `write`; bodies that are not JSON are left alone. */
const reserialise = (write) => (bytes, method) => {
  if (method === 'GET') return EMPTY;
  const text = bodyAsText(bytes);
  if (text === null) return bytes;
  try {
    return utf8(write(JSON.parse(text)));
  } catch {
    return bytes;
  }
};
/** Python's json.dumps defaults: ", " and ": ", non-ASCII as \uXXXX. */
function pythonDumps(value) {
  const encode = (v) => {
    if (Array.isArray(v)) return `[${v.map(encode).join(', ')}]`;
    if (v !== null && typeof v === 'object')
      return `{${Object.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}: ${encode(x)}`)
        .join(', ')}}`;
    return JSON.stringify(v);
  };
  return encode(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Verifier mistakes, each a name, what the mistaken verifier does (in its author's terms), and its
 * quirks. A mistake with several `variants` (different serialisers, say) is listed in a vector
 * only where every variant gives the same answer, so that naming it never depends on the
 * implementation's language.
 */
const VERIFY_MISTAKES = [
  { name: 'skips_verification', description: 'accepts every request without checking it', quirks: { skip: true } },
  { name: 'ignores_expiry', description: 'never checks how far x-timestamp is from now', quirks: { expired: () => false } },
  {
    name: 'only_checks_past',
    description: 'refuses a timestamp too far in the past but accepts any timestamp in the future',
    quirks: { expired: (s) => s > TOLERANCE },
  },
  {
    name: 'tolerance_exclusive',
    description: 'refuses a timestamp exactly 60 s away (>= 60 instead of > 60)',
    quirks: { expired: (s) => Math.abs(s) >= TOLERANCE },
  },
  {
    name: 'ignores_merchant',
    description: 'never compares x-merchant-id with the merchant it expects',
    quirks: { merchantMatches: () => true },
  },
  {
    name: 'merchant_case_insensitive',
    description: 'compares merchant ids ignoring case',
    quirks: { merchantMatches: (a, b) => a.toLowerCase() === b.toLowerCase() },
  },
  {
    name: 'compares_prefix',
    description: 'compares only the beginning of the signature, not all 64 characters',
    quirks: { matches: (e, r) => e.slice(0, 32) === r.toLowerCase().slice(0, 32) },
  },
  {
    name: 'signature_format_not_checked',
    description: 'never checks that the signature is 64 hexadecimal characters (answers bad_signature instead of malformed_signature)',
    quirks: { checkFormat: false },
  },
  {
    name: 'signature_checked_first',
    description: 'checks the signature before the timestamp and the merchant (the protocol checks them first, without an HMAC)',
    quirks: { signatureFirst: true },
  },
  {
    name: 'empty_header_not_missing',
    description: 'treats a header that is present but empty as present (the protocol calls it missing)',
    quirks: { absent: (v) => v === undefined },
  },
  {
    name: 'timestamp_fraction_accepted',
    description: 'accepts an x-timestamp with a decimal fraction',
    quirks: { seconds: fractionSeconds },
  },
  {
    name: 'timestamp_parsed_as_number',
    description:
      'reads x-timestamp with a general number parser (JavaScript Number(), parseFloat-style) that accepts spaces, signs, fractions, exponents or hex, instead of requiring decimal digits',
    quirks: { seconds: numberSeconds },
  },
  {
    name: 'timestamp_parsed_as_int',
    description:
      'reads x-timestamp with an integer parser that accepts signs, spaces or non-ASCII digits (Python int(), Java Long.parseLong, .NET long.Parse), instead of requiring ASCII decimal digits',
    quirks: { seconds: intSeconds },
  },
  {
    name: 'timestamp_leading_digits',
    description: 'reads the leading digits of x-timestamp and ignores what follows (JavaScript parseInt, C atoi or strtol, PHP (int))',
    quirks: { seconds: leadingDigitSeconds },
  },
  {
    name: 'timestamp_reformatted',
    description: 'signs the timestamp written again from its number instead of the x-timestamp text as received',
    quirks: { timestampText: (_text, seconds) => String(seconds) },
  },
  {
    name: 'url_trailing_slash_dropped',
    description: 'drops the trailing slash of its URL before computing the signature',
    quirks: { urls: (u) => [splitQuery(u).path.endsWith('/') ? toggleSlash(u) : u] },
  },
  {
    name: 'url_trailing_slash_added',
    description: 'adds a trailing slash to its URL before computing the signature',
    quirks: { urls: (u) => [splitQuery(u).path.endsWith('/') ? u : toggleSlash(u)] },
  },
  {
    name: 'url_slash_insensitive',
    description: 'accepts a signature made for its URL with the trailing slash added or dropped',
    quirks: { urls: (u) => [u, toggleSlash(u)] },
  },
  {
    name: 'url_query_dropped',
    description: 'drops the query string of its URL before computing the signature',
    quirks: { urls: (u) => [withoutQuery(u)] },
  },
  {
    name: 'url_query_insensitive',
    description: 'accepts a signature made for its URL without the query string',
    quirks: { urls: (u) => [u, withoutQuery(u)] },
  },
  { name: 'url_path_only', description: 'signs the path without scheme and host', quirks: { urls: (u) => [pathOnly(u)] } },
  {
    name: 'url_scheme_insensitive',
    description: 'accepts a signature made for http:// when its URL is https://, and the reverse (a URL rebuilt behind a proxy)',
    quirks: { urls: (u) => [u, otherScheme(u)] },
  },
  {
    name: 'url_normalised',
    description: 'parses and writes its URL again (host in lower case, characters percent-encoded) instead of using it exactly as given',
    quirks: { urls: (u) => [new URL(u).href] },
  },
  { name: 'method_lowercased', description: 'signs the method in lower case', quirks: { method: (m) => m.toLowerCase() } },
  { name: 'body_signed_for_get', description: 'signs the body of a GET (a GET signs an empty body)', quirks: { body: (bytes) => bytes } },
  {
    name: 'body_reserialised',
    description:
      'parses the JSON body and serialises it again (compact, as JavaScript or Python write it) before computing the signature, instead of using the bytes received',
    variants: [{ body: reserialise((v) => JSON.stringify(v)) }, { body: reserialise(pythonDumps) }],
  },
  {
    name: 'body_latin1',
    description: 'decodes the body as text and signs it encoded as Latin-1 instead of the bytes received',
    quirks: { body: (bytes, method) => (method === 'GET' ? EMPTY : bodyAsText(bytes) === null ? bytes : latin1(bodyAsText(bytes))) },
  },
  { name: 'secret_latin1', description: 'encodes the secret as Latin-1 instead of UTF-8', quirks: { key: latin1 } },
];

/** The mistakes that change this input's answer, each with the answer it gives. */
export function verifierMistakes(input, expected) {
  const same = (a, b) => a.valid === b.valid && a.reason === b.reason;
  const listed = [];
  for (const { name, description, quirks, variants } of VERIFY_MISTAKES) {
    const answers = (variants ?? [quirks]).map((q) => verify(input, q));
    if (!answers.every((a) => same(a, answers[0]))) continue;
    if (same(answers[0], expected)) continue;
    listed.push({ name, description, answer: answers[0] });
  }
  return listed;
}
