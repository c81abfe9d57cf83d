// Properties over generated inputs, with node:crypto as the independent oracle: signing matches
// it for any merchant id, timestamp, URL, body and secret; what is signed verifies; and no header
// object, however strange, makes verifyRequest throw.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signRequest, signSimplified, urlProblem, verifyRequest } from '../src/index.js';

const text = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const secret = fc.string({ minLength: 1, maxLength: 80, unit: 'binary' });
const timestamp = fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.stringMatching(/^[0-9]{1,15}$/));
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'post', 'Get');
const url = fc
  .tuple(fc.constantFrom('http', 'https', 'HTTPS'), fc.domain(), fc.webPath(), fc.webQueryParameters())
  .map(([scheme, host, path, query]) => `${scheme}://${host}${path}${query ? `?${query}` : ''}`);
const body = fc.oneof(fc.string({ maxLength: 300, unit: 'binary' }), fc.uint8Array({ maxLength: 300 }));
const oracle = (key: string, ...parts: (string | Uint8Array)[]) => {
  const mac = createHmac('sha256', Buffer.from(key, 'utf8'));
  for (const p of parts) mac.update(typeof p === 'string' ? Buffer.from(p, 'utf8') : p);
  return mac.digest('hex');
};

describe('properties', () => {
  it('signRequest equals HMAC-SHA256 of the concatenation, computed by node:crypto', () => {
    fc.assert(
      fc.property(text, secret, timestamp, method, url, body, (merchantId, key, ts, m, u, b) => {
        const headers = signRequest({ merchantId, secret: key, timestamp: ts, method: m, url: u, body: b });
        const upper = m.toUpperCase();
        expect(headers['x-signature']).toBe(oracle(key, `${merchantId}${ts}${upper}${u}`, upper === 'GET' ? '' : b));
        expect(headers['x-timestamp']).toBe(String(ts));
      }),
      { numRuns: 300 },
    );
  });

  it('signSimplified equals HMAC-SHA256 of merchant id + timestamp + payin id', () => {
    fc.assert(
      fc.property(text, secret, timestamp, text, (merchantId, key, ts, payinId) => {
        const h = signSimplified({ merchantId, secret: key, timestamp: ts, payinId });
        expect(h['x-simplified-signature']).toBe(oracle(key, `${merchantId}${ts}${payinId}`));
      }),
      { numRuns: 200 },
    );
  });

  it('what is signed verifies, and any change to the body or URL does not', () => {
    fc.assert(
      fc.property(
        text,
        secret,
        fc.integer({ min: 0, max: 2 ** 40 }),
        url,
        fc.string({ minLength: 1, maxLength: 200 }),
        (merchantId, key, ts, u, b) => {
          const headers = signRequest({ merchantId, secret: key, timestamp: ts, method: 'POST', url: u, body: b });
          const base = { merchantId, secret: key, method: 'POST', url: u, headers, now: ts };
          expect(verifyRequest({ ...base, body: b })).toEqual({ ok: true, secretIndex: 0 });
          expect(verifyRequest({ ...base, body: `${b} ` })).toMatchObject({ ok: false, reason: 'bad_signature' });
          expect(verifyRequest({ ...base, body: b, url: `${u}x` })).toMatchObject({ ok: false, reason: 'bad_signature' });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws for any headers a request can carry, and always names a reason', () => {
    const value = fc.oneof(
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.object(),
    );
    const names = fc.constantFrom('x-merchant-id', 'X-Timestamp', 'x-signature', 'X-SIGNATURE', '__proto__', 'constructor', 'other');
    fc.assert(
      fc.property(fc.dictionary(names, value), fc.string(), fc.oneof(fc.string(), fc.uint8Array()), (headers, m, b) => {
        const result = verifyRequest({
          merchantId: 'm_1',
          secret: 'sk',
          method: m,
          url: 'https://x.example/',
          headers: headers as never,
          body: b,
          now: 1732200000,
        });
        if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('urlProblem finds a problem exactly when one of its three rules is broken', () => {
    // The rules read character by character, apart from the implementation's regular expressions.
    const unsafe = (c: string) => c.trim() === '' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;
    const broken = (u: string) => {
      const scheme = /^https:\/\//i.test(u) ? 8 : /^http:\/\//i.test(u) ? 7 : -1;
      if (scheme < 0) return true;
      if ([...u].some(unsafe)) return true;
      const first = u[scheme];
      return first === undefined || '/?#\\'.includes(first);
    };
    const piece = fc.oneof(
      fc.constantFrom(
        'http://',
        'HTTPS://',
        'https:/',
        'h',
        '/',
        '?',
        '#',
        '\\',
        ' ',
        '\t',
        '\u0000',
        '\u007f',
        '\u00a0',
        '\u2028',
        '\ufeff',
        'é',
        'x',
        '.',
        ':',
      ),
      fc.string({ maxLength: 4, unit: 'binary' }),
    );
    const candidate = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(candidate, (u) => {
        expect(urlProblem(u) !== undefined, JSON.stringify(u)).toBe(broken(u));
      }),
      { numRuns: 5000 },
    );
  });
});
