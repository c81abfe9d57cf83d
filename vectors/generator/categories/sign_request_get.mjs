// sign_request_get: v2 lookups, URLs and query strings signed exactly as sent
import { request, signRequestVector } from '../build.mjs';
import { BASE, MERCHANT_B, PAYIN, PAYINS_V2, PAYIN_2, PAYOUT, PAYOUTS_V2 } from '../fixtures.mjs';

export const category = 'sign_request_get';
export const command = 'sign_request';
export const description =
  'x-signature on v2 lookups (GET): by id and by reference, with and without trailing slash; query strings signed exactly as sent; a GET signs an empty body.';

export function build() {
  const cat = category;
  const get = (slug, description, flags, url, extra = {}) =>
    signRequestVector(cat, slug, { description, flags, input: request({ method: 'GET', url, ...extra }) });
  return [
    // The documented lookup paths, with and without the trailing slash: both are signed as given,
    // so a client that trims or adds a slash produces a different signature.
    get(
      'payin-by-id',
      'v2 payin lookup by id, no trailing slash: the URL is signed exactly as called, body part empty',
      ['v2', 'lookup', 'payin'],
      `${BASE}/v2/merchants/payins/${PAYIN}`,
    ),
    get(
      'payin-by-id-trailing-slash',
      'v2 payin lookup by id, URL ending in a slash: the slash is signed',
      ['v2', 'lookup', 'payin', 'trailing_slash'],
      `${BASE}/v2/merchants/payins/${PAYIN}/`,
    ),
    get('payout-by-id', 'v2 payout lookup by id, no trailing slash', ['v2', 'lookup', 'payout'], `${BASE}/v2/merchants/payouts/${PAYOUT}`),
    get(
      'payout-by-id-trailing-slash',
      'v2 payout lookup by id, URL ending in a slash: the slash is signed',
      ['v2', 'lookup', 'payout', 'trailing_slash'],
      `${BASE}/v2/merchants/payouts/${PAYOUT}/`,
    ),
    // Lookup by reference: the query string is part of the signed URL, and so is the slash
    // before '?', which the interface's table shows and clients often drop.
    get(
      'payin-by-reference',
      'v2 payin lookup by reference_id, slash before "?" as in the interface: the whole URL with its query is signed',
      ['v2', 'lookup', 'payin', 'reference', 'query', 'trailing_slash'],
      `${PAYINS_V2}?reference_id=ord-1001`,
    ),
    get(
      'payin-by-reference-no-slash',
      'v2 payin lookup by reference_id called without the slash before "?": signed without it, as called',
      ['v2', 'lookup', 'payin', 'reference', 'query'],
      `${BASE}/v2/merchants/payins?reference_id=ord-1001`,
    ),
    get(
      'payout-by-reference',
      'v2 payout lookup by reference_id, slash before "?"',
      ['v2', 'lookup', 'payout', 'reference', 'query', 'trailing_slash'],
      `${PAYOUTS_V2}?reference_id=wd-2001`,
    ),
    get(
      'payout-by-reference-no-slash',
      'v2 payout lookup by reference_id without the slash before "?"',
      ['v2', 'lookup', 'payout', 'reference', 'query'],
      `${BASE}/v2/merchants/payouts?reference_id=wd-2001`,
    ),
    // Query strings are bytes: no decoding, no re-encoding, no re-ordering.
    get(
      'query-percent-encoded-space',
      'reference with a space sent as %20: the three bytes "%20" are signed, not a space or "+"',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'],
      `${PAYINS_V2}?reference_id=order%201001`,
    ),
    get(
      'query-plus-as-space',
      'reference with a space sent as "+": the "+" is signed, never rewritten as %20',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'],
      `${PAYINS_V2}?reference_id=order+1001`,
    ),
    get(
      'query-percent-encoded-slash-uppercase',
      'reference containing "/" sent as %2F (uppercase hex): signed as sent, not decoded to "/"',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'],
      `${PAYINS_V2}?reference_id=shop%2F1001`,
    ),
    get(
      'query-percent-encoded-slash-lowercase',
      'the same reference sent as %2f (lowercase hex): different bytes, so a different signature from the %2F case',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding'],
      `${PAYINS_V2}?reference_id=shop%2f1001`,
    ),
    get(
      'query-percent-encoded-non-ascii',
      'reference "café-1001" sent percent-encoded as UTF-8 (caf%C3%A9-1001): signed as those ASCII bytes',
      ['v2', 'lookup', 'reference', 'query', 'percent_encoding', 'non_ascii'],
      `${PAYINS_V2}?reference_id=caf%C3%A9-1001`,
    ),
    get(
      'query-raw-non-ascii',
      'reference "café-1001" given with a raw "é": signed as its UTF-8 bytes, never percent-encoded first (differs from the percent-encoded case)',
      ['v2', 'lookup', 'reference', 'query', 'non_ascii'],
      `${PAYINS_V2}?reference_id=café-1001`,
    ),
    get(
      'query-repeated-key',
      'a key repeated (reference_id twice): both pairs signed, in order, none merged or dropped',
      ['v2', 'lookup', 'reference', 'query', 'repeated_key'],
      `${PAYINS_V2}?reference_id=ord-1001&reference_id=ord-1002`,
    ),
    get(
      'query-order-kept',
      'query keys not in alphabetical order (status before reference_id): signed in the order sent, never sorted',
      ['v2', 'lookup', 'reference', 'query', 'order'],
      `${PAYINS_V2}?status=new&reference_id=ord-1001`,
    ),
    get(
      'query-empty-value',
      'a query key with an empty value ("channel="): the "=" is signed, the pair is not dropped',
      ['v2', 'lookup', 'reference', 'query', 'empty_value'],
      `${PAYINS_V2}?reference_id=ord-1001&channel=`,
    ),
    // A GET signs an empty body whatever the caller passes (docs/design.md: "GET body").
    get(
      'get-with-body-signs-empty',
      'a GET given a JSON body: the signed body part is still empty; signing the given body is the mistake body_signed_for_get',
      ['v2', 'lookup', 'payin', 'get_body'],
      `${BASE}/v2/merchants/payins/${PAYIN}`,
      { body: '{"expand":["fee"]}' },
    ),
    get(
      'payin-by-id-other-merchant',
      'another merchant, secret and timestamp: nothing in the string is fixed',
      ['v2', 'lookup', 'payin'],
      `${BASE}/v2/merchants/payins/${PAYIN_2}`,
      { merchant: MERCHANT_B, timestamp: '1732203600' },
    ),
    // Scheme, host and port are signed as given: a local sandbox address signs as itself.
    get(
      'sandbox-base-url',
      'a local sandbox base (http, 127.0.0.1, port 8080): scheme, host and port are signed as given',
      ['v2', 'lookup', 'payin', 'sandbox'],
      `http://127.0.0.1:8080/v2/merchants/payins/${PAYIN}`,
    ),
  ];
}
