// verify_request: the service checking a merchant's call (GET lookups and POST creates)
import { plus, senderSignature, sentHeaders, verifyVector } from '../build.mjs';
import {
  BASE,
  MERCHANT,
  MERCHANT_B,
  MERCHANT_NON_ASCII_ID,
  MERCHANT_WIDE_SECRET,
  PAYIN,
  PAYINS_V1,
  PAYINS_V2,
  PAYOUT,
  PAYOUTS_V2,
  T0,
  minified,
  payinV1,
  payinV2,
  payoutV2,
  phpEncoded,
  pretty,
} from '../fixtures.mjs';

export const category = 'verify_request';
export const command = 'verify_request';
export const description =
  "The service verifying a merchant's call: GET lookups (body never signed) and POST creates, with the same verdicts and check order as webhooks.";

export function build() {
  const cat = category;
  const now = plus(T0, 2);
  const lookupUrl = `${BASE}/v2/merchants/payins/${PAYIN}`;
  const getSender = { secret: MERCHANT.secret, merchantId: MERCHANT.id, timestamp: T0, method: 'GET', url: lookupUrl };
  const postBody = minified(payinV2);
  const postSender = { secret: MERCHANT.secret, merchantId: MERCHANT.id, timestamp: T0, method: 'POST', url: PAYINS_V2, body: postBody };
  const getGood = sentHeaders(getSender);
  const postGood = sentHeaders(postSender);
  const vGet = (slug, fields) => verifyVector(cat, slug, { method: 'GET', url: lookupUrl, now, headers: getGood, ...fields });
  const vPost = (slug, fields) =>
    verifyVector(cat, slug, { method: 'POST', url: PAYINS_V2, body: postBody, now, headers: postGood, ...fields });
  const invalid = (reason) => ({ verdict: 'invalid', reason });
  const valid = { verdict: 'valid' };
  const byRef = `${PAYINS_V2}?reference_id=ord-1001`;
  const getBody = '{"expand":["fee"]}';
  const payoutLookup = `${BASE}/v2/merchants/payouts/${PAYOUT}/`;

  return [
    // --- valid calls
    vGet('valid-get-payin-by-id', {
      description: 'v2 payin lookup by id, correctly signed (body part empty)',
      flags: ['valid', 'get', 'lookup'],
      ...valid,
    }),
    vGet('valid-get-payin-by-reference', {
      description: 'v2 payin lookup by reference_id: the query string is part of the signed URL',
      flags: ['valid', 'get', 'lookup', 'query'],
      url: byRef,
      headers: sentHeaders({ ...getSender, url: byRef }),
      ...valid,
    }),
    vGet('valid-get-payout-trailing-slash', {
      description: 'v2 payout lookup called with a trailing slash and signed with it',
      flags: ['valid', 'get', 'lookup', 'trailing_slash'],
      url: payoutLookup,
      headers: sentHeaders({ ...getSender, url: payoutLookup }),
      ...valid,
    }),
    vGet('valid-get-v1-lookup', {
      description: "v1 payin lookup as in the interface's GET example",
      flags: ['valid', 'get', 'lookup', 'v1'],
      url: `${BASE}/v1/merchants/payins/${PAYIN}`,
      headers: sentHeaders({ ...getSender, url: `${BASE}/v1/merchants/payins/${PAYIN}` }),
      ...valid,
    }),
    vGet('valid-get-with-body-signed-empty', {
      description: 'a GET that arrives with body bytes, signed over an empty body: valid, the body of a GET is not signed',
      flags: ['valid', 'get', 'get_body'],
      body: getBody,
      ...valid,
    }),
    vPost('valid-post-create-payin', {
      description: 'create payin v2, signed over the exact minified body',
      flags: ['valid', 'post', 'create'],
      ...valid,
    }),
    vPost('valid-post-create-payout', {
      description: 'create payout v2',
      flags: ['valid', 'post', 'create'],
      url: PAYOUTS_V2,
      body: pretty(payoutV2),
      headers: sentHeaders({ ...postSender, url: PAYOUTS_V2, body: pretty(payoutV2) }),
      ...valid,
    }),
    vPost('valid-post-legacy-v1', {
      description: 'legacy create payin (v1) with a PHP-style escaped body',
      flags: ['valid', 'post', 'create', 'v1'],
      url: PAYINS_V1,
      body: phpEncoded(payinV1),
      headers: sentHeaders({ ...postSender, url: PAYINS_V1, body: phpEncoded(payinV1) }),
      ...valid,
    }),
    vPost('valid-post-empty-body', {
      description: 'a POST with an empty body, signed over it',
      flags: ['valid', 'post', 'empty_body'],
      body: '',
      headers: sentHeaders({ ...postSender, body: '' }),
      ...valid,
    }),
    vPost('valid-post-non-ascii-merchant', {
      description: 'a merchant id with "é", signed and compared as UTF-8',
      flags: ['valid', 'post', 'non_ascii', 'non_ascii_merchant'],
      merchant: MERCHANT_NON_ASCII_ID,
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_NON_ASCII_ID.id, secret: MERCHANT_NON_ASCII_ID.secret }),
      ...valid,
    }),
    vPost('valid-post-non-ascii-secret', {
      description: 'a secret with Cyrillic letters and an emoji: the key is its UTF-8 bytes',
      flags: ['valid', 'post', 'non_ascii', 'non_ascii_secret'],
      merchant: MERCHANT_WIDE_SECRET,
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_WIDE_SECRET.id, secret: MERCHANT_WIDE_SECRET.secret }),
      ...valid,
    }),
    // --- signer mistakes the service must reject
    vGet('get-signed-with-body', {
      description: 'a GET whose signer included the body it sent in the string: a GET signs an empty body',
      flags: ['get', 'get_body'],
      body: getBody,
      headers: { ...getGood, 'x-signature': senderSignature({ ...getSender, body: getBody, includeBodyForGet: true }) },
      ...invalid('bad_signature'),
    }),
    vGet('method-lowercased', {
      description: 'the signer wrote "get" in the string: the method is signed in capitals',
      flags: ['get', 'method'],
      headers: { ...getGood, 'x-signature': senderSignature({ ...getSender, method: 'get' }) },
      ...invalid('bad_signature'),
    }),
    vGet('url-trailing-slash-dropped', {
      description: 'called with a trailing slash, signed without it',
      flags: ['get', 'url', 'trailing_slash'],
      url: `${lookupUrl}/`,
      ...invalid('bad_signature'),
    }),
    vGet('url-trailing-slash-added', {
      description: 'called without a trailing slash, signed with one',
      flags: ['get', 'url', 'trailing_slash'],
      headers: sentHeaders({ ...getSender, url: `${lookupUrl}/` }),
      ...invalid('bad_signature'),
    }),
    vGet('url-path-only', {
      description: 'the signer signed the path without scheme and host',
      flags: ['get', 'url'],
      headers: sentHeaders({ ...getSender, url: `/v2/merchants/payins/${PAYIN}` }),
      ...invalid('bad_signature'),
    }),
    vGet('url-query-dropped', {
      description: 'a lookup by reference signed without its query string',
      flags: ['get', 'url', 'query'],
      url: byRef,
      headers: sentHeaders({ ...getSender, url: PAYINS_V2 }),
      ...invalid('bad_signature'),
    }),
    vPost('body-reserialised', {
      description: 'signed over a pretty-printed body, sent minified',
      flags: ['post', 'reserialised'],
      headers: sentHeaders({ ...postSender, body: pretty(payinV2) }),
      ...invalid('bad_signature'),
    }),
    vPost('wrong-secret', {
      description: "signed with another merchant's secret under this merchant's id",
      flags: ['post', 'secret'],
      headers: sentHeaders({ ...postSender, secret: MERCHANT_B.secret }),
      ...invalid('bad_signature'),
    }),
    // --- timestamps
    vGet('tolerance-60s-past', {
      description: 'received 60 s after signing: accepted',
      flags: ['tolerance', 'valid'],
      now: plus(T0, 60),
      ...valid,
    }),
    vGet('tolerance-60s-future', {
      description: 'signed 60 s ahead of the server clock: accepted',
      flags: ['tolerance', 'valid'],
      now: plus(T0, -60),
      ...valid,
    }),
    vGet('expired-61s-past', {
      description: 'received 61 s after signing: expired',
      flags: ['tolerance', 'expired'],
      now: plus(T0, 61),
      ...invalid('expired'),
    }),
    vPost('expired-61s-future', {
      description: 'signed 61 s ahead of the server clock: expired',
      flags: ['tolerance', 'expired'],
      now: plus(T0, -61),
      ...invalid('expired'),
    }),
    vPost('malformed-timestamp-fraction', {
      description: 'x-timestamp "1732200000.5", signed as sent: not a whole number of seconds',
      flags: ['malformed', 'timestamp'],
      headers: sentHeaders({ ...postSender, timestamp: '1732200000.5' }),
      ...invalid('malformed_timestamp'),
    }),
    vGet('malformed-timestamp-milliseconds-fraction', {
      description: 'x-timestamp "1732200000.123" (seconds with milliseconds), signed as sent',
      flags: ['malformed', 'timestamp'],
      headers: sentHeaders({ ...getSender, timestamp: '1732200000.123' }),
      ...invalid('malformed_timestamp'),
    }),
    // --- headers
    vGet('missing-x-signature', {
      description: 'no x-signature header',
      flags: ['missing'],
      headers: { 'x-merchant-id': MERCHANT.id, 'x-timestamp': T0 },
      ...invalid('missing_header'),
    }),
    vPost('missing-x-merchant-id', {
      description: 'no x-merchant-id header',
      flags: ['missing'],
      headers: { 'x-timestamp': T0, 'x-signature': postGood['x-signature'] },
      ...invalid('missing_header'),
    }),
    vGet('empty-x-timestamp', {
      description: 'x-timestamp present but empty',
      flags: ['missing', 'empty'],
      headers: { ...getGood, 'x-timestamp': '' },
      ...invalid('missing_header'),
    }),
    vPost('merchant-mismatch', {
      description: 'x-merchant-id names another merchant than the one whose key the service checks, correctly signed for that merchant',
      flags: ['merchant'],
      headers: sentHeaders({ ...postSender, merchantId: MERCHANT_B.id, secret: MERCHANT_B.secret }),
      ...invalid('merchant_mismatch'),
    }),
    vGet('malformed-signature-sha256-prefix', {
      description: 'x-signature "sha256=<correct hex>"',
      flags: ['malformed', 'signature'],
      headers: { ...getGood, 'x-signature': `sha256=${getGood['x-signature']}` },
      ...invalid('malformed_signature'),
    }),
    vPost('malformed-signature-63-hex', {
      description: 'x-signature of 63 hex characters',
      flags: ['malformed', 'signature'],
      headers: { ...postGood, 'x-signature': postGood['x-signature'].slice(0, 63) },
      ...invalid('malformed_signature'),
    }),
    vPost('order-expired-before-bad-signature', {
      description: 'expired and wrongly signed: expired comes first',
      flags: ['check_order'],
      headers: { ...postGood, 'x-signature': senderSignature({ ...postSender, secret: MERCHANT_B.secret }) },
      now: plus(T0, 120),
      ...invalid('expired'),
    }),
    vGet('order-missing-before-expired', {
      description: 'x-merchant-id missing and expired: missing_header comes first',
      flags: ['check_order'],
      headers: { 'x-timestamp': T0, 'x-signature': getGood['x-signature'] },
      now: plus(T0, 600),
      ...invalid('missing_header'),
    }),
    vGet('order-merchant-mismatch-before-bad-signature', {
      description: "another merchant's id with this merchant's signature: merchant_mismatch comes first",
      flags: ['check_order'],
      headers: { ...getGood, 'x-merchant-id': MERCHANT_B.id },
      ...invalid('merchant_mismatch'),
    }),
    // --- left open
    vPost('uppercase-signature', {
      description: 'the correct signature in uppercase hex: either verdict passes (acceptable)',
      flags: ['uppercase', 'open'],
      headers: { ...postGood, 'x-signature': postGood['x-signature'].toUpperCase() },
      verdict: 'acceptable',
      acceptable: {
        valid: { requires: ['valid-post-create-payin', 'wrong-secret', 'body-reserialised', 'malformed-signature-63-hex'] },
        invalid: { reasons: ['malformed_signature', 'bad_signature'], requires: ['valid-post-create-payin'] },
      },
    }),
  ];
}
