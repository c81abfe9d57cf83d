// signedInstead and simplifiedSignedInstead: for each mistake of the catalogue, a signature made
// here the mistaken way with node:crypto (independently of the package and its backend) is named
// for that mistake; a right signature and a random one are named for none; hostile input never
// makes it throw.
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedInstead, simplifiedSignedInstead, type RefusedRequest, type SigningMistake } from '../src/index.js';

const secret = 'sk_test_5a1e9f0c7d3b';
const merchantId = 'm_1';
const ts = '1732200000';
const hmac = (key: string | Uint8Array, message: string | Uint8Array) => createHmac('sha256', key).update(message).digest('hex');
const url = 'http://127.0.0.1:4010/gateway/pay/v2/merchants/payins/';
const body = JSON.stringify({ reference_id: 'r 1', customer: { first_name: 'Zoë' }, payment: { amount: 149.9 } });

/** A POST create as sent, signed the given way. */
const post = (signature: string, extra: Partial<RefusedRequest> = {}): RefusedRequest => ({
  merchantId,
  secret,
  timestamp: ts,
  method: 'POST',
  url,
  body: Buffer.from(body),
  signature,
  ...extra,
});
const lookupUrl = 'http://127.0.0.1:4010/v2/merchants/payins/?reference_id=r%201%2F%C3%A4';
const get = (signature: string): RefusedRequest => ({ ...post(signature), method: 'GET', url: lookupUrl, body: new Uint8Array(0) });

const cases: [string, RefusedRequest, SigningMistake][] = [
  [
    'the URL signed with its slash, called without',
    post(hmac(secret, `${merchantId}${ts}POST${url}${body}`), { url: url.slice(0, -1) }),
    'slash_dropped_on_wire',
  ],
  [
    'the URL signed without its slash, called with',
    post(hmac(secret, `${merchantId}${ts}POST${url.slice(0, -1)}${body}`)),
    'slash_added_on_wire',
  ],
  ['the query left out', get(hmac(secret, `${merchantId}${ts}GET${lookupUrl.split('?')[0]}`)), 'query_unsigned'],
  ['the query signed decoded', get(hmac(secret, `${merchantId}${ts}GET${decodeURIComponent(lookupUrl)}`)), 'query_not_encoded_as_signed'],
  ['the path alone', post(hmac(secret, `${merchantId}${ts}POST/gateway/pay/v2/merchants/payins/${body}`)), 'url_path_only'],
  ['https for http', post(hmac(secret, `${merchantId}${ts}POST${url.replace('http:', 'https:')}${body}`)), 'scheme_other'],
  ['localhost for 127.0.0.1', post(hmac(secret, `${merchantId}${ts}POST${url.replace('127.0.0.1', 'localhost')}${body}`)), 'host_other'],
  ['the port dropped', post(hmac(secret, `${merchantId}${ts}POST${url.replace(':4010', '')}${body}`)), 'port_dropped'],
  ['the method in lower case', post(hmac(secret, `${merchantId}${ts}post${url}${body}`)), 'method_lowercase'],
  ['a GET signed with {}', get(hmac(secret, `${merchantId}${ts}GET${lookupUrl}{}`)), 'get_body_signed'],
  ['a POST signed without its body', post(hmac(secret, `${merchantId}${ts}POST${url}`)), 'body_unsigned'],
  [
    "the body as Python's json.dumps writes it",
    post(hmac(secret, `${merchantId}${ts}POST${url}${body.replace(/,"/g, ', "').replace(/":/g, '": ')}`)),
    'body_reserialised',
  ],
  ['the timestamp one second later', post(hmac(secret, `${merchantId}${Number(ts) + 1}POST${url}${body}`)), 'timestamp_off_by_one'],
  ['the secret with a newline', post(hmac(`${secret}\n`, `${merchantId}${ts}POST${url}${body}`)), 'secret_newline'],
  // Node's hex decoder stops at the first pair that is not hex: "sk…" gives an empty key.
  ['the secret decoded as hex', post(hmac(Buffer.from(secret, 'hex'), `${merchantId}${ts}POST${url}${body}`)), 'secret_hex_decoded'],
  ['the secret hex-encoded', post(hmac(Buffer.from(secret).toString('hex'), `${merchantId}${ts}POST${url}${body}`)), 'secret_hex_encoded'],
  [
    'the secret in quotes, as an .env line holds it',
    post(hmac(`"${secret}"`, `${merchantId}${ts}POST${url}${body}`)),
    'secret_read_with_extra',
  ],
  [
    "another merchant's secret",
    post(hmac('sk_test_other', `${merchantId}${ts}POST${url}${body}`), { others: [{ id: 'm_2', secret: 'sk_test_other' }] }),
    'merchant_other_secret',
  ],
];

describe('signedInstead', () => {
  it.each(cases)('names %s', (_, request, mistake) => {
    expect(Buffer.from(secret, 'hex').length).toBe(0); // the premise of the hex case
    const found = signedInstead(request);
    expect(found?.mistake).toBe(mistake);
    expect(found?.what).not.toContain(secret);
    expect(found?.what).not.toContain(request.signature);
  });

  it('names nothing for the right signature, nor for a random one', () => {
    expect(signedInstead(post(hmac(secret, `${merchantId}${ts}POST${url}${body}`)))).toBeUndefined();
    expect(signedInstead(post(randomBytes(32).toString('hex')))).toBeUndefined();
  });

  it('never throws, whatever the request holds', () => {
    const anything = fc.record({
      merchantId: fc.string(),
      secret: fc.string(),
      timestamp: fc.string(),
      method: fc.string(),
      url: fc.string(),
      body: fc.uint8Array({ maxLength: 64 }),
      signature: fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/)),
    });
    fc.assert(fc.property(anything, (r) => signedInstead(r) === undefined || typeof signedInstead(r)?.what === 'string'));
    // Not even when a field is not what its type says.
    expect(signedInstead({ ...post('0'.repeat(64)), body: null as unknown as Uint8Array, url: 5 as unknown as string })).toBeUndefined();
  });
});

describe('signedInstead: no prefix oracle', () => {
  it('never tries a key made of the first characters of a secret that begins with hex pairs', () => {
    // "4142…" decoded as hex up to the first pair that is not would be the bytes 0x41 0x42 ("AB"): a key
    // that a forger could guess one byte at a time, learning the secret's start from the hint.
    const hexish = '4142_rest_of_the_secret';
    const prefix = Buffer.from(hexish, 'hex');
    expect(prefix).toHaveLength(2);
    const request = { ...post(hmac(prefix, `${merchantId}${ts}POST${url}${body}`)), secret: hexish };
    expect(signedInstead(request)).toBeUndefined();
  });
});

describe('simplifiedSignedInstead', () => {
  const push = (signature: string) => ({
    merchantId,
    secret,
    timestamp: ts,
    method: 'POST',
    url: 'http://127.0.0.1:4010/card-proxy/v1/push/tok_1/',
    body: Buffer.from(JSON.stringify({ payin_id: 'pi_2' })),
    payinId: 'pi_1',
    signature,
  });
  it.each([
    ['the method signed', hmac(secret, `${merchantId}${ts}POSTpi_1`), 'simplified_with_method'],
    ["the body's payin, not the address's", hmac(secret, `${merchantId}${ts}pi_2`), 'simplified_other_payin'],
    ['the secret decoded as hex', hmac(Buffer.alloc(0), `${merchantId}${ts}pi_1`), 'secret_hex_decoded'],
  ] as const)('names %s', (_, signature, mistake) => {
    expect(simplifiedSignedInstead(push(signature))?.mistake).toBe(mistake);
  });
  it('names nothing for the right signature', () => {
    expect(simplifiedSignedInstead(push(hmac(secret, `${merchantId}${ts}pi_1`)))).toBeUndefined();
  });
});
