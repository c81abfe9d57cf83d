// sign_request_get_v1: the /v1/ lookup paths of the interface's signing examples
import { request, signRequestVector } from '../build.mjs';
import { BASE, MERCHANT_B, PAYIN, PAYINS_V1, PAYIN_2 } from '../fixtures.mjs';

export const category = 'sign_request_get_v1';
export const command = 'sign_request';
export const description =
  "x-signature on the /v1/ lookup paths the interface's signing examples use: <merchant_id><timestamp>GET<full_url>.";

export function build() {
  const cat = category;
  const get = (slug, description, flags, url, extra = {}) =>
    signRequestVector(cat, slug, { description, flags, input: request({ method: 'GET', url, ...extra }) });
  return [
    get(
      'payin-by-id',
      "v1 payin lookup by id as in the interface's GET example: <merchant_id><timestamp>GET<full_url>",
      ['v1', 'lookup', 'payin'],
      `${BASE}/v1/merchants/payins/${PAYIN}`,
    ),
    get(
      'payin-by-id-trailing-slash',
      'v1 payin lookup by id with a trailing slash: the slash is signed',
      ['v1', 'lookup', 'payin', 'trailing_slash'],
      `${BASE}/v1/merchants/payins/${PAYIN}/`,
    ),
    get(
      'payin-by-reference',
      'v1 payin lookup by reference_id, slash before "?"',
      ['v1', 'lookup', 'payin', 'reference', 'query', 'trailing_slash'],
      `${PAYINS_V1}?reference_id=ord-0999`,
    ),
    get(
      'payin-by-reference-no-slash',
      'v1 payin lookup by reference_id without the slash before "?"',
      ['v1', 'lookup', 'payin', 'reference', 'query'],
      `${BASE}/v1/merchants/payins?reference_id=ord-0999`,
    ),
    get(
      'payin-by-reference-percent-encoded',
      'v1 lookup with a percent-encoded reference (%20): signed as sent',
      ['v1', 'lookup', 'payin', 'reference', 'query', 'percent_encoding'],
      `${PAYINS_V1}?reference_id=order%200999`,
    ),
    get(
      'get-with-body-signs-empty',
      'v1 GET given a body: the signed body part is empty',
      ['v1', 'lookup', 'payin', 'get_body'],
      `${BASE}/v1/merchants/payins/${PAYIN}`,
      { body: '{}' },
    ),
    get(
      'payin-by-id-other-merchant',
      'v1 lookup by another merchant at another timestamp',
      ['v1', 'lookup', 'payin'],
      `${BASE}/v1/merchants/payins/${PAYIN_2}/`,
      { merchant: MERCHANT_B, timestamp: '1732199940' },
    ),
  ];
}
