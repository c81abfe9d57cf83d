// Vector builders: one function per kind of vector. They compute every expected value (headers,
// strings to sign, mistakes) from the input with node:crypto, so a category file only says what
// each case is.
import { EMPTY, b64, hmacHex, requestParts, simplifiedString, stringToSign, utf8, utf8OrNull } from './bytes.mjs';
import { MERCHANT, T0 } from './fixtures.mjs';
import { listMistakes } from './mistakes/list.mjs';
import { REQUEST_MISTAKES } from './mistakes/request.mjs';
import { SIMPLIFIED_MISTAKES } from './mistakes/simplified.mjs';
import { verifierMistakes, verify } from './mistakes/verify.mjs';

/** A sign_request input, fields in the harness protocol's order. */
export function request({ merchant = MERCHANT, timestamp = T0, method, url, body = '' }) {
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

export function signRequestVector(category, slug, { description, flags, input }) {
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

export function signSimplifiedVector(slug, { description, flags, merchant = MERCHANT, timestamp = T0, payinId }) {
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
export function senderSignature({ secret, merchantId, timestamp, method, url, body = '', includeBodyForGet = false }) {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const signedBody = method.toUpperCase() === 'GET' && !includeBodyForGet ? EMPTY : bytes;
  return hmacHex(utf8(secret), stringToSign({ merchantId, timestamp, method, url, body: signedBody }));
}

/** The three headers a correct sender sends, in the README's order. */
export function sentHeaders(sender) {
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
export function verifyVector(
  category,
  slug,
  { description, flags, merchant = MERCHANT, url, method = 'POST', headers, body = '', now, verdict, reason = null, acceptable },
) {
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
  // The stated verdict must be the reference verifier's: a case cannot say what the checks do not.
  const reference = verify(vector.input);
  const stated = verdict === 'acceptable' ? { valid: true, reason: null } : { valid: verdict === 'valid', reason: vector.expected.reason };
  if (reference.valid !== stated.valid || reference.reason !== stated.reason) {
    throw new Error(`${vector.id}: the case says ${JSON.stringify(stated)}, the checks give ${JSON.stringify(reference)}`);
  }
  if (verdict === 'acceptable') {
    if (!acceptable) throw new Error(`${vector.id}: an acceptable verdict needs the conditions that show each choice deliberate`);
    const ids = (slugs) => slugs.map((s) => `${category}/${s}`);
    vector.expected.acceptable = {
      valid: { requires: ids(acceptable.valid.requires) },
      invalid: { reasons: acceptable.invalid.reasons, requires: ids(acceptable.invalid.requires) },
    };
    vector.mistakes = [];
  } else {
    vector.mistakes = verifierMistakes(vector.input, stated);
  }
  return vector;
}

/** Timestamp arithmetic on decimal strings. */
export const plus = (timestamp, seconds) => String(Number(timestamp) + seconds);
