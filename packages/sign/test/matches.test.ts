// signatureMatches: the HMAC of any message, compared with a sent signature. Expected signatures
// are made here with node:crypto, independently of the package (and of its backend).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureMatches } from '../src/index.js';

const secret = 'sk_test_9f8e7d6c';
const hmac = (key: string, message: string | Uint8Array) => createHmac('sha256', key).update(message).digest('hex');

describe('signatureMatches', () => {
  it.each([
    ['a short text', 'm_1' + '1732200000' + 'post' + 'https://api.pay.example/v2/merchants/payins/' + '{}'],
    ['an empty message', ''],
    ['text beyond the ASCII range', 'Zoë 🧾 ünïcödé'],
    ['a message larger than the one-shot buffer', 'x'.repeat(40_000)],
  ])('is true for the HMAC of %s, in lower or upper case hex', (_, message) => {
    const signature = hmac(secret, message);
    expect(signatureMatches({ secret, message, signature })).toBe(true);
    expect(signatureMatches({ secret, message, signature: signature.toUpperCase() })).toBe(true);
    expect(signatureMatches({ secret, message: new TextEncoder().encode(message), signature })).toBe(true);
  });

  it('is false for another message, another secret, or a signature one character off', () => {
    const signature = hmac(secret, 'hello');
    expect(signatureMatches({ secret, message: 'hello!', signature })).toBe(false);
    expect(signatureMatches({ secret: `${secret} `, message: 'hello', signature })).toBe(false);
    const flipped = (signature[0] === '0' ? '1' : '0') + signature.slice(1);
    expect(signatureMatches({ secret, message: 'hello', signature: flipped })).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['zz'.repeat(32), 'not hex'],
    [hmac(secret, 'hello').slice(1), '63 characters'],
    [undefined, 'missing'],
    [42, 'a number'],
  ])('never matches a signature that is %j (%s), and never throws for it', (signature, _what) => {
    expect(signatureMatches({ secret, message: 'hello', signature: signature as string })).toBe(false);
  });

  it('throws a TypeError for an unusable secret or message, naming it', () => {
    expect(() => signatureMatches({ secret: '', message: 'x', signature: hmac('k', 'x') })).toThrow(/secret/);
    expect(() => signatureMatches({ secret, message: { a: 1 } as never, signature: hmac(secret, 'x') })).toThrow(/message/);
  });
});
