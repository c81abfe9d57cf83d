// verifySimplified: the card push's x-simplified-signature (merchant id + timestamp + payin id),
// checked like verifyRequest: the same reasons in the same order, key rotation, hostile headers.
// Signatures are made here with node:crypto, independently of the package.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySimplified } from '../src/index.js';

const secret = 'sk_test_9f8e7d6c';
const ts = 1732200000;
const payinId = 'pi_7f3a9c';
const sign = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const good = { 'x-merchant-id': 'm_12345', 'x-timestamp': String(ts), 'x-simplified-signature': sign(secret, `m_12345${ts}${payinId}`) };
const verify = (headers: unknown, extra: Record<string, unknown> = {}) =>
  verifySimplified({ merchantId: 'm_12345', secret, payinId, headers: headers as never, now: ts + 5, ...extra });

describe('verifySimplified', () => {
  it("accepts the worked example's string (no method), from an object or Fetch Headers, any header case, upper-case hex", () => {
    expect(verify(good)).toEqual({ ok: true, secretIndex: 0 });
    expect(verify(new Headers(good))).toEqual({ ok: true, secretIndex: 0 });
    expect(verify(Object.fromEntries(Object.entries(good).map(([k, v]) => [k.toUpperCase(), v])))).toEqual({ ok: true, secretIndex: 0 });
    expect(verify({ ...good, 'x-simplified-signature': good['x-simplified-signature'].toUpperCase() }).ok).toBe(true);
  });

  it('says which secret matched while keys rotate', () => {
    expect(verify(good, { secret: undefined, secrets: ['sk_new', secret] })).toEqual({ ok: true, secretIndex: 1 });
  });

  const cases: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ['no x-merchant-id', { 'x-merchant-id': undefined }, {}, 'missing_header'],
    ['no x-timestamp', { 'x-timestamp': undefined }, {}, 'missing_header'],
    [
      'no x-simplified-signature (an x-signature instead)',
      { 'x-simplified-signature': undefined, 'x-signature': good['x-simplified-signature'] },
      {},
      'missing_header',
    ],
    ['a decimal timestamp', { 'x-timestamp': `${ts}.5` }, {}, 'malformed_timestamp'],
    ['a timestamp 61 s old', {}, { now: ts + 61 }, 'expired'],
    ['a timestamp 61 s ahead', {}, { now: ts - 61 }, 'expired'],
    ['a huge timestamp', { 'x-timestamp': '9'.repeat(400) }, {}, 'expired'],
    ['another merchant id', { 'x-merchant-id': 'm_other' }, {}, 'merchant_mismatch'],
    ['a short signature', { 'x-simplified-signature': 'abc' }, {}, 'malformed_signature'],
    ['the method signed too', { 'x-simplified-signature': sign(secret, `m_12345${ts}POST${payinId}`) }, {}, 'bad_signature'],
    ['another payin signed', { 'x-simplified-signature': sign(secret, `m_12345${ts}pi_other`) }, {}, 'bad_signature'],
    ['the wrong secret', { 'x-simplified-signature': sign('nope', `m_12345${ts}${payinId}`) }, {}, 'bad_signature'],
  ];
  it.each(cases)('%s: %s', (_name, change, extra, reason) => {
    const headers = Object.fromEntries(Object.entries({ ...good, ...change }).filter(([, v]) => v !== undefined));
    const result = verify(headers, extra);
    expect(result).toMatchObject({ ok: false, reason });
    if (!result.ok) expect(result.message).not.toContain(secret);
  });

  it('checks in the harness order: a stale timestamp is expired even with a wrong merchant and signature', () => {
    expect(verify({ ...good, 'x-merchant-id': 'm_other', 'x-simplified-signature': 'zz' }, { now: ts + 600 })).toMatchObject({
      reason: 'expired',
    });
    expect(verify({ ...good, 'x-merchant-id': 'm_other', 'x-simplified-signature': 'zz' })).toMatchObject({ reason: 'merchant_mismatch' });
  });

  it.each([
    null,
    42,
    'x',
    [],
    {
      get: () => {
        throw new Error('boom');
      },
    },
    new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
      },
    ),
  ])('never throws for headers %#, however hostile', (headers) => {
    expect(verify(headers)).toMatchObject({ ok: false, reason: 'missing_header' });
  });

  it('throws a TypeError for unusable options, naming them', () => {
    expect(() => verifySimplified({ merchantId: '', secret, payinId, headers: good })).toThrow(/merchantId/);
    expect(() => verifySimplified({ merchantId: 'm_12345', secret, payinId: '', headers: good })).toThrow(/payinId/);
    expect(() => verifySimplified({ merchantId: 'm_12345', payinId, headers: good } as never)).toThrow(/secret/);
  });
});
