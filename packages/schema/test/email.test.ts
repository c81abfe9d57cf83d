// The email rule (format pay-email): a table of addresses and of the mistakes merchants make, each
// with the reason given, and random strings against an independent oracle (one regular expression
// written from the rule's description, where the rule itself is a hand-written scan).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreatePayoutRequest, customFormats } from '../src/index.js';
import { errorsOf, payout, withPath } from './helpers.js';

const emailErrors = (email: unknown) => errorsOf(CreatePayoutRequest, withPath(payout(), 'customer.email', email));
const isEmail = customFormats['pay-email'];

describe('customer.email', () => {
  it.each([
    'jane@shop.example',
    'j.doe+tag@mail.shop.co.uk',
    "o'brien@example.ie",
    'x_y-z{1}@a-b.example',
    'jane@xn--bcher-kva.example',
    'zoë@bücher.example',
    'ユーザー@例え.jp',
    'a@b.co',
    `${'a'.repeat(64)}@shop.example`,
    `jane@${'a'.repeat(63)}.example`,
  ])('accepts %s', (email) => {
    expect(emailErrors(email)).toEqual([]);
  });

  it.each([
    ['not-an-email', 'it has no @'],
    ['jane@@shop.example', 'it has more than one @'],
    ['jane@shop.example,joe@shop.example', 'it has more than one @'],
    ['@shop.example', 'nothing comes before the @'],
    ['jane@', 'nothing comes after the @'],
    [`${'a'.repeat(65)}@shop.example`, 'the part before the @ is longer than 64 characters'],
    ['Jane Doe@shop.example', 'it contains white space'],
    [' jane@shop.example', 'it contains white space'],
    ['jane@shop.example\u00a0', 'it contains white space'],
    ['jane\u2003@shop.example', 'it contains white space'],
    ['jane\u0000@shop.example', 'it contains a control character'],
    ['jane@shop.example\u0085', 'it contains a control character'],
    ['jane\ud800@shop.example', 'it is not well-formed Unicode (a lone surrogate)'],
    ['"jane"@shop.example', 'the part before the @ contains one of "(),:;<>[\\]'],
    ['<jane@shop.example>', 'the part before the @ contains one of "(),:;<>[\\]'],
    ['jane;joe@shop.example', 'the part before the @ contains one of "(),:;<>[\\]'],
    ['jane@shop', 'the domain has no dot (such as shop.example)'],
    ['jane@shop..example', 'the domain has an empty part'],
    ['jane@shop.example.', 'the domain has an empty part'],
    ['jane@.shop.example', 'the domain has an empty part'],
    [`jane@${'a'.repeat(64)}.example`, 'a part of the domain is longer than 63 characters'],
    ['jane@-shop.example', 'a part of the domain starts or ends with a hyphen'],
    ['jane@shop-.example', 'a part of the domain starts or ends with a hyphen'],
    ['jane@shop_x.example', 'the domain may only have letters, digits, hyphens and dots'],
    ['jane@[203.0.113.7]', 'the domain may only have letters, digits, hyphens and dots'],
    ['jane@shop.example>', 'the domain may only have letters, digits, hyphens and dots'],
    ['jane@203.0.113.7', 'the domain ends in a number'],
  ])('refuses %j: %s', (email, reason) => {
    const errors = emailErrors(email);
    expect(errors).toContainEqual({
      path: 'customer.email',
      message: expect.stringContaining(`must be an email address such as jane@shop.example: ${reason}`),
    });
    // Personal data: past its fixed example, the message never repeats the address.
    for (const e of errors) expect(e.message.replace('such as jane@shop.example', '')).not.toContain(email.trim());
  });

  it('keeps the interface bounds [6..255] beside the rule', () => {
    expect(emailErrors('j@x.e')).toEqual([{ path: 'customer.email', message: 'must be at least 6 characters' }]);
  });
});

// The oracle: the rule's description as one regular expression (labels of letters, marks and
// digits of any script or hyphens; no specials before the @; no white space or controls).
const LABEL = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?';
const ORACLE = new RegExp(`^[^\\s@"(),:;<>[\\]\\\\\\u0000-\\u001f\\u007f-\\u009f]{1,64}@(?:${LABEL}\\.)+${LABEL}$`, 'u');
const oracle = (text: string) => ORACLE.test(text) && !/\.[0-9]+$/.test(text);

describe('pay-email against the oracle', () => {
  it('agrees on random strings of the characters that matter', () => {
    const alphabet = ['a', 'Z', '1', '-', '.', '@', ' ', '"', '<', ',', '_', '+', 'é', '\u0000', '\u00a0', '١'];
    const text = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 16 });
    // Half of them built around one @, so that the domain rules are reached often.
    const shaped = fc.tuple(text, text).map(([local, domain]) => `${local}@${domain}`);
    fc.assert(
      fc.property(fc.oneof(text, shaped), (value) => {
        expect(isEmail(value), JSON.stringify(value)).toBe(oracle(value));
      }),
      { numRuns: 5000 },
    );
  });
});
