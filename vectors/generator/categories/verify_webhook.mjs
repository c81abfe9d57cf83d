// verify_webhook: a merchant checking a webhook (method POST, url = the exact webhook_url)
import { plus, senderSignature, sentHeaders, verifyVector } from '../build.mjs';
import {
  MERCHANT,
  MERCHANT_B,
  MERCHANT_NON_ASCII_ID,
  PAYIN,
  T0,
  WEBHOOK_URL,
  minified,
  pretty,
  webhookExecuted,
  webhookNew,
  webhookPayout,
} from '../fixtures.mjs';

export const category = 'verify_webhook';
export const command = 'verify_webhook';
export const description =
  "A merchant verifying a webhook (POST to its exact webhook_url): valid deliveries, the 60 s tolerance both ways, tampering, URL variants, wrong secret or merchant, missing and malformed headers, and the protocol's check order.";

/** The hex signature with the digit at `at` replaced by another hex digit. */
const changeDigit = (hex, at) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

export function build() {
  const cat = category;
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
    v('valid-basic', {
      description: "a payin status webhook, signed by the service with the merchant's secret over the exact URL and body",
      flags: ['valid'],
      ...valid,
    }),
    v('valid-payout-executed', {
      description: 'a payout webhook at another second',
      flags: ['valid'],
      body: webhookPayout,
      now: plus(T0, 1000),
      headers: sentHeaders({ ...sender, timestamp: plus(T0, 990), body: webhookPayout }),
      ...valid,
    }),
    v('valid-url-with-query', {
      description: 'the webhook_url carries a query string: it is part of the signed URL',
      flags: ['valid', 'query'],
      url: queryUrl,
      headers: sentHeaders({ ...sender, url: queryUrl }),
      ...valid,
    }),
    v('valid-url-trailing-slash', {
      description: 'the webhook_url ends in a slash: the slash is signed',
      flags: ['valid', 'trailing_slash'],
      url: slashUrl,
      headers: sentHeaders({ ...sender, url: slashUrl }),
      ...valid,
    }),
    v('valid-pretty-body', {
      description: 'the service sent a pretty-printed body: it is verified as received, byte for byte',
      flags: ['valid', 'pretty'],
      body: prettyNew,
      headers: sentHeaders({ ...sender, body: prettyNew }),
      ...valid,
    }),
    v('valid-non-ascii-body', {
      description: 'a body with non-ASCII characters (UTF-8): the received bytes are signed',
      flags: ['valid', 'non_ascii'],
      body: minified({ id: PAYIN, reference_id: 'заказ-1001', status: 'new' }),
      headers: sentHeaders({ ...sender, body: minified({ id: PAYIN, reference_id: 'заказ-1001', status: 'new' }) }),
      ...valid,
    }),
    v('valid-empty-body', {
      description: 'an empty body: the string ends with the URL',
      flags: ['valid', 'empty_body'],
      body: '',
      headers: sentHeaders({ ...sender, body: '' }),
      ...valid,
    }),
    v('valid-invalid-utf8-body', {
      description: 'a body that is not valid UTF-8 (bytes ff fe): verified over the raw bytes, no text round trip',
      flags: ['valid', 'invalid_utf8'],
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      headers: sentHeaders({ ...sender, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
      ...valid,
    }),
    v('valid-leading-zero-timestamp', {
      description:
        'x-timestamp "01732200000": decimal digits, 1732200000 s, within tolerance; the header string is signed as received, not re-formatted from the number',
      flags: ['valid', 'timestamp'],
      headers: signedAt(`0${T0}`),
      ...valid,
    }),
    v('valid-non-ascii-merchant', {
      description: 'a merchant id with "é": compared and signed as UTF-8',
      flags: ['valid', 'non_ascii', 'non_ascii_merchant'],
      merchant: MERCHANT_NON_ASCII_ID,
      headers: sentHeaders({ ...sender, merchantId: MERCHANT_NON_ASCII_ID.id, secret: MERCHANT_NON_ASCII_ID.secret }),
      ...valid,
    }),
    // --- tolerance: |now - ts| <= 60 is accepted, both ways
    v('tolerance-60s-past', {
      description: 'received 60 s after it was signed: the edge of the tolerance, accepted',
      flags: ['tolerance', 'valid'],
      now: plus(T0, 60),
      ...valid,
    }),
    v('tolerance-60s-future', {
      description: "signed 60 s ahead of the receiver's clock: the edge of the tolerance, accepted",
      flags: ['tolerance', 'valid'],
      now: plus(T0, -60),
      ...valid,
    }),
    v('tolerance-same-second', { description: 'received the second it was signed', flags: ['tolerance', 'valid'], now: T0, ...valid }),
    v('expired-61s-past', {
      description: "signed 61 s before the receiver's clock: one second past the tolerance",
      flags: ['tolerance', 'expired'],
      now: plus(T0, 61),
      ...invalid('expired'),
    }),
    v('expired-61s-future', {
      description: "signed 61 s ahead of the receiver's clock: the tolerance applies both ways",
      flags: ['tolerance', 'expired'],
      now: plus(T0, -61),
      ...invalid('expired'),
    }),
    v('expired-milliseconds', {
      description: 'x-timestamp in milliseconds (1732200000000): digits, so well formed, but far from now',
      flags: ['tolerance', 'expired', 'timestamp'],
      headers: signedAt(`${T0}000`),
      ...invalid('expired'),
    }),
    v('expired-very-large', {
      description: 'a 30-digit x-timestamp: well formed, expired; compare without overflowing',
      flags: ['tolerance', 'expired', 'timestamp'],
      headers: signedAt('173220000000000000000000000000'),
      ...invalid('expired'),
    }),
    // --- the body and URL must be exactly the ones signed
    v('tampered-body', {
      description: 'the body says "executed" but "new" was signed',
      flags: ['tampered'],
      body: webhookExecuted,
      ...invalid('bad_signature'),
    }),
    v('body-reserialised-pretty', {
      description:
        'signed over the minified body, verified over a pretty-printed re-serialisation of it (a framework parsed the JSON first)',
      flags: ['reserialised'],
      body: prettyNew,
      ...invalid('bad_signature'),
    }),
    v('body-reserialised-minified', {
      description: 'signed over a pretty-printed body, verified over its minified re-serialisation',
      flags: ['reserialised'],
      headers: sentHeaders({ ...sender, body: prettyNew }),
      ...invalid('bad_signature'),
    }),
    v('url-trailing-slash-dropped', {
      description: 'the service signed the webhook_url with its trailing slash; the verifier was configured without it',
      flags: ['url', 'trailing_slash'],
      headers: sentHeaders({ ...sender, url: slashUrl }),
      ...invalid('bad_signature'),
    }),
    v('url-trailing-slash-added', {
      description: 'the service signed the webhook_url without a trailing slash; the verifier was configured with one',
      flags: ['url', 'trailing_slash'],
      url: slashUrl,
      ...invalid('bad_signature'),
    }),
    v('url-query-dropped', {
      description: 'the webhook_url had a query string; the verifier uses the URL without it',
      flags: ['url', 'query'],
      headers: sentHeaders({ ...sender, url: queryUrl }),
      ...invalid('bad_signature'),
    }),
    v('url-http-instead-of-https', {
      description:
        'signed over https; the verifier rebuilt the URL as http (behind a TLS-terminating proxy) instead of using the configured one',
      flags: ['url', 'scheme'],
      url: 'http://shop.example/webhooks/pay',
      ...invalid('bad_signature'),
    }),
    v('url-host-case', {
      description: "the verifier's URL spells the host in capitals: URLs are compared as bytes, never normalised",
      flags: ['url', 'host_case'],
      url: 'https://Shop.Example/webhooks/pay',
      ...invalid('bad_signature'),
    }),
    v('wrong-secret', {
      description: "signed with a secret that is not the merchant's",
      flags: ['secret'],
      headers: withHeader('x-signature', badSig),
      ...invalid('bad_signature'),
    }),
    // A verifier that compares only part of the signature accepts these: one hex digit off, at each end.
    v('bad-signature-last-digit', {
      description: 'the correct signature with its last hex digit changed: every character must be compared, not a prefix',
      flags: ['partial_compare'],
      headers: withHeader('x-signature', changeDigit(good['x-signature'], 63)),
      ...invalid('bad_signature'),
    }),
    v('bad-signature-first-digit', {
      description: 'the correct signature with its first hex digit changed: every character must be compared, not a suffix',
      flags: ['partial_compare'],
      headers: withHeader('x-signature', changeDigit(good['x-signature'], 0)),
      ...invalid('bad_signature'),
    }),
    // --- merchant id
    v('merchant-mismatch', {
      description:
        "x-merchant-id names another merchant (m_67890), correctly signed with that merchant's id and secret: not for this receiver",
      flags: ['merchant'],
      headers: sentHeaders(other),
      ...invalid('merchant_mismatch'),
    }),
    v('merchant-mismatch-case', {
      description: 'x-merchant-id "M_12345": ids compare exactly, case included',
      flags: ['merchant'],
      headers: sentHeaders({ ...sender, merchantId: 'M_12345' }),
      ...invalid('merchant_mismatch'),
    }),
    // --- missing and empty headers
    v('missing-x-signature', {
      description: 'no x-signature header',
      flags: ['missing'],
      headers: without('x-signature'),
      ...invalid('missing_header'),
    }),
    v('missing-x-timestamp', {
      description: 'no x-timestamp header',
      flags: ['missing'],
      headers: without('x-timestamp'),
      ...invalid('missing_header'),
    }),
    v('missing-x-merchant-id', {
      description: 'no x-merchant-id header',
      flags: ['missing'],
      headers: without('x-merchant-id'),
      ...invalid('missing_header'),
    }),
    v('missing-all-headers', {
      description: 'none of the three headers: an unsigned request',
      flags: ['missing'],
      headers: {},
      ...invalid('missing_header'),
    }),
    v('empty-x-signature', {
      description: 'x-signature present but empty: treated as missing',
      flags: ['missing', 'empty'],
      headers: withHeader('x-signature', ''),
      ...invalid('missing_header'),
    }),
    v('empty-x-timestamp', {
      description: 'x-timestamp present but empty: treated as missing',
      flags: ['missing', 'empty'],
      headers: withHeader('x-timestamp', ''),
      ...invalid('missing_header'),
    }),
    v('empty-x-merchant-id', {
      description: 'x-merchant-id present but empty: treated as missing',
      flags: ['missing', 'empty'],
      headers: withHeader('x-merchant-id', ''),
      ...invalid('missing_header'),
    }),
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
      v(`malformed-timestamp-${slug}`, {
        description: `x-timestamp "${ts}": ${what}; only decimal digits are a timestamp`,
        flags: ['malformed', 'timestamp'],
        headers: signedAt(ts),
        ...invalid('malformed_timestamp'),
      }),
    ),
    // --- malformed signatures
    v('malformed-signature-63-hex', {
      description: 'x-signature of 63 hex characters (the last one cut)',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', good['x-signature'].slice(0, 63)),
      ...invalid('malformed_signature'),
    }),
    v('malformed-signature-65-hex', {
      description: 'x-signature of 65 hex characters (a "0" appended)',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature']}0`),
      ...invalid('malformed_signature'),
    }),
    v('malformed-signature-non-hex', {
      description: 'x-signature of 64 characters, one of them "g"',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature'].slice(0, 63)}g`),
      ...invalid('malformed_signature'),
    }),
    v('malformed-signature-sha256-prefix', {
      description: 'x-signature "sha256=<correct hex>": the header is the bare 64 hex characters, no prefix',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', `sha256=${good['x-signature']}`),
      ...invalid('malformed_signature'),
    }),
    v('malformed-signature-surrounding-spaces', {
      description: 'the correct signature with a space before and after: not 64 hex characters as received',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', ` ${good['x-signature']} `),
      ...invalid('malformed_signature'),
    }),
    v('malformed-signature-base64', {
      description: 'the correct HMAC written in base64 instead of hex',
      flags: ['malformed', 'signature'],
      headers: withHeader('x-signature', Buffer.from(good['x-signature'], 'hex').toString('base64')),
      ...invalid('malformed_signature'),
    }),
    // --- a header received twice: values joined with ", "
    v('duplicate-x-signature', {
      description: 'x-signature received twice (the same value): joined as "<sig>, <sig>", not 64 hex characters',
      flags: ['duplicate_header', 'malformed', 'signature'],
      headers: withHeader('x-signature', `${good['x-signature']}, ${good['x-signature']}`),
      ...invalid('malformed_signature'),
    }),
    v('duplicate-x-timestamp', {
      description: 'x-timestamp received twice: joined as "1732200000, 1732200000", not digits',
      flags: ['duplicate_header', 'malformed', 'timestamp'],
      headers: withHeader('x-timestamp', `${T0}, ${T0}`),
      ...invalid('malformed_timestamp'),
    }),
    v('duplicate-x-merchant-id', {
      description: 'x-merchant-id received twice: joined as "m_12345, m_12345", which is not the merchant',
      flags: ['duplicate_header', 'merchant'],
      headers: withHeader('x-merchant-id', `${MERCHANT.id}, ${MERCHANT.id}`),
      ...invalid('merchant_mismatch'),
    }),
    // --- check order: two checks fail, the first in the protocol's table is the reason
    v('order-missing-before-malformed-timestamp', {
      description: 'x-signature missing and x-timestamp malformed: missing_header comes first',
      flags: ['check_order'],
      headers: { 'x-merchant-id': MERCHANT.id, 'x-timestamp': '1732200000.5' },
      ...invalid('missing_header'),
    }),
    v('order-malformed-timestamp-before-bad-signature', {
      description: 'x-timestamp malformed and the signature wrong: malformed_timestamp comes first',
      flags: ['check_order'],
      headers: { ...good, 'x-timestamp': '1732200000.5', 'x-signature': badSig },
      ...invalid('malformed_timestamp'),
    }),
    v('order-malformed-timestamp-before-malformed-signature', {
      description: 'x-timestamp and x-signature both malformed: malformed_timestamp comes first',
      flags: ['check_order'],
      headers: { ...good, 'x-timestamp': '-1', 'x-signature': 'sha256=abc' },
      ...invalid('malformed_timestamp'),
    }),
    v('order-expired-before-merchant-mismatch', {
      description: 'expired (61 s old) and signed for another merchant: expired comes first',
      flags: ['check_order'],
      headers: sentHeaders(other),
      now: plus(T0, 61),
      ...invalid('expired'),
    }),
    v('order-expired-before-malformed-signature', {
      description: 'expired (61 s ahead) and a 63-character signature: expired comes first',
      flags: ['check_order'],
      headers: withHeader('x-signature', good['x-signature'].slice(0, 63)),
      now: plus(T0, -61),
      ...invalid('expired'),
    }),
    v('order-expired-before-bad-signature', {
      description: 'expired and signed with the wrong secret: expired comes first (no HMAC needed)',
      flags: ['check_order'],
      headers: withHeader('x-signature', badSig),
      now: plus(T0, 3600),
      ...invalid('expired'),
    }),
    v('order-merchant-mismatch-before-malformed-signature', {
      description: 'another merchant\'s id and a signature with a "sha256=" prefix: merchant_mismatch comes first',
      flags: ['check_order'],
      headers: { ...sentHeaders(other), 'x-signature': `sha256=${sentHeaders(other)['x-signature']}` },
      ...invalid('merchant_mismatch'),
    }),
    v('order-merchant-mismatch-before-bad-signature', {
      description: "another merchant's id and a signature that matches nothing: merchant_mismatch comes first",
      flags: ['check_order'],
      headers: { ...good, 'x-merchant-id': MERCHANT_B.id, 'x-signature': badSig },
      ...invalid('merchant_mismatch'),
    }),
    v('order-malformed-signature-before-bad-signature', {
      description: 'a 64-character signature with a non-hex character: malformed_signature, not bad_signature',
      flags: ['check_order'],
      headers: withHeader('x-signature', `z${good['x-signature'].slice(1)}`),
      ...invalid('malformed_signature'),
    }),
    // --- left open by the interface
    // Either verdict passes only when the other cases show it was chosen: accepting it, the
    // verifier still refuses a signature one digit off or with a non-hex character (so it compares
    // the hex ignoring case, it does not skip the comparison); refusing it, it accepts the same
    // webhook signed in lowercase and names a reason the case of the letters explains.
    v('uppercase-signature', {
      description: 'the correct signature in uppercase hex: the interface shows lowercase; a verifier may accept or reject it (acceptable)',
      flags: ['uppercase', 'open'],
      headers: withHeader('x-signature', good['x-signature'].toUpperCase()),
      verdict: 'acceptable',
      acceptable: {
        valid: {
          requires: ['valid-basic', 'bad-signature-last-digit', 'bad-signature-first-digit', 'malformed-signature-non-hex', 'wrong-secret'],
        },
        invalid: { reasons: ['malformed_signature', 'bad_signature'], requires: ['valid-basic'] },
      },
    }),
  ];
}
