// sign_request_collisions: no delimiters, so different inputs can share one string to sign
import { request, signRequestVector } from '../build.mjs';
import { BASE, MERCHANT, PAYIN, PAYINS_V2, PAYOUT } from '../fixtures.mjs';

export const category = 'sign_request_collisions';
export const command = 'sign_request';
export const description =
  'The string to sign concatenates its parts without delimiters: each pair of vectors has different inputs and the same string to sign, hence the same signature.';

export function build() {
  const cat = category;
  // Each pair: two inputs whose strings to sign are byte-identical, hence the same signature.
  // A signer that adds delimiters, or signs fields separately, breaks the pair.
  const pairs = [
    {
      slug: 'merchant-timestamp-boundary',
      why: 'the merchant id ends in a digit and the timestamp is digits, so the boundary between them is invisible',
      flags: ['merchant_id', 'timestamp'],
      a: request({
        merchant: { id: 'm_1', secret: MERCHANT.secret },
        timestamp: '21732200000',
        method: 'GET',
        url: `${BASE}/v2/merchants/payins/${PAYIN}`,
      }),
      b: request({
        merchant: { id: 'm_12', secret: MERCHANT.secret },
        timestamp: '1732200000',
        method: 'GET',
        url: `${BASE}/v2/merchants/payins/${PAYIN}`,
      }),
    },
    {
      slug: 'merchant-timestamp-shift',
      why: "moving the timestamp's first digit onto the merchant id leaves the string unchanged",
      flags: ['merchant_id', 'timestamp'],
      a: request({ method: 'GET', url: `${PAYINS_V2}?reference_id=ord-1001` }),
      b: request({
        merchant: { id: 'm_123451', secret: MERCHANT.secret },
        timestamp: '732200000',
        method: 'GET',
        url: `${PAYINS_V2}?reference_id=ord-1001`,
      }),
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
