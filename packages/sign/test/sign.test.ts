// signRequest, signSimplified and stringToSign against node:crypto computed here, independently.
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signRequest, signSimplified, simplifiedStringToSign, stringToSign, verifyRequest } from '../src/index.js';

const hmac = (secret: string, ...parts: (string | Uint8Array)[]) => {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  for (const p of parts) mac.update(typeof p === 'string' ? Buffer.from(p, 'utf8') : p);
  return mac.digest('hex');
};
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const base = 'https://api.pay.example';
const secret = 'sk_test_9f8e7d6c';

describe('signRequest', () => {
  it('signs a GET lookup over merchant id, timestamp, method and the exact URL', () => {
    const url = `${base}/v2/merchants/payins/?reference_id=order%2F1&reference_id=b`;
    const headers = signRequest({ merchantId: 'm_12345', secret, timestamp: 1732200000, method: 'GET', url });
    expect(headers).toEqual({
      'x-merchant-id': 'm_12345',
      'x-timestamp': '1732200000',
      'x-signature': hmac(secret, `m_123451732200000GET${url}`),
    });
  });

  it('keeps the trailing slash, the query and its encoding exactly as given', () => {
    for (const url of [
      `${base}/v2/merchants/payins/pi_1`,
      `${base}/v2/merchants/payins/pi_1/`,
      `${base}/v2/merchants/payins/?b=1&a=%2f`,
      `${base}/v2/merchants/payins/?b=1&a=%2F`,
    ]) {
      const sig = signRequest({ merchantId: 'm', secret, timestamp: 1, method: 'GET', url })['x-signature'];
      expect(sig).toBe(hmac(secret, `m1GET${url}`));
    }
  });

  it('signs the exact body bytes of a POST, not a re-serialisation', () => {
    const pretty = '{\n  "reference_id": "order-1",\n  "note": "caf\\u00e9"\n}';
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a, 0xff]); // BOM, {}, CRLF, invalid UTF-8
    const url = `${base}/v2/merchants/payins/`;
    expect(signRequest({ merchantId: 'm', secret, timestamp: 2, method: 'POST', url, body: pretty })['x-signature']).toBe(
      hmac(secret, `m2POST${url}`, pretty),
    );
    expect(signRequest({ merchantId: 'm', secret, timestamp: 2, method: 'POST', url, body: bytes })['x-signature']).toBe(
      hmac(secret, `m2POST${url}`, bytes),
    );
    expect(stringToSign({ merchantId: 'm', timestamp: 2, method: 'POST', url, body: bytes })).toEqual(
      new Uint8Array([...Buffer.from(`m2POST${url}`), ...bytes]),
    );
  });

  it('signs an empty body for GET, whatever body is passed', () => {
    const url = `${base}/v2/merchants/payouts/po_1`;
    const withBody = signRequest({ merchantId: 'm', secret, timestamp: 3, method: 'GET', url, body: '{"x":1}' });
    expect(withBody['x-signature']).toBe(hmac(secret, `m3GET${url}`));
    expect(text(stringToSign({ merchantId: 'm', timestamp: 3, method: 'GET', url, body: 'x' }))).toBe(`m3GET${url}`);
  });

  it('signs the method in capitals', () => {
    const url = `${base}/v2/merchants/payouts/`;
    const lower = signRequest({ merchantId: 'm', secret, timestamp: 4, method: 'post', url, body: '{}' });
    expect(lower['x-signature']).toBe(hmac(secret, `m4POST${url}{}`));
  });

  it('encodes a non-ASCII merchant id, URL, body and secret as UTF-8', () => {
    const s = 'sécret-ключ-🔑';
    const url = `${base}/v2/merchants/payins/ü`;
    const h = signRequest({ merchantId: 'mërchant', secret: s, timestamp: 5, method: 'POST', url, body: '{"a":"ü"}' });
    expect(h['x-signature']).toBe(hmac(s, `mërchant5POST${url}{"a":"ü"}`));
  });

  it('signs a timestamp string exactly as it will be sent', () => {
    const h = signRequest({ merchantId: 'm', secret, timestamp: '01732200000', method: 'GET', url: `${base}/x` });
    expect(h['x-timestamp']).toBe('01732200000');
    expect(h['x-signature']).toBe(hmac(secret, `m01732200000GET${base}/x`));
  });

  it('defaults the timestamp to now, in whole seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const h = signRequest({ merchantId: 'm', secret, method: 'GET', url: `${base}/x` });
    const after = Math.floor(Date.now() / 1000);
    expect(h['x-timestamp']).toMatch(/^[0-9]+$/);
    expect(Number(h['x-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(h['x-timestamp'])).toBeLessThanOrEqual(after);
    expect(h['x-signature']).toBe(hmac(secret, `m${h['x-timestamp']}GET${base}/x`));
  });

  it('does not add delimiters: m_1 + 21732200000 and m_12 + 1732200000 collide, as the scheme defines', () => {
    const a = signRequest({ merchantId: 'm_1', secret, timestamp: '21732200000', method: 'GET', url: `${base}/x` });
    const b = signRequest({ merchantId: 'm_12', secret, timestamp: '1732200000', method: 'GET', url: `${base}/x` });
    expect(a['x-signature']).toBe(b['x-signature']);
  });

  describe('refuses unusable arguments with a clear TypeError', () => {
    const ok = { merchantId: 'm', secret, timestamp: 1, method: 'GET', url: `${base}/x` };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['empty merchant id', { merchantId: '' }, /merchantId must not be empty/],
      ['missing merchant id', { merchantId: undefined }, /merchantId must be a string, got undefined/],
      ['empty secret', { secret: '' }, /secret must not be empty/],
      ['a fractional timestamp', { timestamp: 1732200000.5 }, /timestamp must be whole unix seconds/],
      ['a negative timestamp', { timestamp: -1 }, /timestamp must be whole unix seconds/],
      [
        'a timestamp in milliseconds as text with a dot',
        { timestamp: '1732200000.000' },
        /decimal digits, got a string with a non-digit at position 10/,
      ],
      ['a timestamp with spaces', { timestamp: ' 1732200000' }, /decimal digits/],
      ['a method with a space', { method: 'GE T' }, /method must be an HTTP method token/],
      [
        'a path instead of a URL',
        { url: '/v2/merchants/payins/' },
        /url must be the full URL called, and it must start with http:\/\/ or https:\/\//,
      ],
      ['a URL with another scheme', { url: 'ftp://api.pay.example/x' }, /url must be the full URL called/],
      ['a URL with no host', { url: 'https:///x' }, /url must be the full URL called, and it must have a host/],
      ['a URL with a space', { url: `${base}/a b` }, /url must be the full URL called, and it must not contain spaces .*position 25/],
      ['a parsed body', { method: 'POST', body: { a: 1 } }, /body must be the exact body sent.*JSON\.stringify/],
    ];
    it.each(cases)('%s', (_name, change, message) => {
      expect(() => signRequest({ ...ok, ...change } as never)).toThrow(TypeError);
      expect(() => signRequest({ ...ok, ...change } as never)).toThrow(message);
    });

    it('never puts the secret in an error', () => {
      const s = 'sk_live_do-not-leak';
      for (const bad of [{ url: 'nope' }, { timestamp: 'x' }, { method: '' }, { body: 42 }]) {
        let error: unknown;
        try {
          signRequest({ ...ok, secret: s, ...bad } as never);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(TypeError);
        expect(inspect(error)).not.toContain(s);
      }
    });
  });
});

describe('signSimplified', () => {
  it('signs merchant id + timestamp + payin id, with no method', () => {
    const h = signSimplified({ merchantId: 'm_12345', secret, timestamp: 1732200000, payinId: 'pi_7' });
    expect(h).toEqual({
      'x-merchant-id': 'm_12345',
      'x-timestamp': '1732200000',
      'x-simplified-signature': hmac(secret, 'm_123451732200000pi_7'),
    });
    expect(h['x-simplified-signature']).not.toBe(hmac(secret, 'm_123451732200000POSTpi_7'));
    expect(text(simplifiedStringToSign({ merchantId: 'm_12345', timestamp: 1732200000, payinId: 'pi_7' }))).toBe('m_123451732200000pi_7');
  });

  it('refuses an empty payin id', () => {
    expect(() => signSimplified({ merchantId: 'm', secret, timestamp: 1, payinId: '' })).toThrow(/payinId must not be empty/);
  });
});

describe('types', () => {
  it('signed headers go straight into verifyRequest, fetch and plain records (checked by tsc)', () => {
    const headers = signRequest({ merchantId: 'm', secret, timestamp: 1, method: 'GET', url: `${base}/x` });
    const record: Record<string, string> = headers;
    const init: RequestInit = { headers };
    const result = verifyRequest({ merchantId: 'm', secret, method: 'GET', url: `${base}/x`, headers, now: 1 });
    expect([Object.keys(record).length, init.headers, result.ok]).toEqual([3, headers, true]);
  });
});
