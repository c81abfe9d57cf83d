// sign_request_post: bodies are exact bytes
import { utf8 } from '../bytes.mjs';
import { request, signRequestVector } from '../build.mjs';
import {
  BASE,
  MERCHANT_LATIN1_SECRET,
  MERCHANT_NON_ASCII_ID,
  MERCHANT_WIDE_SECRET,
  PAYINS_V1,
  PAYINS_V2,
  PAYOUTS_V2,
  asciiEscaped,
  minified,
  payinV1,
  payinV2,
  payoutV2,
  phpEncoded,
  pretty,
  pythonDumps,
} from '../fixtures.mjs';

export const category = 'sign_request_post';
export const command = 'sign_request';
export const description =
  'x-signature on creates (POST): the body is signed as its exact bytes (pretty, minified, escaped, CRLF, BOM, empty, large, not UTF-8), with non-ASCII merchant ids and secrets encoded as UTF-8.';

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

export function build() {
  const cat = category;
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
  const payoutCyrillic = {
    ...payoutV2,
    reference_id: 'wd-2002',
    customer: { ...payoutV2.customer, first_name: 'Анна', last_name: 'Смирнова' },
  };
  return [
    // One JSON value, three serialisations, three signatures: the bytes are signed, not the value.
    post(
      'payin-v2-pretty',
      "create payin v2 with a pretty-printed body (2-space indent): the exact bytes are signed; re-serialising them gives the minified vector's bytes and a wrong signature",
      ['v2', 'create', 'payin', 'pretty', 'non_ascii'],
      PAYINS_V2,
      pretty(payinV2),
    ),
    post(
      'payin-v2-minified',
      'the same payin as payin-v2-pretty, minified: a different signature from the pretty one',
      ['v2', 'create', 'payin', 'minified', 'non_ascii'],
      PAYINS_V2,
      minified(payinV2),
    ),
    post(
      'payin-v2-unicode-escaped',
      'the same payin minified with non-ASCII written as \\u00e9-style escapes: same JSON value, different bytes, different signature',
      ['v2', 'create', 'payin', 'minified', 'unicode_escape'],
      PAYINS_V2,
      asciiEscaped(minified(payinV2)),
    ),
    post(
      'payin-v2-pretty-trailing-newline',
      'pretty-printed body ending in a newline (as editors and jq write it): the final \\n is signed',
      ['v2', 'create', 'payin', 'pretty', 'trailing_newline', 'non_ascii'],
      PAYINS_V2,
      `${pretty(payinV2)}\n`,
    ),
    post(
      'payin-v2-python-separators',
      'body as Python json.dumps writes it by default (", " and ": " separators, \\u escapes): signed as sent',
      ['v2', 'create', 'payin', 'unicode_escape'],
      PAYINS_V2,
      pythonDumps(payinV2),
    ),
    post(
      'payin-v2-amount-trailing-zero',
      'minified body with "amount":149.90: a parse and re-serialise writes 149.9, so even a minified body must be signed as sent',
      ['v2', 'create', 'payin', 'minified', 'number_format', 'non_ascii'],
      PAYINS_V2,
      minified(payinV2).replace('"amount":149.9', '"amount":149.90'),
    ),
    post(
      'payin-v2-crlf',
      'pretty-printed body with CRLF line endings (Windows): every \\r is signed',
      ['v2', 'create', 'payin', 'pretty', 'crlf', 'non_ascii'],
      PAYINS_V2,
      crlf,
    ),
    post(
      'payout-v2-bom',
      'payout body starting with a UTF-8 BOM (EF BB BF): the BOM bytes are part of the body and are signed',
      ['v2', 'create', 'payout', 'pretty', 'bom'],
      PAYOUTS_V2,
      bom,
    ),
    post('payout-v2', 'create payout v2, minified body', ['v2', 'create', 'payout', 'minified'], PAYOUTS_V2, minified(payoutV2)),
    post(
      'payout-v2-no-trailing-slash',
      'create payout called without the trailing slash: signed as called (the service decides whether it routes)',
      ['v2', 'create', 'payout', 'minified'],
      `${BASE}/v2/merchants/payouts`,
      minified(payoutV2),
    ),
    post(
      'payin-v1-legacy-php',
      'legacy create payin (v1) with a body as PHP json_encode writes it by default ("\\/" for "/", \\u escapes): signed as sent',
      ['v1', 'create', 'payin', 'legacy', 'unicode_escape', 'escaped_slash'],
      PAYINS_V1,
      phpEncoded(payinV1),
    ),
    post(
      'payin-v1-legacy-pretty',
      'legacy create payin (v1), pretty-printed with raw UTF-8',
      ['v1', 'create', 'payin', 'legacy', 'pretty', 'non_ascii'],
      PAYINS_V1,
      pretty(payinV1),
    ),
    post('empty-body', 'a POST with an empty body: the string ends with the URL', ['v2', 'create', 'payin', 'empty_body'], PAYINS_V2, ''),
    post(
      'large-body-64kib',
      'a 65,600-byte body whose two-byte "é" characters straddle the 16 KiB and 64 KiB boundaries: every byte is signed, read to the end, never decoded chunk by chunk',
      ['v2', 'create', 'payin', 'large_body', 'non_ascii'],
      PAYINS_V2,
      largeBody(),
    ),
    post(
      'non-ascii-body-cjk',
      "payin for a customer with Japanese name and address: the body's UTF-8 bytes are signed; re-encoding it as Latin-1 loses them",
      ['v2', 'create', 'payin', 'pretty', 'non_ascii'],
      PAYINS_V2,
      pretty(payinJapan),
    ),
    post(
      'non-ascii-body-cyrillic',
      'payout to a customer with a Cyrillic name, minified',
      ['v2', 'create', 'payout', 'minified', 'non_ascii'],
      PAYOUTS_V2,
      minified(payoutCyrillic),
    ),
    post(
      'non-ascii-merchant-id',
      'a merchant id with a non-ASCII character (m_café_42): encoded as UTF-8 in the string, and sent as-is in x-merchant-id',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_merchant'],
      PAYOUTS_V2,
      minified(payoutV2),
      { merchant: MERCHANT_NON_ASCII_ID },
    ),
    post(
      'non-ascii-secret-latin1-range',
      'a secret with "é": the HMAC key is its UTF-8 bytes (c3 a9), not Latin-1 (e9)',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_secret'],
      PAYOUTS_V2,
      minified(payoutV2),
      { merchant: MERCHANT_LATIN1_SECRET },
    ),
    post(
      'non-ascii-secret-outside-latin1',
      'a secret with Cyrillic letters and an emoji: the key is its UTF-8 bytes; Node\'s Buffer.from(secret, "latin1") keeps only low bytes',
      ['v2', 'create', 'payout', 'non_ascii', 'non_ascii_secret'],
      PAYOUTS_V2,
      minified(payoutV2),
      { merchant: MERCHANT_WIDE_SECRET },
    ),
    post(
      'invalid-utf8-body',
      'a body containing bytes ff fe, not valid UTF-8: the bytes are signed as they are (no text round trip, which would replace them); string_to_sign_utf8 is null',
      ['v2', 'create', 'payin', 'invalid_utf8'],
      PAYINS_V2,
      invalidUtf8,
    ),
  ];
}
