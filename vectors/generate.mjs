#!/usr/bin/env node
// Generates the golden signature vectors: one JSON file per category, as README.md describes.
//
//   node generate.mjs [outDir]        (outDir defaults to this file's directory)
//
// Only `node:` builtins are used, and node:crypto's createHmac computes every signature, so no
// expected value depends on this repository's own signing code. The output is deterministic:
// fixed timestamps, fixed secrets, no randomness, no clock. test/drift.test.mjs checks that the
// committed files are exactly what this script writes; test/recompute.test.mjs recomputes every
// value with a second HMAC implementation.

import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE = 'pay-signature-vectors';
const SUITE_VERSION = '1.1.0';
const PROTOCOL = 1;

// =============================================================================================
// Bytes, HMAC, the strings to sign
// =============================================================================================

const EMPTY = Buffer.alloc(0);
const utf8 = (text) => Buffer.from(text, 'utf8');
/** Node's 'latin1': every UTF-16 code unit keeps only its low byte ('é' → e9, 'д' → 34). */
const latin1 = (text) => Buffer.from(text, 'latin1');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const hmacHex = (keyBytes, messageBytes) =>
  createHmac('sha256', keyBytes).update(messageBytes).digest('hex');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The bytes as text (a BOM kept as U+FEFF), or null when they are not valid UTF-8. */
function utf8OrNull(bytes) {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The parts of an x-signature string to sign, as a correct signer takes them from a request:
 * merchant id, timestamp, method, URL exactly as given, and the body bytes (none for GET).
 * Mistakes change one part and keep the others.
 */
function requestParts({ merchant_id, timestamp, method, url, body_b64 }) {
  const body = method === 'GET' ? EMPTY : Buffer.from(body_b64, 'base64');
  return { merchantId: merchant_id, timestamp, method, url, body };
}

/** Concatenation with no delimiters, each text part as UTF-8, the body as its bytes. */
const stringToSign = ({ merchantId, timestamp, method, url, body }) =>
  Buffer.concat([utf8(merchantId), utf8(timestamp), utf8(method), utf8(url), body]);

/** The x-simplified-signature string: merchant id + timestamp + payin id, no method. */
const simplifiedString = ({ merchant_id, timestamp, payin_id }) =>
  utf8(merchant_id + timestamp + payin_id);

/** Splits a URL at its first '?': the path part (scheme and host included) and the query ('?…' or ''). */
function splitQuery(url) {
  const at = url.indexOf('?');
  return at < 0 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at) };
}

/** The body as text for the body mistakes: strict UTF-8, a leading BOM dropped (as decoders do). */
function bodyAsText(bytes) {
  const text = utf8OrNull(bytes);
  if (text === null) return null;
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

// =============================================================================================
// Mistakes: each builder returns the key and message the mistaken signer would feed to HMAC, or
// null when the mistake does not apply. A mistake is listed only when it changes the signature.
// =============================================================================================

/** sign_request mistakes, in the README's order. */
const REQUEST_MISTAKES = [
  {
    name: 'url_trailing_slash_dropped',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (!path.endsWith('/')) return null;
      const url = path.slice(0, -1) + query;
      return { key, parts: { ...parts, url }, description: `signed the URL without its trailing slash: ${url}` };
    },
  },
  {
    name: 'url_trailing_slash_added',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (path.endsWith('/')) return null;
      const url = `${path}/${query}`;
      return { key, parts: { ...parts, url }, description: `signed the URL with a trailing slash added: ${url}` };
    },
  },
  {
    name: 'url_path_only',
    make({ parts, key }) {
      const url = parts.url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
      return { key, parts: { ...parts, url }, description: `signed the path without scheme and host: ${url}` };
    },
  },
  {
    name: 'url_query_dropped',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (query === '') return null;
      return { key, parts: { ...parts, url: path }, description: `signed the URL without its query string: ${path}` };
    },
  },
  {
    name: 'body_reserialised',
    make({ parts, key, input }) {
      if (input.method === 'GET') return null;
      const text = bodyAsText(parts.body);
      if (text === null) return null;
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        return null; // not JSON: nothing a JSON middleware would re-serialise
      }
      const body = utf8(JSON.stringify(parsed));
      return {
        key,
        parts: { ...parts, body },
        description: `signed the body after JSON.parse and JSON.stringify (${body.length} bytes) instead of the ${parts.body.length} bytes sent`,
      };
    },
  },
  {
    name: 'body_signed_for_get',
    make({ parts, key, input }) {
      const given = Buffer.from(input.body_b64, 'base64');
      if (input.method !== 'GET' || given.length === 0) return null;
      return {
        key,
        parts: { ...parts, body: given },
        description: `a GET signed the ${given.length}-byte body it was given; a GET signs an empty body`,
      };
    },
  },
  {
    name: 'method_lowercased',
    make({ parts, key }) {
      const method = parts.method.toLowerCase();
      return { key, parts: { ...parts, method }, description: `signed the method as "${method}" instead of "${parts.method}"` };
    },
  },
  {
    name: 'secret_latin1',
    make({ parts, input }) {
      return {
        key: latin1(input.secret),
        parts,
        description: `encoded the secret as Latin-1 (low byte of each UTF-16 unit: ${latin1(input.secret).toString('hex')}) instead of UTF-8`,
      };
    },
  },
  {
    name: 'body_latin1',
    make({ parts, key, input }) {
      if (input.method === 'GET') return null;
      const text = bodyAsText(parts.body);
      if (text === null) return null;
      return {
        key,
        parts: { ...parts, body: latin1(text) },
        description: 'decoded the body as UTF-8 and signed it encoded as Latin-1 (low byte of each UTF-16 unit)',
      };
    },
  },
];

/** sign_simplified mistakes. */
const SIMPLIFIED_MISTAKES = [
  {
    name: 'simplified_method_included',
    make: ({ input, key }) => ({
      key,
      message: utf8(input.merchant_id + input.timestamp + 'POST' + input.payin_id),
      description: 'signed merchant id + timestamp + "POST" + payin id; the worked example has no method',
    }),
  },
  {
    name: 'simplified_fields_reordered',
    make: ({ input, key }) => ({
      key,
      message: utf8(input.timestamp + input.merchant_id + input.payin_id),
      description: 'signed timestamp + merchant id + payin id; the merchant id comes first',
    }),
  },
  {
    name: 'secret_latin1',
    make: ({ input, message }) => ({
      key: latin1(input.secret),
      message,
      description: `encoded the secret as Latin-1 (low byte of each UTF-16 unit: ${latin1(input.secret).toString('hex')}) instead of UTF-8`,
    }),
  },
];

/**
 * Runs every builder, keeps those that change the signature. Two mistakes giving the same
 * signature would make a runner's diagnosis ambiguous, so that is a generator error: change
 * the vector instead.
 */
function listMistakes(id, expectedSignature, attempts) {
  const mistakes = [];
  for (const { name, description, key, message } of attempts) {
    const signature = hmacHex(key, message);
    if (signature === expectedSignature) continue;
    const twin = mistakes.find((m) => m.signature === signature);
    if (twin) throw new Error(`${id}: mistakes ${twin.name} and ${name} give the same signature`);
    mistakes.push({ name, description, signature });
  }
  return mistakes;
}

// =============================================================================================
// Vector builders
// =============================================================================================

/** A sign_request input, fields in the harness protocol's order. */
function request({ merchant = MERCHANT, timestamp = T0, method, url, body = '' }) {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  return {
    merchant_id: merchant.id,
    secret: merchant.secret,
    timestamp,
    method,
    url,
    body_b64: b64(bytes),
  };
}

function signRequestVector(category, slug, { description, flags, input }) {
  const id = `${category}/${slug}`;
  const parts = requestParts(input);
  const key = utf8(input.secret);
  const message = stringToSign(parts);
  const signature = hmacHex(key, message);
  const attempts = [];
  for (const { name, make } of REQUEST_MISTAKES) {
    const made = make({ parts, key, input });
    if (made) attempts.push({ name, description: made.description, key: made.key, message: stringToSign(made.parts) });
  }
  return {
    id,
    description,
    flags,
    input,
    string_to_sign_b64: b64(message),
    string_to_sign_utf8: utf8OrNull(message),
    expected: {
      headers: { 'x-merchant-id': input.merchant_id, 'x-timestamp': input.timestamp, 'x-signature': signature },
    },
    mistakes: listMistakes(id, signature, attempts),
  };
}

function signSimplifiedVector(slug, { description, flags, merchant = MERCHANT, timestamp = T0, payinId }) {
  const id = `sign_simplified/${slug}`;
  const input = { merchant_id: merchant.id, secret: merchant.secret, timestamp, payin_id: payinId };
  const key = utf8(input.secret);
  const message = simplifiedString(input);
  const signature = hmacHex(key, message);
  const attempts = SIMPLIFIED_MISTAKES.map(({ name, make }) => ({ name, ...make({ input, key, message }) }));
  return {
    id,
    description,
    flags,
    input,
    string_to_sign_b64: b64(message),
    string_to_sign_utf8: utf8OrNull(message),
    expected: {
      headers: { 'x-merchant-id': input.merchant_id, 'x-timestamp': input.timestamp, 'x-simplified-signature': signature },
    },
    mistakes: listMistakes(id, signature, attempts),
  };
}

/**
 * What a sender puts in x-signature: the correct string for the given parts, keyed by `secret`.
 * `includeBodyForGet` and a lowercase `method` let a case model a sender's mistake on purpose.
 */
function senderSignature({ secret, merchantId, timestamp, method, url, body = '', includeBodyForGet = false }) {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const signedBody = method.toUpperCase() === 'GET' && !includeBodyForGet ? EMPTY : bytes;
  return hmacHex(utf8(secret), stringToSign({ merchantId, timestamp, method, url, body: signedBody }));
}

/** The three headers a correct sender sends, in the README's order. */
function sentHeaders(sender) {
  return {
    'x-merchant-id': sender.merchantId,
    'x-timestamp': sender.timestamp,
    'x-signature': senderSignature(sender),
  };
}

/**
 * A verify_webhook / verify_request vector. `merchant` is the verifier's own merchant (expected
 * id and secret), `url` the exact URL it is configured with (webhook) or was called at (request),
 * `headers` the headers as received. The string to sign (for debugging) is the one a correct
 * verifier computes from these headers, and is left out when a header it needs is absent or empty.
 */
function verifyVector(category, slug, { description, flags, merchant = MERCHANT, url, method = 'POST', headers, body = '', now, verdict, reason = null }) {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const vector = {
    id: `${category}/${slug}`,
    description,
    flags,
    input: {
      merchant_id: merchant.id,
      secret: merchant.secret,
      url,
      method,
      headers,
      body_b64: b64(bytes),
      now,
    },
  };
  const mid = headers['x-merchant-id'];
  const ts = headers['x-timestamp'];
  if (mid && ts) {
    const message = stringToSign({ merchantId: mid, timestamp: ts, method, url, body: method === 'GET' ? EMPTY : bytes });
    vector.string_to_sign_b64 = b64(message);
    vector.string_to_sign_utf8 = utf8OrNull(message);
  }
  vector.expected = { verdict, reason: verdict === 'invalid' ? reason : null };
  if (verdict === 'invalid' && !reason) throw new Error(`${vector.id}: invalid needs a reason`);
  return vector;
}

/** Timestamp arithmetic on decimal strings. */
const plus = (timestamp, seconds) => String(Number(timestamp) + seconds);

// =============================================================================================
// Fixtures: merchants, ids, bodies
// =============================================================================================

const BASE = 'https://api.pay.example';
const WEBHOOK_URL = 'https://shop.example/webhooks/pay';
const T0 = '1732200000'; // 2024-11-21T14:40:00Z

const MERCHANT = { id: 'm_12345', secret: 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c' };
const MERCHANT_B = { id: 'm_67890', secret: 'sk_test_H5s1cV0gRt8uJ2eXk7WqZ4aN' };
const MERCHANT_NON_ASCII_ID = { id: 'm_café_42', secret: 'sk_test_Lp0Xw3Jd8QzR6nVb1Hs5Ty9u' };
/** Latin-1 encodable: the Latin-1 bytes differ from the UTF-8 ones only at 'é'. */
const MERCHANT_LATIN1_SECRET = { id: 'm_24680', secret: 'sk_test_sécret_7Qm2Zr5Kx8' };
/** Outside Latin-1: Node's 'latin1' keeps the low byte of each UTF-16 unit ('к' → 3a, '🔑' → 3d 11). */
const MERCHANT_WIDE_SECRET = { id: 'm_13579', secret: 'sk_test_ключ🔑_5Zr8Wq' };

const PAYIN = 'pi_7Hc2LmQ9xR4t';
const PAYIN_2 = 'pi_3Vb8NqK1sW6y';
const PAYOUT = 'po_5Kd8NvW1zY3s';

const PAYINS_V2 = `${BASE}/v2/merchants/payins/`;
const PAYOUTS_V2 = `${BASE}/v2/merchants/payouts/`;
const PAYINS_V1 = `${BASE}/v1/merchants/payins/`;

/** A create-payin v2 body as an object; the vectors serialise it in several ways. */
const payinV2 = {
  reference_id: 'ord-1001',
  payment: { amount: 149.9, currency: 'EUR' },
  method: 'card',
  customer: {
    id: 'cus_8812',
    email: 'zoe.lefevre@example.com',
    first_name: 'Zoé',
    last_name: 'Lefèvre',
    phone: { country_code: '+33', number: '612345678' },
    date_of_birth: '1990-04-12',
    address: { addr_line_1: '12 rue de la Paix', city: 'Paris', zip: '75002', country: 'FR' },
  },
  browser_data: {
    user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    ip_address: '203.0.113.24',
  },
  webhook_url: WEBHOOK_URL,
  redirect_urls: { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' },
  language: 'fr',
};

const payoutV2 = {
  reference_id: 'wd-2001',
  payment: { amount: 250, currency: 'GBP' },
  customer: {
    id: 'cus_4410',
    phone: { number: '7700900123', country_code: '+44' },
    email: 'sam.okafor@example.com',
    last_name: 'Okafor',
    first_name: 'Sam',
  },
  webhook_url: WEBHOOK_URL,
};

/** Legacy create-payin: no method, no state, no in_progress redirect. */
const payinV1 = {
  reference_id: 'ord-0999',
  payment: { amount: 75.5, currency: 'EUR' },
  customer: {
    id: 'cus_3307',
    email: 'andre.mueller@example.com',
    first_name: 'André',
    last_name: 'Müller',
    phone: { country_code: '+49', number: '15123456789' },
    date_of_birth: '1985-09-30',
    address: { addr_line_1: 'Hauptstraße 5', city: 'Berlin', zip: '10115', country: 'DE' },
  },
  browser_data: { user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', ip_address: '198.51.100.7' },
  webhook_url: WEBHOOK_URL,
  redirect_urls: { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' },
};

const minified = (value) => JSON.stringify(value);
const pretty = (value) => JSON.stringify(value, null, 2);
/** Every non-ASCII UTF-16 unit as a lowercase \uXXXX escape (what ensure_ascii / PHP do). */
const asciiEscaped = (json) =>
  json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** PHP json_encode's defaults: '/' written as '\/', non-ASCII as \uXXXX. */
const phpEncoded = (value) => asciiEscaped(minified(value).replaceAll('/', '\\/'));
/** Python json.dumps defaults: ', ' and ': ' separators, non-ASCII as \uXXXX. */
function pythonDumps(value) {
  const encode = (v) => {
    if (Array.isArray(v)) return `[${v.map(encode).join(', ')}]`;
    if (v !== null && typeof v === 'object') {
      return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${encode(x)}`).join(', ')}}`;
    }
    return JSON.stringify(v);
  };
  return asciiEscaped(encode(value));
}

/** Webhook payloads. */
const webhookNew = minified({ id: PAYIN, reference_id: 'ord-1001', status: 'new' });
const webhookExecuted = minified({ id: PAYIN, reference_id: 'ord-1001', status: 'executed' });
const webhookPayout = minified({ id: PAYOUT, reference_id: 'wd-2001', status: 'executed' });

// =============================================================================================
// sign_request_get: v2 lookups, URLs and query strings signed exactly as sent
// =============================================================================================

function signRequestGet() {
  const cat = 'sign_request_get';
  const get = (slug, description, flags, url, extra = {}) =>
    signRequestVector(cat, slug, { description, flags, input: request({ method: 'GET', url, ...extra }) });
  return [
    // The documented lookup paths, with and without the trailing slash: both are signed as given,
    // so a client that trims or adds a slash produces a different signature.
    get('payin-by-id', 'v2 payin lookup by id, no trailing slash: the URL is signed exactly as called, body part empty',
      ['v2', 'lookup', 'payin'], `${BASE}/v2/merchants/payins/${PAYIN}`),
    get('payin-by-id-trailing-slash', 'v2 payin lookup by id, URL ending in a slash: the slash is signed',
      ['v2', 'lookup', 'payin', 'trailing_slash'], `${BASE}/v2/merchants/payins/${PAYIN}/`),
    get('payout-by-id', 'v2 payout lookup by id, no trailing slash',
      ['v2', 'lookup', 'payout'], `${BASE}/v2/merchants/payouts/${PAYOUT}`),
    get('payout-by-id-trailing-slash', 'v2 payout lookup by id, URL ending in a slash: the slash is signed',
      ['v2', 'lookup', 'payout', 'trailing_slash'], `${BASE}/v2/merchants/payouts/${PAYOUT}/`),
    // Lookup by reference: the query string is part of the signed URL, and so is the slash
    // before '?', which the interface's table shows and clients often drop.
    get('payin-by-reference', 'v2 payin lookup by reference_id, slash before "?" as in the interface: the whole URL with its query is signed',
      ['v2', 'lookup', 'payin', 'reference', 'query', 'trailing_slash'], `${PAYINS_V2}?reference_id=ord-1001`),
    get('payin-by-reference-no-slash', 'v2 payin lookup by reference_id called without the slash before "?": signed without it, as called',
      ['v2', 'lookup', 'payin', 'reference', 'query'], `${BASE}/v2/merchants/payins?reference_id=ord-1001`),
    get('payout-by-reference', 'v2 payout lookup by reference_id, slash before "?"',
      ['v2', 'lookup', 'payout', 'reference', 'query', 'trailing_slash'], `${PAYOUTS_V2}?reference_id=wd-2001`),
    get('payout-by-reference-no-slash', 'v2 payout lookup by reference_id without the slash before "?"',
      ['v2', 'lookup', 'payout', 'reference', 'query'], `${BASE}/v2/merchants/payouts?reference_id=wd-2001`),
    // Query strings are bytes: no decoding, no re-encoding, no re-ordering.
    get('query-percent-encoded-space', 'reference with a space sent as %20: the three bytes "%20" are signed, not a space or "+"',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'], `${PAYINS_V2}?reference_id=order%201001`),
    get('query-plus-as-space', 'reference with a space sent as "+": the "+" is signed, never rewritten as %20',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'], `${PAYINS_V2}?reference_id=order+1001`),
    get('query-percent-encoded-slash-uppercase', 'reference containing "/" sent as %2F (uppercase hex): signed as sent, not decoded to "/"',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'], `${PAYINS_V2}?reference_id=shop%2F1001`),
    get('query-percent-encoded-slash-lowercase', 'the same reference sent as %2f (lowercase hex): different bytes, so a different signature from the %2F case',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'], `${PAYINS_V2}?reference_id=shop%2f1001`),
    get('query-percent-encoded-non-ascii', 'reference "café-1001" sent percent-encoded as UTF-8 (caf%C3%A9-1001): signed as those ASCII bytes',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding', 'non_ascii'], `${PAYINS_V2}?reference_id=caf%C3%A9-1001`),
    get('query-raw-non-ascii', 'reference "café-1001" given with a raw "é": signed as its UTF-8 bytes, never percent-encoded first (differs from the percent-encoded case)',
      ['v2', 'lookup', 'reference', 'query', 'non_ascii'], `${PAYINS_V2}?reference_id=café-1001`),
    get('query-repeated-key', 'a key repeated (reference_id twice): both pairs signed, in order, none merged or dropped',
      ['v2', 'lookup', 'reference', 'query', 'repeated_key'], `${PAYINS_V2}?reference_id=ord-1001&reference_id=ord-1002`),
    get('query-order-kept', 'query keys not in alphabetical order (status before reference_id): signed in the order sent, never sorted',
      ['v2', 'lookup', 'reference', 'query', 'order'], `${PAYINS_V2}?status=new&reference_id=ord-1001`),
    get('query-empty-value', 'a query key with an empty value ("channel="): the "=" is signed, the pair is not dropped',
      ['v2', 'lookup', 'reference', 'query', 'empty_value'], `${PAYINS_V2}?reference_id=ord-1001&channel=`),
    // A GET signs an empty body whatever the caller passes (docs/design.md: "GET body").
    get('get-with-body-signs-empty', 'a GET given a JSON body: the signed body part is still empty; signing the given body is the mistake body_signed_for_get',
      ['v2', 'lookup', 'payin', 'get_body'], `${BASE}/v2/merchants/payins/${PAYIN}`, { body: '{"expand":["fee"]}' }),
    get('payin-by-id-other-merchant', 'another merchant, secret and timestamp: nothing in the string is fixed',
      ['v2', 'lookup', 'payin'], `${BASE}/v2/merchants/payins/${PAYIN_2}`, { merchant: MERCHANT_B, timestamp: '1732203600' }),
    // Scheme, host and port are signed as given: a local sandbox address signs as itself.
    get('sandbox-base-url', 'a local sandbox base (http, 127.0.0.1, port 8080): scheme, host and port are signed as given',
      ['v2', 'lookup', 'payin', 'sandbox'], `http://127.0.0.1:8080/v2/merchants/payins/${PAYIN}`),
  ];
}

// =============================================================================================
// sign_request_get_v1: the /v1/ lookup paths of the interface's signing examples
// =============================================================================================

function signRequestGetV1() {
  const cat = 'sign_request_get_v1';
  const get = (slug, description, flags, url, extra = {}) =>
    signRequestVector(cat, slug, { description, flags, input: request({ method: 'GET', url, ...extra }) });
  return [
    get('payin-by-id', 'v1 payin lookup by id as in the interface\'s GET example: <merchant_id><timestamp>GET<full_url>',
      ['v1', 'lookup', 'payin'], `${BASE}/v1/merchants/payins/${PAYIN}`),
    get('payin-by-id-trailing-slash', 'v1 payin lookup by id with a trailing slash: the slash is signed',
      ['v1', 'lookup', 'payin', 'trailing_slash'], `${BASE}/v1/merchants/payins/${PAYIN}/`),
    get('payin-by-reference', 'v1 payin lookup by reference_id, slash before "?"',
      ['v1', 'lookup', 'payin', 'reference', 'query', 'trailing_slash'], `${PAYINS_V1}?reference_id=ord-0999`),
    get('payin-by-reference-no-slash', 'v1 payin lookup by reference_id without the slash before "?"',
      ['v1', 'lookup', 'payin', 'reference', 'query'], `${BASE}/v1/merchants/payins?reference_id=ord-0999`),
    get('payin-by-reference-percent-encoded', 'v1 lookup with a percent-encoded reference (%20): signed as sent',
      ['v1', 'lookup', 'payin', 'reference', 'query', 'percent_encoding'], `${PAYINS_V1}?reference_id=order%200999`),
    get('get-with-body-signs-empty', 'v1 GET given a body: the signed body part is empty',
      ['v1', 'lookup', 'payin', 'get_body'], `${BASE}/v1/merchants/payins/${PAYIN}`, { body: '{}' }),
    get('payin-by-id-other-merchant', 'v1 lookup by another merchant at another timestamp',
      ['v1', 'lookup', 'payin'], `${BASE}/v1/merchants/payins/${PAYIN_2}/`, { merchant: MERCHANT_B, timestamp: '1732199940' }),
  ];
}

// =============================================================================================
// sign_request_post: bodies are exact bytes
// =============================================================================================

/** A 65,600-byte body (just over 64 KiB) in which two-byte 'é's straddle the 16 KiB and
 * 64 KiB chunk boundaries, so a signer that decodes chunks separately or reads only the first
 * 64 KiB gets a different signature. */
function largeBody() {
  const TOTAL = 65600;
  const head = '{"reference_id":"ord-1003","payment":{"amount":10,"currency":"EUR"},"browser_data":{"user_agent":"';
  const tail = '","ip_address":"203.0.113.24"}}';
  // An odd head length puts every 'é' at an odd offset, so the even offsets 16384 and 65536
  // fall in the middle of one.
  const start = head.length % 2 === 1 ? head : `${head.slice(0, -1)} "`;
  const room = TOTAL - utf8(start).length - utf8(tail).length;
  const filler = 'é'.repeat(Math.floor(room / 2)) + (room % 2 ? 'x' : '');
  const body = utf8(start + filler + tail);
  if (body.length !== TOTAL) throw new Error(`largeBody: ${body.length} bytes`);
  for (const boundary of [16384, 65536]) {
    if (body[boundary - 1] !== 0xc3 || body[boundary] !== 0xa9) throw new Error(`largeBody: no 'é' across ${boundary}`);
  }
  return body;
}

function signRequestPost() {
  const cat = 'sign_request_post';
  const post = (slug, description, flags, url, body, extra = {}) =>
    signRequestVector(cat, slug, { description, flags, input: request({ method: 'POST', url, body, ...extra }) });
  const crlf = pretty(payinV2).replaceAll('\n', '\r\n');
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(pretty(payoutV2))]);
  const invalidUtf8 = Buffer.concat([utf8('{"reference_id":"ord-1004","note":"'), Buffer.from([0xff, 0xfe]), utf8('"}')]);
  const payinJapan = {
    ...payinV2,
    reference_id: 'ord-1005',
    payment: { amount: 12000, currency: 'JPY' },
    customer: {
      ...payinV2.customer,
      email: 'hanako.yamada@example.com',
      first_name: '花子',
      last_name: '山田',
      phone: { country_code: '+81', number: '9012345678' },
      address: { addr_line_1: '千代田1-1', city: '東京', zip: '100-0001', country: 'JP' },
    },
    language: 'ja',
  };
  const payoutCyrillic = { ...payoutV2, reference_id: 'wd-2002', customer: { ...payoutV2.customer, first_name: 'Анна', last_name: 'Смирнова' } };
  return [
    // One JSON value, three serialisations, three signatures: the bytes are signed, not the value.
    post('payin-v2-pretty', 'create payin v2 with a pretty-printed body (2-space indent): the exact bytes are signed; re-serialising them gives the minified vector\'s bytes and a wrong signature',
      ['v2', 'create', 'payin', 'pretty', 'non_ascii'], PAYINS_V2, pretty(payinV2)),
    post('payin-v2-minified', 'the same payin as payin-v2-pretty, minified: a different signature from the pretty one',
      ['v2', 'create', 'payin', 'minified', 'non_ascii'], PAYINS_V2, minified(payinV2)),
    post('payin-v2-unicode-escaped', 'the same payin minified with non-ASCII written as \\u00e9-style escapes: same JSON value, different bytes, different signature',
      ['v2', 'create', 'payin', 'minified', 'unicode_escape'], PAYINS_V2, asciiEscaped(minified(payinV2))),
    post('payin-v2-pretty-trailing-newline', 'pretty-printed body ending in a newline (as editors and jq write it): the final \\n is signed',
      ['v2', 'create', 'payin', 'pretty', 'trailing_newline', 'non_ascii'], PAYINS_V2, `${pretty(payinV2)}\n`),
    post('payin-v2-python-separators', 'body as Python json.dumps writes it by default (", " and ": " separators, \\u escapes): signed as sent',
      ['v2', 'create', 'payin', 'unicode_escape'], PAYINS_V2, pythonDumps(payinV2)),
    post('payin-v2-amount-trailing-zero', 'minified body with "amount":149.90: a parse and re-serialise writes 149.9, so even a minified body must be signed as sent',
      ['v2', 'create', 'payin', 'minified', 'number_format', 'non_ascii'], PAYINS_V2, minified(payinV2).replace('"amount":149.9', '"amount":149.90')),
    post('payin-v2-crlf', 'pretty-printed body with CRLF line endings (Windows): every \\r is signed',
      ['v2', 'create', 'payin', 'pretty', 'crlf', 'non_ascii'], PAYINS_V2, crlf),
    post('payout-v2-bom', 'payout body starting with a UTF-8 BOM (EF BB BF): the BOM bytes are part of the body and are signed',
      ['v2', 'create', 'payout', 'pretty', 'bom'], PAYOUTS_V2, bom),
    post('payout-v2', 'create payout v2, minified body',
      ['v2', 'create', 'payout', 'minified'], PAYOUTS_V2, minified(payoutV2)),
    post('payout-v2-no-trailing-slash', 'create payout called without the trailing slash: signed as called (the service decides whether it routes)',
      ['v2', 'create', 'payout', 'minified'], `${BASE}/v2/merchants/payouts`, minified(payoutV2)),
    post('payin-v1-legacy-php', 'legacy create payin (v1) with a body as PHP json_encode writes it by default ("\\/" for "/", \\u escapes): signed as sent',
      ['v1', 'create', 'payin', 'legacy', 'unicode_escape', 'escaped_slash'], PAYINS_V1, phpEncoded(payinV1)),
    post('payin-v1-legacy-pretty', 'legacy create payin (v1), pretty-printed with raw UTF-8',
      ['v1', 'create', 'payin', 'legacy', 'pretty', 'non_ascii'], PAYINS_V1, pretty(payinV1)),
    post('empty-body', 'a POST with an empty body: the string ends with the URL',
      ['v2', 'create', 'payin', 'empty_body'], PAYINS_V2, ''),
    post('large-body-64kib', 'a 65,600-byte body whose two-byte "é" characters straddle the 16 KiB and 64 KiB boundaries: every byte is signed, read to the end, never decoded chunk by chunk',
      ['v2', 'create', 'payin', 'large_body', 'non_ascii'], PAYINS_V2, largeBody()),
    post('non-ascii-body-cjk', 'payin for a customer with Japanese name and address: the body\'s UTF-8 bytes are signed; re-encoding it as Latin-1 loses them',
      ['v2', 'create', 'payin', 'pretty', 'non_ascii'], PAYINS_V2, pretty(payinJapan)),
    post('non-ascii-body-cyrillic', 'payout to a customer with a Cyrillic name, minified',
      ['v2', 'create', 'payout', 'minified', 'non_ascii'], PAYOUTS_V2, minified(payoutCyrillic)),
    post('non-ascii-merchant-id', 'a merchant id with a non-ASCII character (m_café_42): encoded as UTF-8 in the string, and sent as-is in x-merchant-id',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_merchant'], PAYOUTS_V2, minified(payoutV2), { merchant: MERCHANT_NON_ASCII_ID }),
    post('non-ascii-secret-latin1-range', 'a secret with "é": the HMAC key is its UTF-8 bytes (c3 a9), not Latin-1 (e9)',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_secret'], PAYOUTS_V2, minified(payoutV2), { merchant: MERCHANT_LATIN1_SECRET }),
    post('non-ascii-secret-outside-latin1', 'a secret with Cyrillic letters and an emoji: the key is its UTF-8 bytes; Node\'s Buffer.from(secret, "latin1") keeps only low bytes',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_secret'], PAYOUTS_V2, minified(payoutV2), { merchant: MERCHANT_WIDE_SECRET }),
    post('invalid-utf8-body', 'a body containing bytes ff fe, not valid UTF-8: the bytes are signed as they are (no text round trip, which would replace them); string_to_sign_utf8 is null',
      ['v2', 'create', 'payin', 'invalid_utf8'], PAYINS_V2, invalidUtf8),
  ];
}

// =============================================================================================
// sign_request_collisions: no delimiters, so different inputs can share one string to sign
// =============================================================================================

function signRequestCollisions() {
  const cat = 'sign_request_collisions';
  // Each pair: two inputs whose strings to sign are byte-identical, hence the same signature.
  // A signer that adds delimiters, or signs fields separately, breaks the pair.
  const pairs = [
    {
      slug: 'merchant-timestamp-boundary',
      why: 'the merchant id ends in a digit and the timestamp is digits, so the boundary between them is invisible',
      flags: ['merchant_id', 'timestamp'],
      a: request({ merchant: { id: 'm_1', secret: MERCHANT.secret }, timestamp: '21732200000', method: 'GET', url: `${BASE}/v2/merchants/payins/${PAYIN}` }),
      b: request({ merchant: { id: 'm_12', secret: MERCHANT.secret }, timestamp: '1732200000', method: 'GET', url: `${BASE}/v2/merchants/payins/${PAYIN}` }),
    },
    {
      slug: 'merchant-timestamp-shift',
      why: 'moving the timestamp\'s first digit onto the merchant id leaves the string unchanged',
      flags: ['merchant_id', 'timestamp'],
      a: request({ method: 'GET', url: `${PAYINS_V2}?reference_id=ord-1001` }),
      b: request({ merchant: { id: 'm_123451', secret: MERCHANT.secret }, timestamp: '732200000', method: 'GET', url: `${PAYINS_V2}?reference_id=ord-1001` }),
    },
    {
      slug: 'url-body-boundary',
      why: 'on a POST the URL runs straight into the body',
      flags: ['url', 'body'],
      a: request({ method: 'POST', url: `${PAYINS_V2}ab`, body: 'c' }),
      b: request({ method: 'POST', url: `${PAYINS_V2}a`, body: 'bc' }),
    },
    {
      slug: 'query-body-boundary',
      why: 'the end of a query string and the start of a body join with nothing between them',
      flags: ['url', 'query', 'body'],
      a: request({ method: 'POST', url: `${PAYINS_V2}?source=web`, body: '{"reference_id":"ord-1001"}' }),
      b: request({ method: 'POST', url: `${PAYINS_V2}?source=`, body: 'web{"reference_id":"ord-1001"}' }),
    },
    {
      slug: 'get-body-ignored',
      why: 'a GET signs an empty body, so a GET given a body signs like one without',
      flags: ['get_body'],
      a: request({ method: 'GET', url: `${BASE}/v2/merchants/payouts/${PAYOUT}`, body: '{"expand":["fee"]}' }),
      b: request({ method: 'GET', url: `${BASE}/v2/merchants/payouts/${PAYOUT}` }),
    },
  ];
  const vectors = [];
  for (const { slug, why, flags, a, b } of pairs) {
    const idA = `${cat}/${slug}-a`;
    const idB = `${cat}/${slug}-b`;
    const va = signRequestVector(cat, `${slug}-a`, {
      description: `same string to sign and signature as ${idB}: ${why}`,
      flags: ['collision', ...flags],
      input: a,
    });
    const vb = signRequestVector(cat, `${slug}-b`, {
      description: `same string to sign and signature as ${idA}: ${why}`,
      flags: ['collision', ...flags],
      input: b,
    });
    if (va.string_to_sign_b64 !== vb.string_to_sign_b64) throw new Error(`${slug}: strings differ`);
    if (JSON.stringify(a) === JSON.stringify(b)) throw new Error(`${slug}: inputs are the same`);
    vectors.push(va, vb);
  }
  return vectors;
}

// =============================================================================================
// sign_simplified: the card-data push signature (merchant id + timestamp + payin id)
// =============================================================================================

function signSimplified() {
  const v = signSimplifiedVector;
  return [
    v('basic', { description: 'merchant id + timestamp + payin id, no delimiters and no method, as the interface\'s worked example shows', flags: ['simplified'], payinId: PAYIN }),
    v('other-payin', { description: 'another payin of the same merchant at the same second: only the payin id changes', flags: ['simplified'], payinId: PAYIN_2 }),
    v('other-merchant', { description: 'another merchant with its own secret', flags: ['simplified'], merchant: MERCHANT_B, timestamp: '1732203600', payinId: PAYIN }),
    v('other-timestamp', { description: 'a timestamp a minute earlier: the timestamp is signed as the decimal string sent in x-timestamp', flags: ['simplified', 'timestamp'], timestamp: '1732199940', payinId: PAYIN }),
    v('long-payin-id', { description: 'a 64-character payin id: no truncation', flags: ['simplified', 'long_id'], payinId: `pi_${'Z9y8X7w6V5u4T3s2R1q0'.repeat(3)}z` }),
    v('non-ascii-merchant-id', { description: 'a merchant id with "é": the string is UTF-8 encoded', flags: ['simplified', 'non_ascii', 'non_ascii_merchant'], merchant: MERCHANT_NON_ASCII_ID, payinId: PAYIN }),
    v('non-ascii-secret', { description: 'a secret with "é": the HMAC key is the secret\'s UTF-8 bytes', flags: ['simplified', 'non_ascii', 'non_ascii_secret'], merchant: MERCHANT_LATIN1_SECRET, payinId: PAYIN_2 }),
  ];
}

// =============================================================================================
// verify_webhook: a merchant checking a webhook (method POST, url = the exact webhook_url)
// =============================================================================================

/** The hex signature with the digit at `at` replaced by another hex digit. */
const changeDigit = (hex, at) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

function verifyWebhook() {
  const cat = 'verify_webhook';
  const now = plus(T0, 5); // the receiver's clock, five seconds after the usual send time
  // What the service signs for the usual webhook; cases change one thing at a time.
  const sender = { secret: MERCHANT.secret, merchantId: MERCHANT.id, timestamp: T0, method: 'POST', url: WEBHOOK_URL, body: webhookNew };
  const good = sentHeaders(sender);
  const v = (slug, fields) => verifyVector(cat, slug, { url: WEBHOOK_URL, body: webhookNew, now, headers: good, ...fields });
  const invalid = (reason) => ({ verdict: 'invalid', reason });
  const valid = { verdict: 'valid' };
  const withHeader = (name, value) => ({ ...good, [name]: value });
  const without = (name) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== name));
  /** Headers for a timestamp sent as-is and correctly signed, so only the timestamp check can fail. */
  const signedAt = (timestamp) => sentHeaders({ ...sender, timestamp });

  const prettyNew = `${pretty(JSON.parse(webhookNew))}\n`;
  const queryUrl = `${WEBHOOK_URL}?token=wh_8f3a2c`;
  const slashUrl = `${WEBHOOK_URL}/`;
  const other = { ...sender, secret: MERCHANT_B.secret, merchantId: MERCHANT_B.id };
  const badSig = senderSignature({ ...sender, secret: 'sk_test_not_the_right_secret_00' });

  return [
    // --- valid deliveries
    v('valid-basic', { description: 'a payin status webhook, signed by the service with the merchant\'s secret over the exact URL and body', flags: ['valid'], ...valid }),
    v('valid-payout-executed', { description: 'a payout webhook at another second', flags: ['valid'], body: webhookPayout, now: plus(T0, 1000),
      headers: sentHeaders({ ...sender, timestamp: plus(T0, 990), body: webhookPayout }), ...valid }),
    v('valid-url-with-query', { description: 'the webhook_url carries a query string: it is part of the signed URL', flags: ['valid', 'query'], url: queryUrl,
      headers: sentHeaders({ ...sender, url: queryUrl }), ...valid }),
    v('valid-url-trailing-slash', { description: 'the webhook_url ends in a slash: the slash is signed', flags: ['valid', 'trailing_slash'], url: slashUrl,
      headers: sentHeaders({ ...sender, url: slashUrl }), ...valid }),
    v('valid-pretty-body', { description: 'the service sent a pretty-printed body: it is verified as received, byte for byte', flags: ['valid', 'pretty'], body: prettyNew,
      headers: sentHeaders({ ...sender, body: prettyNew }), ...valid }),
    v('valid-non-ascii-body', { description: 'a body with non-ASCII characters (UTF-8): the received bytes are signed', flags: ['valid', 'non_ascii'],
      body: minified({ id: PAYIN, reference_id: 'заказ-1001', status: 'new' }),
      headers: sentHeaders({ ...sender, body: minified({ id: PAYIN, reference_id: 'заказ-1001', status: 'new' }) }), ...valid }),
    v('valid-empty-body', { description: 'an empty body: the string ends with the URL', flags: ['valid', 'empty_body'], body: '',
      headers: sentHeaders({ ...sender, body: '' }), ...valid }),
    v('valid-invalid-utf8-body', { description: 'a body that is not valid UTF-8 (bytes ff fe): verified over the raw bytes, no text round trip', flags: ['valid', 'invalid_utf8'],
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), headers: sentHeaders({ ...sender, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }), ...valid }),
    v('valid-leading-zero-timestamp', { description: 'x-timestamp "01732200000": decimal digits, 1732200000 s, within tolerance; the header string is signed as received, not re-formatted from the number', flags: ['valid', 'timestamp'],
      headers: signedAt(`0${T0}`), ...valid }),
    v('valid-non-ascii-merchant', { description: 'a merchant id with "é": compared and signed as UTF-8', flags: ['valid', 'non_ascii', 'non_ascii_merchant'], merchant: MERCHANT_NON_ASCII_ID,
      headers: sentHeaders({ ...sender, merchantId: MERCHANT_NON_ASCII_ID.id, secret: MERCHANT_NON_ASCII_ID.secret }), ...valid }),
    // --- tolerance: |now - ts| <= 60 is accepted, both ways
    v('tolerance-60s-past', { description: 'received 60 s after it was signed: the edge of the tolerance, accepted', flags: ['tolerance', 'valid'], now: plus(T0, 60), ...valid }),
    v('tolerance-60s-future', { description: 'signed 60 s ahead of the receiver\'s clock: the edge of the tolerance, accepted', flags: ['tolerance', 'valid'], now: plus(T0, -60), ...valid }),
    v('tolerance-same-second', { description: 'received the second it was signed', flags: ['tolerance', 'valid'], now: T0, ...valid }),
    v('expired-61s-past', { description: 'signed 61 s before the receiver\'s clock: one second past the tolerance', flags: ['tolerance', 'expired'], now: plus(T0, 61), ...invalid('expired') }),
    v('expired-61s-future', { description: 'signed 61 s ahead of the receiver\'s clock: the tolerance applies both ways', flags: ['tolerance', 'expired'], now: plus(T0, -61), ...invalid('expired') }),
    v('expired-milliseconds', { description: 'x-timestamp in milliseconds (1732200000000): digits, so well formed, but far from now', flags: ['tolerance', 'expired', 'timestamp'],
      headers: signedAt(`${T0}000`), ...invalid('expired') }),
    v('expired-very-large', { description: 'a 30-digit x-timestamp: well formed, expired; compare without overflowing', flags: ['tolerance', 'expired', 'timestamp'],
      headers: signedAt('173220000000000000000000000000'), ...invalid('expired') }),
    // --- the body and URL must be exactly the ones signed
    v('tampered-body', { description: 'the body says "executed" but "new" was signed', flags: ['tampered'], body: webhookExecuted, ...invalid('bad_signature') }),
    v('body-reserialised-pretty', { description: 'signed over the minified body, verified over a pretty-printed re-serialisation of it (a framework parsed the JSON first)', flags: ['reserialised'],
      body: prettyNew, ...invalid('bad_signature') }),
    v('body-reserialised-minified', { description: 'signed over a pretty-printed body, verified over its minified re-serialisation', flags: ['reserialised'],
      headers: sentHeaders({ ...sender, body: prettyNew }), ...invalid('bad_signature') }),
    v('url-trailing-slash-dropped', { description: 'the service signed the webhook_url with its trailing slash; the verifier was configured without it', flags: ['url', 'trailing_slash'],
      headers: sentHeaders({ ...sender, url: slashUrl }), ...invalid('bad_signature') }),
    v('url-trailing-slash-added', { description: 'the service signed the webhook_url without a trailing slash; the verifier was configured with one', flags: ['url', 'trailing_slash'],
      url: slashUrl, ...invalid('bad_signature') }),
    v('url-query-dropped', { description: 'the webhook_url had a query string; the verifier uses the URL without it', flags: ['url', 'query'],
      headers: sentHeaders({ ...sender, url: queryUrl }), ...invalid('bad_signature') }),
    v('url-http-instead-of-https', { description: 'signed over https; the verifier rebuilt the URL as http (behind a TLS-terminating proxy) instead of using the configured one', flags: ['url', 'scheme'],
      url: 'http://shop.example/webhooks/pay', ...invalid('bad_signature') }),
    v('url-host-case', { description: 'the verifier\'s URL spells the host in capitals: URLs are compared as bytes, never normalised', flags: ['url', 'host_case'],
      url: 'https://Shop.Example/webhooks/pay', ...invalid('bad_signature') }),
    v('wrong-secret', { description: 'signed with a secret that is not the merchant\'s', flags: ['secret'], headers: withHeader('x-signature', badSig), ...invalid('bad_signature') }),
    // A verifier that compares only part of the signature accepts these: one hex digit off, at each end.
    v('bad-signature-last-digit', { description: 'the correct signature with its last hex digit changed: every character must be compared, not a prefix', flags: ['partial_compare'],
      headers: withHeader('x-signature', changeDigit(good['x-signature'], 63)), ...invalid('bad_signature') }),
    v('bad-signature-first-digit', { description: 'the correct signature with its first hex digit changed: every character must be compared, not a suffix', flags: ['partial_compare'],
      headers: withHeader('x-signature', changeDigit(good['x-signature'], 0)), ...invalid('bad_signature') }),
    // --- merchant id
    v('merchant-mismatch', { description: 'x-merchant-id names another merchant (m_67890), correctly signed with that merchant\'s id and secret: not for this receiver', flags: ['merchant'],
      headers: sentHeaders(other), ...invalid('merchant_mismatch') }),
    v('merchant-mismatch-case', { description: 'x-merchant-id "M_12345": ids compare exactly, case included', flags: ['merchant'],
      headers: sentHeaders({ ...sender, merchantId: 'M_12345' }), ...invalid('merchant_mismatch') }),
    // --- missing and empty headers
    v('missing-x-signature', { description: 'no x-signature header', flags: ['missing'], headers: without('x-signature'), ...invalid('missing_header') }),
    v('missing-x-timestamp', { description: 'no x-timestamp header', flags: ['missing'], headers: without('x-timestamp'), ...invalid('missing_header') }),
    v('missing-x-merchant-id', { description: 'no x-merchant-id header', flags: ['missing'], headers: without('x-merchant-id'), ...invalid('missing_header') }),
    v('missing-all-headers', { description: 'none of the three headers: an unsigned request', flags: ['missing'], headers: {}, ...invalid('missing_header') }),
    v('empty-x-signature', { description: 'x-signature present but empty: treated as missing', flags: ['missing', 'empty'], headers: withHeader('x-signature', ''), ...invalid('missing_header') }),
    v('empty-x-timestamp', { description: 'x-timestamp present but empty: treated as missing', flags: ['missing', 'empty'], headers: withHeader('x-timestamp', ''), ...invalid('missing_header') }),
    v('empty-x-merchant-id', { description: 'x-merchant-id present but empty: treated as missing', flags: ['missing', 'empty'], headers: withHeader('x-merchant-id', ''), ...invalid('missing_header') }),
    // --- malformed timestamps: each correctly signed over the header as sent, so a verifier that
    // parses leniently (parseInt, Number, trimming) would accept what it must reject.
    ...[
      ['fraction', '1732200000.5', 'a fractional number of seconds'],
      ['negative', '-1732200000', 'a minus sign'],
      ['plus-sign', '+1732200000', 'a plus sign'],
      ['leading-space', ' 1732200000', 'a leading space'],
      ['trailing-space', '1732200000 ', 'a trailing space'],
      ['exponent', '1.7322e9', 'exponent notation (equal to 1732200000)'],
      ['hex', `0x${Number(T0).toString(16)}`, 'hexadecimal (equal to 1732200000)'],
      ['trailing-letters', '1732200000abc', 'letters after the digits (parseInt would stop before them)'],
      ['fullwidth-digits', '１７３２２０００００', 'full-width digits U+FF11.. (Unicode digits, not ASCII 0-9)'],
      ['iso-8601', '2024-11-21T14:40:00Z', 'an ISO 8601 date'],
    ].map(([slug, ts, what]) =>
      v(`malformed-timestamp-${slug}`, { description: `x-timestamp "${ts}": ${what}; only decimal digits are a timestamp`, flags: ['malformed', 'timestamp'],
        headers: signedAt(ts), ...invalid('malformed_timestamp') })),
    // --- malformed signatures
    v('malformed-signature-63-hex', { description: 'x-signature of 63 hex characters (the last one cut)', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', good['x-signature'].slice(0, 63)), ...invalid('malformed_signature') }),
    v('malformed-signature-65-hex', { description: 'x-signature of 65 hex characters (a "0" appended)', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature']}0`), ...invalid('malformed_signature') }),
    v('malformed-signature-non-hex', { description: 'x-signature of 64 characters, one of them "g"', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature'].slice(0, 63)}g`), ...invalid('malformed_signature') }),
    v('malformed-signature-sha256-prefix', { description: 'x-signature "sha256=<correct hex>": the header is the bare 64 hex characters, no prefix', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `sha256=${good['x-signature']}`), ...invalid('malformed_signature') }),
    v('malformed-signature-surrounding-spaces', { description: 'the correct signature with a space before and after: not 64 hex characters as received', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', ` ${good['x-signature']} `), ...invalid('malformed_signature') }),
    v('malformed-signature-base64', { description: 'the correct HMAC written in base64 instead of hex', flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', Buffer.from(good['x-signature'], 'hex').toString('base64')), ...invalid('malformed_signature') }),
    // --- a header received twice: values joined with ", "
    v('duplicate-x-signature', { description: 'x-signature received twice (the same value): joined as "<sig>, <sig>", not 64 hex characters', flags: ['duplicate_header', 'malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature']}, ${good['x-signature']}`), ...invalid('malformed_signature') }),
    v('duplicate-x-timestamp', { description: 'x-timestamp received twice: joined as "1732200000, 1732200000", not digits', flags: ['duplicate_header', 'malformed', 'timestamp'],
      headers: withHeader('x-timestamp', `${T0}, ${T0}`), ...invalid('malformed_timestamp') }),
    v('duplicate-x-merchant-id', { description: 'x-merchant-id received twice: joined as "m_12345, m_12345", which is not the merchant', flags: ['duplicate_header', 'merchant'],
      headers: withHeader('x-merchant-id', `${MERCHANT.id}, ${MERCHANT.id}`), ...invalid('merchant_mismatch') }),
    // --- check order: two checks fail, the first in the protocol's table is the reason
    v('order-missing-before-malformed-timestamp', { description: 'x-signature missing and x-timestamp malformed: missing_header comes first', flags: ['check_order'],
      headers: { 'x-merchant-id': MERCHANT.id, 'x-timestamp': '1732200000.5' }, ...invalid('missing_header') }),
    v('order-malformed-timestamp-before-bad-signature', { description: 'x-timestamp malformed and the signature wrong: malformed_timestamp comes first', flags: ['check_order'],
      headers: { ...good, 'x-timestamp': '1732200000.5', 'x-signature': badSig }, ...invalid('malformed_timestamp') }),
    v('order-malformed-timestamp-before-malformed-signature', { description: 'x-timestamp and x-signature both malformed: malformed_timestamp comes first', flags: ['check_order'],
      headers: { ...good, 'x-timestamp': '-1', 'x-signature': 'sha256=abc' }, ...invalid('malformed_timestamp') }),
    v('order-expired-before-merchant-mismatch', { description: 'expired (61 s old) and signed for another merchant: expired comes first', flags: ['check_order'],
      headers: sentHeaders(other), now: plus(T0, 61), ...invalid('expired') }),
    v('order-expired-before-malformed-signature', { description: 'expired (61 s ahead) and a 63-character signature: expired comes first', flags: ['check_order'],
      headers: withHeader('x-signature', good['x-signature'].slice(0, 63)), now: plus(T0, -61), ...invalid('expired') }),
    v('order-expired-before-bad-signature', { description: 'expired and signed with the wrong secret: expired comes first (no HMAC needed)', flags: ['check_order'],
      headers: withHeader('x-signature', badSig), now: plus(T0, 3600), ...invalid('expired') }),
    v('order-merchant-mismatch-before-malformed-signature', { description: 'another merchant\'s id and a signature with a "sha256=" prefix: merchant_mismatch comes first', flags: ['check_order'],
      headers: { ...sentHeaders(other), 'x-signature': `sha256=${sentHeaders(other)['x-signature']}` }, ...invalid('merchant_mismatch') }),
    v('order-merchant-mismatch-before-bad-signature', { description: 'another merchant\'s id and a signature that matches nothing: merchant_mismatch comes first', flags: ['check_order'],
      headers: { ...good, 'x-merchant-id': MERCHANT_B.id, 'x-signature': badSig }, ...invalid('merchant_mismatch') }),
    v('order-malformed-signature-before-bad-signature', { description: 'a 64-character signature with a non-hex character: malformed_signature, not bad_signature', flags: ['check_order'],
      headers: withHeader('x-signature', `z${good['x-signature'].slice(1)}`), ...invalid('malformed_signature') }),
    // --- left open by the interface
    v('uppercase-signature', { description: 'the correct signature in uppercase hex: the interface shows lowercase; a verifier may accept or reject it (acceptable)', flags: ['uppercase', 'open'],
      headers: withHeader('x-signature', good['x-signature'].toUpperCase()), verdict: 'acceptable' }),
  ];
}

// =============================================================================================
// verify_request: the service checking a merchant's call (GET lookups and POST creates)
// =============================================================================================

function verifyRequest() {
  const cat = 'verify_request';
  const now = plus(T0, 2);
  const lookupUrl = `${BASE}/v2/merchants/payins/${PAYIN}`;
  const getSender = { secret: MERCHANT.secret, merchantId: MERCHANT.id, timestamp: T0, method: 'GET', url: lookupUrl };
  const postBody = minified(payinV2);
  const postSender = { secret: MERCHANT.secret, merchantId: MERCHANT.id, timestamp: T0, method: 'POST', url: PAYINS_V2, body: postBody };
  const getGood = sentHeaders(getSender);
  const postGood = sentHeaders(postSender);
  const vGet = (slug, fields) => verifyVector(cat, slug, { method: 'GET', url: lookupUrl, now, headers: getGood, ...fields });
  const vPost = (slug, fields) => verifyVector(cat, slug, { method: 'POST', url: PAYINS_V2, body: postBody, now, headers: postGood, ...fields });
  const invalid = (reason) => ({ verdict: 'invalid', reason });
  const valid = { verdict: 'valid' };
  const byRef = `${PAYINS_V2}?reference_id=ord-1001`;
  const getBody = '{"expand":["fee"]}';
  const payoutLookup = `${BASE}/v2/merchants/payouts/${PAYOUT}/`;

  return [
    // --- valid calls
    vGet('valid-get-payin-by-id', { description: 'v2 payin lookup by id, correctly signed (body part empty)', flags: ['valid', 'get', 'lookup'], ...valid }),
    vGet('valid-get-payin-by-reference', { description: 'v2 payin lookup by reference_id: the query string is part of the signed URL', flags: ['valid', 'get', 'lookup', 'query'], url: byRef,
      headers: sentHeaders({ ...getSender, url: byRef }), ...valid }),
    vGet('valid-get-payout-trailing-slash', { description: 'v2 payout lookup called with a trailing slash and signed with it', flags: ['valid', 'get', 'lookup', 'trailing_slash'], url: payoutLookup,
      headers: sentHeaders({ ...getSender, url: payoutLookup }), ...valid }),
    vGet('valid-get-v1-lookup', { description: 'v1 payin lookup as in the interface\'s GET example', flags: ['valid', 'get', 'lookup', 'v1'], url: `${BASE}/v1/merchants/payins/${PAYIN}`,
      headers: sentHeaders({ ...getSender, url: `${BASE}/v1/merchants/payins/${PAYIN}` }), ...valid }),
    vGet('valid-get-with-body-signed-empty', { description: 'a GET that arrives with body bytes, signed over an empty body: valid, the body of a GET is not signed', flags: ['valid', 'get', 'get_body'],
      body: getBody, ...valid }),
    vPost('valid-post-create-payin', { description: 'create payin v2, signed over the exact minified body', flags: ['valid', 'post', 'create'], ...valid }),
    vPost('valid-post-create-payout', { description: 'create payout v2', flags: ['valid', 'post', 'create'], url: PAYOUTS_V2, body: pretty(payoutV2),
      headers: sentHeaders({ ...postSender, url: PAYOUTS_V2, body: pretty(payoutV2) }), ...valid }),
    vPost('valid-post-legacy-v1', { description: 'legacy create payin (v1) with a PHP-style escaped body', flags: ['valid', 'post', 'create', 'v1'], url: PAYINS_V1, body: phpEncoded(payinV1),
      headers: sentHeaders({ ...postSender, url: PAYINS_V1, body: phpEncoded(payinV1) }), ...valid }),
    vPost('valid-post-empty-body', { description: 'a POST with an empty body, signed over it', flags: ['valid', 'post', 'empty_body'], body: '',
      headers: sentHeaders({ ...postSender, body: '' }), ...valid }),
    vPost('valid-post-non-ascii-merchant', { description: 'a merchant id with "é", signed and compared as UTF-8', flags: ['valid', 'post', 'non_ascii', 'non_ascii_merchant'], merchant: MERCHANT_NON_ASCII_ID,
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_NON_ASCII_ID.id, secret: MERCHANT_NON_ASCII_ID.secret }), ...valid }),
    vPost('valid-post-non-ascii-secret', { description: 'a secret with Cyrillic letters and an emoji: the key is its UTF-8 bytes', flags: ['valid', 'post', 'non_ascii', 'non_ascii_secret'], merchant: MERCHANT_WIDE_SECRET,
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_WIDE_SECRET.id, secret: MERCHANT_WIDE_SECRET.secret }), ...valid }),
    // --- signer mistakes the service must reject
    vGet('get-signed-with-body', { description: 'a GET whose signer included the body it sent in the string: a GET signs an empty body', flags: ['get', 'get_body'], body: getBody,
      headers: { ...getGood, 'x-signature': senderSignature({ ...getSender, body: getBody, includeBodyForGet: true }) }, ...invalid('bad_signature') }),
    vGet('method-lowercased', { description: 'the signer wrote "get" in the string: the method is signed in capitals', flags: ['get', 'method'],
      headers: { ...getGood, 'x-signature': senderSignature({ ...getSender, method: 'get' }) }, ...invalid('bad_signature') }),
    vGet('url-trailing-slash-dropped', { description: 'called with a trailing slash, signed without it', flags: ['get', 'url', 'trailing_slash'], url: `${lookupUrl}/`, ...invalid('bad_signature') }),
    vGet('url-trailing-slash-added', { description: 'called without a trailing slash, signed with one', flags: ['get', 'url', 'trailing_slash'],
      headers: sentHeaders({ ...getSender, url: `${lookupUrl}/` }), ...invalid('bad_signature') }),
    vGet('url-path-only', { description: 'the signer signed the path without scheme and host', flags: ['get', 'url'],
      headers: sentHeaders({ ...getSender, url: `/v2/merchants/payins/${PAYIN}` }), ...invalid('bad_signature') }),
    vGet('url-query-dropped', { description: 'a lookup by reference signed without its query string', flags: ['get', 'url', 'query'], url: byRef,
      headers: sentHeaders({ ...getSender, url: PAYINS_V2 }), ...invalid('bad_signature') }),
    vPost('body-reserialised', { description: 'signed over a pretty-printed body, sent minified', flags: ['post', 'reserialised'],
      headers: sentHeaders({ ...postSender, body: pretty(payinV2) }), ...invalid('bad_signature') }),
    vPost('wrong-secret', { description: 'signed with another merchant\'s secret under this merchant\'s id', flags: ['post', 'secret'],
      headers: sentHeaders({ ...postSender, secret: MERCHANT_B.secret }), ...invalid('bad_signature') }),
    // --- timestamps
    vGet('tolerance-60s-past', { description: 'received 60 s after signing: accepted', flags: ['tolerance', 'valid'], now: plus(T0, 60), ...valid }),
    vGet('tolerance-60s-future', { description: 'signed 60 s ahead of the server clock: accepted', flags: ['tolerance', 'valid'], now: plus(T0, -60), ...valid }),
    vGet('expired-61s-past', { description: 'received 61 s after signing: expired', flags: ['tolerance', 'expired'], now: plus(T0, 61), ...invalid('expired') }),
    vPost('expired-61s-future', { description: 'signed 61 s ahead of the server clock: expired', flags: ['tolerance', 'expired'], now: plus(T0, -61), ...invalid('expired') }),
    vPost('malformed-timestamp-fraction', { description: 'x-timestamp "1732200000.5", signed as sent: not a whole number of seconds', flags: ['malformed', 'timestamp'],
      headers: sentHeaders({ ...postSender, timestamp: '1732200000.5' }), ...invalid('malformed_timestamp') }),
    vGet('malformed-timestamp-milliseconds-fraction', { description: 'x-timestamp "1732200000.123" (seconds with milliseconds), signed as sent', flags: ['malformed', 'timestamp'],
      headers: sentHeaders({ ...getSender, timestamp: '1732200000.123' }), ...invalid('malformed_timestamp') }),
    // --- headers
    vGet('missing-x-signature', { description: 'no x-signature header', flags: ['missing'], headers: { 'x-merchant-id': MERCHANT.id, 'x-timestamp': T0 }, ...invalid('missing_header') }),
    vPost('missing-x-merchant-id', { description: 'no x-merchant-id header', flags: ['missing'], headers: { 'x-timestamp': T0, 'x-signature': postGood['x-signature'] }, ...invalid('missing_header') }),
    vGet('empty-x-timestamp', { description: 'x-timestamp present but empty', flags: ['missing', 'empty'], headers: { ...getGood, 'x-timestamp': '' }, ...invalid('missing_header') }),
    vPost('merchant-mismatch', { description: 'x-merchant-id names another merchant than the one whose key the service checks, correctly signed for that merchant', flags: ['merchant'],
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_B.id, secret: MERCHANT_B.secret }), ...invalid('merchant_mismatch') }),
    vGet('malformed-signature-sha256-prefix', { description: 'x-signature "sha256=<correct hex>"', flags: ['malformed', 'signature'],
      headers: { ...getGood, 'x-signature': `sha256=${getGood['x-signature']}` }, ...invalid('malformed_signature') }),
    vPost('malformed-signature-63-hex', { description: 'x-signature of 63 hex characters', flags: ['malformed', 'signature'],
      headers: { ...postGood, 'x-signature': postGood['x-signature'].slice(0, 63) }, ...invalid('malformed_signature') }),
    vPost('order-expired-before-bad-signature', { description: 'expired and wrongly signed: expired comes first', flags: ['check_order'],
      headers: { ...postGood, 'x-signature': senderSignature({ ...postSender, secret: MERCHANT_B.secret }) }, now: plus(T0, 120), ...invalid('expired') }),
    vGet('order-missing-before-expired', { description: 'x-merchant-id missing and expired: missing_header comes first', flags: ['check_order'],
      headers: { 'x-timestamp': T0, 'x-signature': getGood['x-signature'] }, now: plus(T0, 600), ...invalid('missing_header') }),
    vGet('order-merchant-mismatch-before-bad-signature', { description: 'another merchant\'s id with this merchant\'s signature: merchant_mismatch comes first', flags: ['check_order'],
      headers: { ...getGood, 'x-merchant-id': MERCHANT_B.id }, ...invalid('merchant_mismatch') }),
    // --- left open
    vPost('uppercase-signature', { description: 'the correct signature in uppercase hex: either verdict passes (acceptable)', flags: ['uppercase', 'open'],
      headers: { ...postGood, 'x-signature': postGood['x-signature'].toUpperCase() }, verdict: 'acceptable' }),
  ];
}

// =============================================================================================
// Files
// =============================================================================================

const CATEGORIES = [
  { category: 'sign_request_get', command: 'sign_request', build: signRequestGet,
    description: 'x-signature on v2 lookups (GET): by id and by reference, with and without trailing slash; query strings signed exactly as sent; a GET signs an empty body.' },
  { category: 'sign_request_get_v1', command: 'sign_request', build: signRequestGetV1,
    description: 'x-signature on the /v1/ lookup paths the interface\'s signing examples use: <merchant_id><timestamp>GET<full_url>.' },
  { category: 'sign_request_post', command: 'sign_request', build: signRequestPost,
    description: 'x-signature on creates (POST): the body is signed as its exact bytes (pretty, minified, escaped, CRLF, BOM, empty, large, not UTF-8), with non-ASCII merchant ids and secrets encoded as UTF-8.' },
  { category: 'sign_request_collisions', command: 'sign_request', build: signRequestCollisions,
    description: 'The string to sign concatenates its parts without delimiters: each pair of vectors has different inputs and the same string to sign, hence the same signature.' },
  { category: 'sign_simplified', command: 'sign_simplified', build: signSimplified,
    description: 'x-simplified-signature on card-data pushes: merchant id + timestamp + payin id, no delimiters, no method.' },
  { category: 'verify_webhook', command: 'verify_webhook', build: verifyWebhook,
    description: 'A merchant verifying a webhook (POST to its exact webhook_url): valid deliveries, the 60 s tolerance both ways, tampering, URL variants, wrong secret or merchant, missing and malformed headers, and the protocol\'s check order.' },
  { category: 'verify_request', command: 'verify_request', build: verifyRequest,
    description: 'The service verifying a merchant\'s call: GET lookups (body never signed) and POST creates, with the same verdicts and check order as webhooks.' },
];

function main() {
  const here = dirname(fileURLToPath(import.meta.url));
  const outDir = resolve(process.argv[2] ?? here);
  mkdirSync(outDir, { recursive: true });
  const seen = new Set();
  for (const { category, command, description, build } of CATEGORIES) {
    const vectors = build();
    for (const { id } of vectors) {
      if (!id.startsWith(`${category}/`)) throw new Error(`${id}: not in ${category}`);
      if (seen.has(id)) throw new Error(`${id}: duplicate id`);
      seen.add(id);
    }
    const file = {
      $schema: './schema.json',
      suite: SUITE,
      suite_version: SUITE_VERSION,
      protocol: PROTOCOL,
      category,
      command,
      description,
      vectors,
    };
    writeFileSync(join(outDir, `${category}.json`), `${JSON.stringify(file, null, 2)}\n`);
    console.log(`${category}.json: ${vectors.length} vectors`);
  }
}

main();
