// verifyRequest: reasons, their order, header shapes, key rotation, and that nothing in a request
// can make it throw. Signatures are made here with node:crypto, independently of the package.
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readHeader, verifyRequest } from '../src/index.js';

const secret = 'sk_test_9f8e7d6c';
const url = 'https://shop.example/webhooks/pay?shop=1';
const body = '{"id":"pi_1","reference_id":"order-1","status":"executed"}';
const ts = 1732200000;
const sign = (s: string, parts: string) => createHmac('sha256', s).update(parts).digest('hex');
const good = {
  'x-merchant-id': 'm_12345',
  'x-timestamp': String(ts),
  'x-signature': sign(secret, `m_12345${ts}POST${url}${body}`),
};
const verify = (headers: unknown, extra: Record<string, unknown> = {}) =>
  verifyRequest({ merchantId: 'm_12345', secret, method: 'POST', url, headers: headers as never, body, now: ts + 5, ...extra });

describe('verifyRequest', () => {
  it('accepts a correct signature, from a plain object or a Fetch Headers, in any case', () => {
    expect(verify(good)).toEqual({ ok: true, secretIndex: 0 });
    expect(verify(new Headers(good))).toEqual({ ok: true, secretIndex: 0 });
    const shouting = Object.fromEntries(Object.entries(good).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify(shouting)).toEqual({ ok: true, secretIndex: 0 });
    expect(verify(good, { body: new TextEncoder().encode(body) })).toEqual({ ok: true, secretIndex: 0 });
  });

  it('accepts uppercase hex (the interface leaves it open; producers emit lowercase)', () => {
    expect(verify({ ...good, 'x-signature': good['x-signature'].toUpperCase() }).ok).toBe(true);
  });

  it('accepts at exactly the tolerance either way, and refuses one second past it', () => {
    expect(verify(good, { now: ts + 60 }).ok).toBe(true);
    expect(verify(good, { now: ts - 60 }).ok).toBe(true);
    expect(verify(good, { now: ts + 61 })).toMatchObject({ ok: false, reason: 'expired' });
    expect(verify(good, { now: ts - 61 })).toMatchObject({ ok: false, reason: 'expired' });
    expect(verify(good, { now: ts + 200, toleranceSeconds: 300 }).ok).toBe(true);
  });

  it('says which secret matched while keys rotate', () => {
    expect(verify(good, { secret: undefined, secrets: ['sk_new', secret] })).toEqual({ ok: true, secretIndex: 1 });
    expect(verify(good, { secret: undefined, secrets: ['sk_new', 'sk_other'] })).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['no x-merchant-id', { 'x-merchant-id': undefined }, 'missing_header', /x-merchant-id/],
    ['an empty x-timestamp', { 'x-timestamp': '' }, 'missing_header', /x-timestamp/],
    ['no x-signature', { 'x-signature': undefined }, 'missing_header', /x-signature/],
    ['a fractional timestamp', { 'x-timestamp': `${ts}.5` }, 'malformed_timestamp', /decimal digits/],
    ['a negative timestamp', { 'x-timestamp': `-${ts}` }, 'malformed_timestamp', /decimal digits/],
    ['a timestamp with a space', { 'x-timestamp': ` ${ts}` }, 'malformed_timestamp', /decimal digits/],
    ['a timestamp in exponent form', { 'x-timestamp': '1.7322e9' }, 'malformed_timestamp', /decimal digits/],
    ['a timestamp of 400 digits', { 'x-timestamp': '9'.repeat(400) }, 'expired', /far from now/],
    ['a duplicated timestamp', { 'x-timestamp': [String(ts), String(ts)] }, 'malformed_timestamp', /decimal digits/],
    ['another merchant', { 'x-merchant-id': 'm_99999' }, 'merchant_mismatch', /x-merchant-id/],
    ['63 hex characters', { 'x-signature': good['x-signature'].slice(1) }, 'malformed_signature', /64 hexadecimal/],
    ['a sha256= prefix', { 'x-signature': `sha256=${good['x-signature']}` }, 'malformed_signature', /64 hexadecimal/],
    ['a forged signature', { 'x-signature': 'a'.repeat(64) }, 'bad_signature', /does not match/],
  ];
  it.each(refusals)('refuses %s', (_name, change, reason, message) => {
    const headers: Record<string, unknown> = { ...good, ...change };
    for (const k of Object.keys(headers)) if (headers[k] === undefined) delete headers[k];
    const result = verify(headers);
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok === false && result.message).toMatch(message);
  });

  it('refuses a tampered body, a re-serialised body, another URL, another method', () => {
    expect(verify(good, { body: body.replace('executed', 'failed') })).toMatchObject({ reason: 'bad_signature' });
    expect(verify(good, { body: JSON.stringify(JSON.parse(body), null, 2) })).toMatchObject({ reason: 'bad_signature' });
    expect(verify(good, { url: url.replace('?shop=1', '') })).toMatchObject({ reason: 'bad_signature' });
    expect(verify(good, { url: url.replace('https:', 'http:') })).toMatchObject({ reason: 'bad_signature' });
    expect(verify(good, { method: 'PUT' })).toMatchObject({ reason: 'bad_signature' });
    expect(verify(good, { method: 'not a method' })).toMatchObject({ reason: 'bad_signature' });
  });

  it('reports the first failing check in the protocol order', () => {
    // missing before malformed; malformed timestamp before expiry; expiry before merchant; merchant before signature form.
    expect(verify({ 'x-merchant-id': 'm_12345', 'x-timestamp': 'abc' })).toMatchObject({ reason: 'missing_header' });
    expect(verify({ ...good, 'x-timestamp': 'abc', 'x-signature': 'zz' })).toMatchObject({ reason: 'malformed_timestamp' });
    expect(verify({ ...good, 'x-merchant-id': 'other' }, { now: ts + 1000 })).toMatchObject({ reason: 'expired' });
    expect(verify({ ...good, 'x-merchant-id': 'other', 'x-signature': 'zz' })).toMatchObject({ reason: 'merchant_mismatch' });
    expect(verify({ ...good, 'x-signature': 'zz' }, { now: ts })).toMatchObject({ reason: 'malformed_signature' });
  });

  it('signs an empty body for GET, whatever body arrived', () => {
    const getUrl = 'https://api.pay.example/v2/merchants/payins/pi_1';
    const headers = { ...good, 'x-signature': sign(secret, `m_12345${ts}GET${getUrl}`) };
    expect(verify(headers, { method: 'GET', url: getUrl, body: 'ignored' }).ok).toBe(true);
  });

  it('never throws for anything a request can contain', () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'x-signature',
      [],
      [['x-signature', 'a']],
      { 'x-signature': null },
      { 'x-merchant-id': 5, 'x-timestamp': ts, 'x-signature': {} },
      Object.create(null),
      JSON.parse('{"__proto__": {"x-signature": "a"}, "constructor": 1}'),
      {
        get() {
          throw new Error('boom');
        },
      },
      { 'x-merchant-id': ['m_12345'], 'x-timestamp': [], 'x-signature': [null] },
      { ...good, 'x-signature': 'é'.repeat(64) },
      { ...good, 'x-timestamp': '٣'.repeat(10) },
    ];
    for (const headers of junk) {
      const result = verify(headers);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(typeof result.message).toBe('string');
    }
    for (const m of ['', ' ', 'GET\n', 'é']) expect(verify(good, { method: m })).toMatchObject({ ok: false });
  });

  it('reads headers objects that throw while they are read as having no such header', () => {
    const boom = () => {
      throw new Error('boom');
    };
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const hostile: unknown[] = [
      Object.defineProperty({}, 'get', { get: boom }),
      Object.defineProperty({ ...good }, 'x-signature', { enumerable: true, get: boom }),
      new Proxy(good, { ownKeys: boom }),
      new Proxy(good, { get: boom }),
      new Proxy(new Headers(good), { get: boom }),
      revoked.proxy,
      { get: () => ({ toString: boom }) },
    ];
    for (const headers of hostile) {
      expect(verify(headers)).toMatchObject({ ok: false, reason: 'missing_header' });
      expect(readHeader(headers, 'x-signature')).toBeUndefined();
    }
    // Only the throwing header is lost; the others are still read.
    expect(readHeader(Object.defineProperty({ ...good }, 'x-signature', { enumerable: true, get: boom }), 'x-timestamp')).toBe(String(ts));
  });

  it('throws a TypeError for an unusable configuration, without the secret in it', () => {
    expect(() => verify(good, { secret: undefined })).toThrow(/secret .*is required/);
    expect(() => verify(good, { secret: '' })).toThrow(/secret must not be empty/);
    expect(() => verify(good, { secrets: [secret] })).toThrow(/either secret or secrets/);
    expect(() => verify(good, { secret: undefined, secrets: [] })).toThrow(/secrets list/);
    expect(() => verify(good, { merchantId: '' })).toThrow(/merchantId must not be empty/);
    expect(() => verify(good, { url: '/webhooks/pay' })).toThrow(/url must be the full URL/);
    expect(() => verify(good, { body: { id: 'pi_1' } })).toThrow(/body must be the exact body/);
    try {
      verify(good, { secret: undefined, secrets: ['sk_live_keep_me', ''] });
      expect.unreachable();
    } catch (e) {
      expect(String(e)).toMatch(/secrets\[1\] must not be empty/);
      expect(inspect(e)).not.toContain('sk_live_keep_me');
    }
  });
});
