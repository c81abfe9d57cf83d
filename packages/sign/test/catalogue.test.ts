// The catalogue of signing mistakes, as a table: for every mistake it names, in every view that
// names it (the service's: signedInstead and simplifiedSignedInstead; a webhook receiver's:
// receivedInstead), a request signed with that mistake here, independently of the package and its
// backend (node:crypto's createHmac over strings written out by hand), is named as that mistake; a
// request signed right is named as none; its bounds hold (a body past DIAGNOSIS_BODY_LIMIT tries
// nothing, no more than 96 HMACs a diagnosis); hostile input never makes it throw. And the one
// token bucket that budgets diagnoses.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DIAGNOSIS_BODY_LIMIT,
  receivedInstead,
  signedInstead,
  simplifiedSignedInstead,
  TokenBucket,
  type RefusedRequest,
  type RefusedWebhook,
  type SignedInstead,
  type SigningMistake,
} from '../src/index.js';

const secret = 'sk_test_5a1e9f0c7d3b';
const id = 'm_1';
const ts = '1732200000';
const hmac = (key: string | Uint8Array, message: string) => createHmac('sha256', key).update(message).digest('hex');

// The service's view: a call as the sandbox receives it.
const url = 'http://127.0.0.1:4010/v2/merchants/payins/';
const body = JSON.stringify({ reference_id: 'r 1', customer: { first_name: 'Zoë' }, payment: { amount: 149.9 } });
const call = (signature: string, extra: Partial<RefusedRequest> = {}): RefusedRequest => ({
  merchantId: id,
  secret,
  timestamp: ts,
  method: 'POST',
  url,
  body: Buffer.from(body),
  signature,
  ...extra,
});
const lookup = 'http://127.0.0.1:4010/v2/merchants/payins/?reference_id=r%201';
const get = (signature: string, extra: Partial<RefusedRequest> = {}) =>
  call(signature, { method: 'GET', url: lookup, body: new Uint8Array(0), ...extra });
const other = { id: 'm_2', secret: 'sk_test_other' };

// The card push, as the sandbox receives it.
const pushUrl = 'http://127.0.0.1:4010/card-proxy/v1/push/tok_1/';
const pushBody = JSON.stringify({ payin_id: 'pi_2' });
const push = (signature: string) => ({
  ...call(signature, { url: pushUrl, body: Buffer.from(pushBody), others: [other] }),
  payinId: 'pi_1',
});

// A receiver's view: a webhook as a merchant's handler receives it.
const hookUrl = 'https://shop.example/webhooks/pay/';
const payload = '{"id":"pi_1","reference_id":"order-1","status":"executed"}';
const hook = (signature: string, extra: Partial<RefusedWebhook> = {}): RefusedWebhook => ({
  merchantId: id,
  secrets: [secret],
  url: hookUrl,
  host: 'shop.example',
  timestamp: ts,
  body: payload,
  signature,
  ...extra,
});

type Row = [view: string, how: string, diagnose: () => SignedInstead | undefined, mistake: SigningMistake];
const S = `${id}${ts}`; // the start of every string to sign

const table: Row[] = [
  [
    'service',
    'signed with its slash, called without',
    () => signedInstead(call(hmac(secret, `${S}POST${url}${body}`), { url: url.slice(0, -1) })),
    'slash_dropped_on_wire',
  ],
  [
    'service',
    'signed without its slash, called with',
    () => signedInstead(call(hmac(secret, `${S}POST${url.slice(0, -1)}${body}`))),
    'slash_added_on_wire',
  ],
  ['service', 'the query left out', () => signedInstead(get(hmac(secret, `${S}GET${lookup.split('?')[0]}`))), 'query_unsigned'],
  [
    'service',
    'the query signed decoded',
    () => signedInstead(get(hmac(secret, `${S}GET${decodeURIComponent(lookup)}`))),
    'query_not_encoded_as_signed',
  ],
  ['service', 'the path alone', () => signedInstead(call(hmac(secret, `${S}POST/v2/merchants/payins/${body}`))), 'url_path_only'],
  [
    'service',
    'https for http',
    () => signedInstead(call(hmac(secret, `${S}POST${url.replace('http:', 'https:')}${body}`))),
    'scheme_other',
  ],
  [
    'service',
    'localhost for 127.0.0.1',
    () => signedInstead(call(hmac(secret, `${S}POST${url.replace('127.0.0.1', 'localhost')}${body}`))),
    'host_other',
  ],
  ['service', 'the port dropped', () => signedInstead(call(hmac(secret, `${S}POST${url.replace(':4010', '')}${body}`))), 'port_dropped'],
  ['service', 'the method in lower case', () => signedInstead(call(hmac(secret, `${S}post${url}${body}`))), 'method_lowercase'],
  ['service', 'a GET signed with {}', () => signedInstead(get(hmac(secret, `${S}GET${lookup}{}`))), 'get_body_signed'],
  ['service', 'a POST signed without its body', () => signedInstead(call(hmac(secret, `${S}POST${url}`))), 'body_unsigned'],
  [
    'service',
    'the body pretty-printed',
    () => signedInstead(call(hmac(secret, `${S}POST${url}${JSON.stringify(JSON.parse(body), null, 2)}`))),
    'body_reserialised',
  ],
  [
    'service',
    'the timestamp one second earlier',
    () => signedInstead(call(hmac(secret, `${id}${Number(ts) - 1}POST${url}${body}`))),
    'timestamp_off_by_one',
  ],
  ['service', 'the secret with a newline', () => signedInstead(call(hmac(`${secret}\n`, `${S}POST${url}${body}`))), 'secret_newline'],
  [
    'service',
    'the secret decoded as hex',
    () => signedInstead(call(hmac(Buffer.from(secret, 'hex'), `${S}POST${url}${body}`))),
    'secret_hex_decoded',
  ],
  [
    'service',
    'the secret hex-encoded',
    () => signedInstead(call(hmac(Buffer.from(secret).toString('hex'), `${S}POST${url}${body}`))),
    'secret_hex_encoded',
  ],
  ['service', 'the secret after a space', () => signedInstead(call(hmac(` ${secret}`, `${S}POST${url}${body}`))), 'secret_read_with_extra'],
  [
    'service',
    "another merchant's secret",
    () => signedInstead(call(hmac(other.secret, `${S}POST${url}${body}`), { others: [other] })),
    'merchant_other_secret',
  ],
  [
    'service',
    "another merchant's id",
    () => signedInstead(call(hmac(secret, `${other.id}${ts}POST${url}${body}`), { others: [other] })),
    'merchant_other_id',
  ],
  [
    'service',
    "another merchant's id and secret",
    () => signedInstead(call(hmac(other.secret, `${other.id}${ts}POST${url}${body}`), { others: [other] })),
    'merchant_other',
  ],
  ['card push', 'the method signed', () => simplifiedSignedInstead(push(hmac(secret, `${S}POSTpi_1`))), 'simplified_with_method'],
  [
    'card push',
    "x-signature's string",
    () => simplifiedSignedInstead(push(hmac(secret, `${S}POST${pushUrl}${pushBody}`))),
    'simplified_as_x_signature',
  ],
  ['card push', "the body's payin", () => simplifiedSignedInstead(push(hmac(secret, `${S}pi_2`))), 'simplified_other_payin'],
  ['card push', 'the secret decoded as hex', () => simplifiedSignedInstead(push(hmac(Buffer.alloc(0), `${S}pi_1`))), 'secret_hex_decoded'],
  ['card push', "another merchant's secret", () => simplifiedSignedInstead(push(hmac(other.secret, `${S}pi_1`))), 'merchant_other_secret'],
  [
    'receiver',
    'configured with a slash the service does not sign',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl.slice(0, -1)}${payload}`))),
    'slash_added_on_wire',
  ],
  [
    'receiver',
    'configured without the slash the service signs',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl}${payload}`), { url: hookUrl.slice(0, -1) })),
    'slash_dropped_on_wire',
  ],
  [
    'receiver',
    'configured https, signed http',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl.replace('https', 'http')}${payload}`))),
    'scheme_other',
  ],
  [
    'receiver',
    'configured with a query the service does not sign',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl}${payload}`), { url: `${hookUrl}?shop=7` })),
    'query_unsigned',
  ],
  [
    'receiver',
    'signed for the host it was sent to',
    () => receivedInstead(hook(hmac(secret, `${S}POSThttps://shop.example:8443/webhooks/pay/${payload}`), { host: 'shop.example:8443' })),
    'host_other',
  ],
  [
    'receiver',
    'signed for another name of this machine',
    () =>
      receivedInstead(
        hook(hmac(secret, `${S}POSThttp://[::1]:3000/hooks${payload}`), { url: 'http://localhost:3000/hooks', host: undefined }),
      ),
    'host_other',
  ],
  [
    'receiver',
    'the body re-serialised before it got here',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl}${payload}`), { body: JSON.stringify(JSON.parse(payload), null, 2) })),
    'body_reserialised',
  ],
  [
    'receiver',
    'the secret configured with a newline',
    () => receivedInstead(hook(hmac(secret, `${S}POST${hookUrl}${payload}`), { secrets: [`${secret}\n`] })),
    'secret_padded_where_verified',
  ],
];

/** Every mistake of the catalogue: the compiler holds this list to SigningMistake, and the table to this list. */
const every: Record<SigningMistake, true> = {
  slash_dropped_on_wire: true,
  slash_added_on_wire: true,
  query_unsigned: true,
  query_not_encoded_as_signed: true,
  url_path_only: true,
  scheme_other: true,
  host_other: true,
  port_dropped: true,
  method_lowercase: true,
  get_body_signed: true,
  body_unsigned: true,
  body_reserialised: true,
  timestamp_off_by_one: true,
  secret_newline: true,
  secret_hex_decoded: true,
  secret_hex_encoded: true,
  secret_read_with_extra: true,
  secret_padded_where_verified: true,
  merchant_other_secret: true,
  merchant_other_id: true,
  merchant_other: true,
  simplified_with_method: true,
  simplified_as_x_signature: true,
  simplified_other_payin: true,
};

describe('the catalogue of signing mistakes', () => {
  it('has a row for every mistake it names', () => {
    expect(new Set(table.map((row) => row[3]))).toEqual(new Set(Object.keys(every)));
  });

  it.each(table)('%s view: %s is named as such', (_view, _how, diagnose, mistake) => {
    const found = diagnose();
    expect(found?.mistake).toBe(mistake);
    expect(found?.what).not.toContain(secret);
  });

  it('names nothing for a request signed right, in any view', () => {
    expect(signedInstead(call(hmac(secret, `${S}POST${url}${body}`), { others: [other] }))).toBeUndefined();
    expect(signedInstead(get(hmac(secret, `${S}GET${lookup}`)))).toBeUndefined();
    expect(simplifiedSignedInstead(push(hmac(secret, `${S}pi_1`)))).toBeUndefined();
    expect(receivedInstead(hook(hmac(secret, `${S}POST${hookUrl}${payload}`)))).toBeUndefined();
  });
});

describe('the bounds of a diagnosis', () => {
  // The slash variant is the first tried in each view: were anything tried, it would match.
  const past = 'x'.repeat(DIAGNOSIS_BODY_LIMIT + 1);
  const within = 'x'.repeat(DIAGNOSIS_BODY_LIMIT);

  it('tries nothing for a body past DIAGNOSIS_BODY_LIMIT, in any view', () => {
    expect(signedInstead(call(hmac(secret, `${S}POST${url.slice(0, -1)}${past}`), { body: Buffer.from(past) }))).toBeUndefined();
    expect(signedInstead(call(hmac(secret, `${S}POST${url.slice(0, -1)}${within}`), { body: Buffer.from(within) }))?.mistake).toBe(
      'slash_added_on_wire',
    );
    const pushed = { ...push(hmac(secret, `${S}POSTpi_1`)), body: Buffer.from(past) };
    expect(simplifiedSignedInstead(pushed)).toBeUndefined();
    expect(receivedInstead(hook(hmac(secret, `${S}POST${hookUrl.slice(0, -1)}${past}`), { body: past }))).toBeUndefined();
    expect(receivedInstead(hook(hmac(secret, `${S}POST${hookUrl.slice(0, -1)}${within}`), { body: within }))?.mistake).toBe(
      'slash_added_on_wire',
    );
    // A string is measured in UTF-8 bytes: 'é' is two.
    const wide = 'é'.repeat(DIAGNOSIS_BODY_LIMIT / 2 + 1);
    expect(receivedInstead(hook(hmac(secret, `${S}POST${hookUrl.slice(0, -1)}${wide}`), { body: wide }))).toBeUndefined();
  });

  it('computes at most 96 HMACs a diagnosis, however many secrets a receiver holds', () => {
    // The slash variant is tried under each secret in turn: the 97th secret is past the bound.
    const secrets = Array.from({ length: 200 }, (_, i) => `sk_${i}`);
    const slashed = (key: string) => hmac(key, `${S}POST${hookUrl.slice(0, -1)}${payload}`);
    expect(receivedInstead(hook(slashed('sk_95'), { secrets }))?.mistake).toBe('slash_added_on_wire');
    expect(receivedInstead(hook(slashed('sk_96'), { secrets }))).toBeUndefined();
  });

  it('never throws, whatever the request holds', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('', 'http://[', 'https://a@b:/?%', 'http://localhost:/x?=%E0'));
    const sig = fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/));
    const anyBody = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ maxLength: 64 }),
      fc.constant('{"a":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}'),
    );
    fc.assert(
      fc.property(
        text,
        text,
        text,
        text,
        sig,
        anyBody,
        fc.array(fc.string(), { maxLength: 3 }),
        (merchantId, timestamp, u, host, signature, b, secrets) => {
          const found = receivedInstead({ merchantId, secrets, url: u, host, timestamp, body: b, signature });
          return found === undefined || typeof found.what === 'string';
        },
      ),
    );
    // Not even when a field is not what its type says.
    const hostile = { merchantId: 1, secrets: null, url: {}, host: 5, timestamp: [], body: { length: 1 }, signature: 'ab'.repeat(32) };
    expect(receivedInstead(hostile as unknown as RefusedWebhook)).toBeUndefined();
    expect(receivedInstead({ ...hook('ab'.repeat(32)), secrets: 'sk' as unknown as string[] })).toBeUndefined();
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('a getter that throws');
        },
      },
    );
    expect(receivedInstead(throwing as RefusedWebhook)).toBeUndefined();
    expect(signedInstead(throwing as RefusedRequest)).toBeUndefined();
  });
});

describe('TokenBucket, the one budget of diagnoses', () => {
  it('gives a burst of its rate, then one per 1/rate seconds', () => {
    const bucket = new TokenBucket(5);
    const taken = Array.from({ length: 7 }, () => bucket.take(10_000));
    expect(taken).toEqual([true, true, true, true, true, false, false]);
    expect(bucket.take(10_199)).toBe(false);
    expect(bucket.take(10_200)).toBe(true);
  });

  it('at one a second, allows the next one a second after the last', () => {
    const bucket = new TokenBucket(1);
    expect([bucket.take(5000), bucket.take(5000), bucket.take(5999), bucket.take(6999)]).toEqual([true, false, false, true]);
  });

  it('counts a clock set back as time passed, refills on demand, and survives a time that is not a number', () => {
    const bucket = new TokenBucket(1);
    expect(bucket.take(5000)).toBe(true);
    expect(bucket.take(1000)).toBe(true); // four seconds back
    expect(bucket.take(Number.NaN)).toBe(false);
    bucket.refill();
    expect(bucket.take(1000)).toBe(true);
    expect(bucket.take(2000)).toBe(true);
  });
});
