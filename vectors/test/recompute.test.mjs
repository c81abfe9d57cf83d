// Recomputes every vector with a second HMAC implementation (@noble/hashes) and a string-to-sign
// builder written here from the interface, independently of generate.mjs (which uses
// node:crypto): expected headers, strings to sign, each named mistake re-derived from its name,
// and every verification verdict and reason through a small verifier following the harness
// protocol's check order.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { allVectors, loadSuite } from './suite.mjs';

const suite = loadSuite();
const vectors = allVectors(suite);
const find = (id) => vectors.find(({ vector }) => vector.id === id)?.vector;

// ---------------------------------------------------------------------------------------------
// Bytes and HMAC, without node:crypto or Buffer
// ---------------------------------------------------------------------------------------------

const encoder = new TextEncoder();
const text = (s) => encoder.encode(s);
const NOTHING = new Uint8Array(0);

function concat(...chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function fromBase64(s) {
  const binary = atob(s);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}

const sameBytes = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const hmacHex = (key, message) => toHex(hmac(sha256, key, message));

/** Latin-1 as Node's Buffer.from(s, 'latin1') does it: the low byte of every UTF-16 code unit. */
const lowBytes = (s) => Uint8Array.from({ length: s.length }, (_, i) => s.charCodeAt(i) & 0xff);

/** UTF-8 text of a body, or null; TextDecoder's default drops a leading BOM, as a JSON reader would. */
function bodyText(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The strings to sign, from the interface's Authentication section
// ---------------------------------------------------------------------------------------------

/** x-signature / webhook: merchant id, timestamp, method, full URL, body; GET's body is empty. */
function requestMessage(merchantId, timestamp, method, url, body) {
  const bodyPart = method === 'GET' ? NOTHING : body;
  return concat(text(merchantId), text(timestamp), text(method), text(url), bodyPart);
}

/** x-simplified-signature: merchant id, timestamp, payin id. */
const simplifiedMessage = (input) => text(`${input.merchant_id}${input.timestamp}${input.payin_id}`);

/** Where the path starts: after "scheme://host[:port]". */
function pathStart(url) {
  let i = url.indexOf('://') + 3;
  while (i < url.length && !'/?#'.includes(url[i])) i += 1;
  return i;
}

/**
 * Every mistake of README.md that applies to a sign_request input, re-derived from its name:
 * name → the key and message the mistaken signer uses.
 */
function requestMistakes(input) {
  const body = fromBase64(input.body_b64);
  const key = text(input.secret);
  const isGet = input.method === 'GET';
  const q = input.url.indexOf('?');
  const path = q === -1 ? input.url : input.url.slice(0, q);
  const query = q === -1 ? '' : input.url.slice(q);
  const withUrl = (url) => ({ key, message: requestMessage(input.merchant_id, input.timestamp, input.method, url, body) });
  const withBody = (signedBody) => ({
    key,
    message: concat(text(input.merchant_id + input.timestamp + input.method + input.url), signedBody),
  });
  const out = {};
  if (path.endsWith('/')) out.url_trailing_slash_dropped = withUrl(path.slice(0, -1) + query);
  else out.url_trailing_slash_added = withUrl(`${path}/${query}`);
  out.url_path_only = withUrl(input.url.slice(pathStart(input.url)));
  if (q !== -1) out.url_query_dropped = withUrl(path);
  const decoded = isGet ? null : bodyText(body);
  if (decoded !== null) {
    try {
      out.body_reserialised = withBody(text(JSON.stringify(JSON.parse(decoded))));
    } catch {
      // not JSON: nothing to re-serialise
    }
    out.body_latin1 = withBody(lowBytes(decoded));
  }
  if (isGet && body.length > 0) out.body_signed_for_get = withBody(body);
  out.method_lowercased = {
    key,
    // the method's text changes, the body part stays what the method requires (empty for GET)
    message: concat(text(input.merchant_id + input.timestamp + input.method.toLowerCase() + input.url), isGet ? NOTHING : body),
  };
  out.secret_latin1 = {
    key: lowBytes(input.secret),
    message: requestMessage(input.merchant_id, input.timestamp, input.method, input.url, body),
  };
  return out;
}

function simplifiedMistakes(input) {
  const key = text(input.secret);
  return {
    simplified_method_included: { key, message: text(`${input.merchant_id}${input.timestamp}POST${input.payin_id}`) },
    simplified_fields_reordered: { key, message: text(`${input.timestamp}${input.merchant_id}${input.payin_id}`) },
    secret_latin1: { key: lowBytes(input.secret), message: simplifiedMessage(input) },
  };
}

/** name → signature for the mistakes that change the signature, as README.md lists them. */
function expectedMistakes(derived, signature) {
  const out = {};
  for (const [name, { key, message }] of Object.entries(derived)) {
    const mistaken = hmacHex(key, message);
    if (mistaken !== signature) out[name] = mistaken;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A verifier, following the harness protocol's table order
// ---------------------------------------------------------------------------------------------

/**
 * The verdict, or with `mistake` the verdict of a verifier that makes one of a few of the named
 * verifier mistakes, re-derived here from the name (the generator derives all of them its own way).
 */
function verdictOf(input, mistake = null) {
  const { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature } = input.headers;
  const fail = (reason) => ({ verdict: 'invalid', reason });
  if (mistake === 'skips_verification') return { verdict: 'valid', reason: null };
  if (!merchantId || !timestamp || !signature) return fail('missing_header');
  if (!/^[0-9]+$/.test(timestamp)) return fail('malformed_timestamp');
  const skew = BigInt(input.now) - BigInt(timestamp);
  if (mistake !== 'ignores_expiry' && (skew > 60n || skew < -60n)) return fail('expired');
  if (mistake !== 'ignores_merchant' && merchantId !== input.merchant_id) return fail('merchant_mismatch');
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return fail('malformed_signature');
  let { url, method } = input;
  const at = url.indexOf('?');
  if (mistake === 'url_query_dropped' && at !== -1) url = url.slice(0, at);
  if (mistake === 'url_trailing_slash_dropped') url = url.replace(/\/(\?|$)/, '$1');
  if (mistake === 'method_lowercased') method = method.toLowerCase();
  const body = method.toUpperCase() === 'GET' ? NOTHING : fromBase64(input.body_b64);
  const correct = hmacHex(text(input.secret), concat(text(merchantId + timestamp + method + url), body));
  if (signature === correct) return { verdict: 'valid', reason: null };
  if (signature.toLowerCase() === correct) return { verdict: 'acceptable', reason: null };
  return fail('bad_signature');
}

/** The named verifier mistakes this file re-derives. */
const REDERIVED = [
  'skips_verification',
  'ignores_expiry',
  'ignores_merchant',
  'url_query_dropped',
  'url_trailing_slash_dropped',
  'method_lowercased',
];

// ---------------------------------------------------------------------------------------------

describe('signing vectors', () => {
  const signing = vectors.filter(({ command }) => command.startsWith('sign_'));

  it.each(signing.map(({ command, vector }) => [vector.id, command, vector]))('%s', (_id, command, vector) => {
    const { input } = vector;
    const simplified = command === 'sign_simplified';
    const message = simplified
      ? simplifiedMessage(input)
      : requestMessage(input.merchant_id, input.timestamp, input.method, input.url, fromBase64(input.body_b64));
    const signature = hmacHex(text(input.secret), message);

    expect(sameBytes(fromBase64(vector.string_to_sign_b64), message), 'string_to_sign_b64').toBe(true);
    expect(vector.expected.headers).toEqual({
      'x-merchant-id': input.merchant_id,
      'x-timestamp': input.timestamp,
      [simplified ? 'x-simplified-signature' : 'x-signature']: signature,
    });

    const derived = simplified ? simplifiedMistakes(input) : requestMistakes(input);
    const listed = Object.fromEntries(vector.mistakes.map((m) => [m.name, m.signature]));
    expect(listed).toEqual(expectedMistakes(derived, signature));
  });
});

describe('verification vectors', () => {
  const verifying = vectors.filter(({ command }) => command.startsWith('verify_'));

  it.each(verifying.map(({ vector }) => [vector.id, vector]))('%s', (_id, vector) => {
    const { input, expected } = vector;
    const body = fromBase64(input.body_b64);
    const headers = input.headers;

    // The verdict and reason, by an independent verifier.
    expect(verdictOf(input)).toEqual({ verdict: expected.verdict, reason: expected.reason });

    // Some of the listed verifier mistakes, re-derived: listed exactly when they change the
    // answer, with the answer the mistaken verifier gives.
    if (expected.verdict !== 'acceptable') {
      for (const name of REDERIVED) {
        const mistaken = verdictOf(input, name);
        const changes = mistaken.verdict !== expected.verdict || mistaken.reason !== expected.reason;
        const listed = vector.mistakes.find((m) => m.name === name);
        expect(listed?.answer ?? null, name).toEqual(changes ? { valid: mistaken.verdict === 'valid', reason: mistaken.reason } : null);
      }
    }

    // The correct signature for the expected merchant at the header's timestamp.
    const correct = hmacHex(
      text(input.secret),
      requestMessage(input.merchant_id, headers['x-timestamp'] ?? '', input.method, input.url, body),
    );
    if (expected.verdict === 'valid') expect(headers['x-signature']).toBe(correct);
    if (expected.reason === 'bad_signature') expect(headers['x-signature']).not.toBe(correct);
    if (expected.verdict === 'acceptable') {
      // The only case the interface leaves open: a correct signature in uppercase hex.
      expect(headers['x-signature']).toMatch(/^[0-9A-F]{64}$/);
      expect(headers['x-signature']).toMatch(/[A-F]/);
      expect(headers['x-signature'].toLowerCase()).toBe(correct);
    }

    // The debugging string, present exactly when both headers it needs are non-empty.
    const hasString = Boolean(headers['x-merchant-id']) && Boolean(headers['x-timestamp']);
    expect('string_to_sign_b64' in vector).toBe(hasString);
    if (hasString) {
      const message = requestMessage(headers['x-merchant-id'], headers['x-timestamp'], input.method, input.url, body);
      expect(sameBytes(fromBase64(vector.string_to_sign_b64), message)).toBe(true);
    }
  });
});

describe('values computed with a second tool', () => {
  // These were computed outside Node and pasted here, so the suite does not only agree with
  // itself:
  //   printf '%s' 'm_123451732200000GEThttps://api.pay.example/v2/merchants/payins/pi_7Hc2LmQ9xR4t/' \
  //     | openssl dgst -sha256 -hmac 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c'
  //   printf '%s' 'm_123451732200000pi_7Hc2LmQ9xR4t' | openssl dgst -sha256 -hmac 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c'
  //   python3 -c 'import hmac,hashlib; print(hmac.new("sk_test_sécret_7Qm2Zr5Kx8".encode("utf-8"),
  //     "m_246801732200000pi_3Vb8NqK1sW6y".encode("utf-8"), hashlib.sha256).hexdigest())'
  // (OpenSSL 3 `dgst -hmac`, Python 3 `hmac`; the last one has a non-ASCII secret, UTF-8 encoded.)
  const literal = [
    {
      id: 'sign_request_get/payin-by-id-trailing-slash',
      secret: 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c',
      string: 'm_123451732200000GEThttps://api.pay.example/v2/merchants/payins/pi_7Hc2LmQ9xR4t/',
      header: 'x-signature',
      signature: 'b89ebf0a6e4bc31385573e5ee169fffbf280d4acc0ad8c04099ec737da79c8f8',
    },
    {
      id: 'sign_simplified/basic',
      secret: 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c',
      string: 'm_123451732200000pi_7Hc2LmQ9xR4t',
      header: 'x-simplified-signature',
      signature: 'c29f83021bceca118c90b2d498cc9725fbabee01ced7217e763c18d7ef6295dc',
    },
    {
      id: 'sign_simplified/non-ascii-secret',
      secret: 'sk_test_sécret_7Qm2Zr5Kx8',
      string: 'm_246801732200000pi_3Vb8NqK1sW6y',
      header: 'x-simplified-signature',
      signature: '6e0f5e53743e89a8b363cf281e33671fb71732730335dd8b3bc72c9da67b493c',
    },
  ];

  it.each(literal.map((l) => [l.id, l]))('%s', (id, { secret, string, header, signature }) => {
    const vector = find(id);
    expect(vector, id).toBeDefined();
    expect(vector.input.secret).toBe(secret);
    expect(vector.string_to_sign_utf8).toBe(string);
    expect(vector.expected.headers[header]).toBe(signature);
    expect(hmacHex(text(secret), text(string))).toBe(signature);
  });
});
