// The masking of the run's secret and card number in reports, checked against encodings the test
// computes itself (node's Buffer and encodeURIComponent), never the runner's list of them.
import { describe, expect, it } from 'vitest';
import { cardNumberOf, leakIn, redactDeep, redactor, secretOf } from '../src/http/redact.js';

const secret = 'sk_test_0123456789abcdef0123456789abcdef';
const pan = '4242424242424242';
const redact = redactor([...secretOf(secret), ...cardNumberOf(pan)]);

/** The encodings a careless SDK writes, computed here, each inside other text. */
function leaks(value: string): Record<string, string> {
  const b = Buffer.from(value);
  const around = (inner: Buffer, enc: BufferEncoding) =>
    Buffer.concat([Buffer.from('x'.repeat(inner.length % 3 === 0 ? 1 : 2)), inner, Buffer.from('yz')]).toString(enc);
  return {
    plain: `header ${value} end`,
    json: JSON.stringify({ secret: value }),
    unicode: [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    percent: `a=${encodeURIComponent(`${value} é`)}`,
    percentAll: [...b].map((x) => `%${x.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    base64: b.toString('base64'),
    base64Shifted1: Buffer.concat([Buffer.from('k'), b]).toString('base64'),
    base64Shifted2: Buffer.concat([Buffer.from('ke'), b]).toString('base64'),
    base64Inside: around(b, 'base64'),
    base64url: Buffer.concat([Buffer.from('\u00ff'), b]).toString('base64url'),
    hex: b.toString('hex'),
    hexUpper: b.toString('hex').toUpperCase(),
  };
}

describe('redactor', () => {
  it('masks the secret, and the card number, in every encoding a report could carry them', () => {
    for (const value of [secret, pan]) {
      for (const [name, text] of Object.entries(leaks(value))) {
        const out = redact(text);
        for (const [other, form] of Object.entries(leaks(value))) {
          // What is left must not hold the value in any encoding either.
          const core = form.replace(/^(header |a=|\{"secret":")|( end|"\})$/g, '');
          if (core.length >= 16) expect(out.includes(core.slice(4, -4)), `${name} still holds ${other}`).toBe(false);
        }
        expect(out).not.toBe(text);
      }
    }
    expect(redact('card 4242 4242 4242 4242 and 4242-4242-4242-4242')).toBe('card ‹card› and ‹card›');
    // The secret's random part alone is the secret.
    expect(redact('key=0123456789abcdef0123456789abcdef')).toBe('key=‹secret›');
  });
  it('leaves ordinary text alone, and masks a short secret as it is', () => {
    expect(redact('reported a create as failed: HTTP 401 expired')).toBe('reported a create as failed: HTTP 401 expired');
    expect(redactor(secretOf('abc'))('x abc y 616263')).toBe('x ‹secret› y 616263');
  });
  it('masks every string of a value, keys included', () => {
    const got = { code: secret, paths: [Buffer.from(pan).toString('base64'), 'customer.email'], n: 1, [secret]: null };
    // A base64 text keeps the characters it shares with what follows the value (here, its padding).
    expect(redactDeep(got, redact)).toEqual({ code: '‹secret›', paths: ['‹card›g==', 'customer.email'], n: 1, '‹secret›': null });
  });
  it('says which value, in which encoding, a text carries, without showing it', () => {
    expect(leakIn(`signature over ${Buffer.from(secret).toString('base64')}`, secretOf(secret))).toBe('the secret in base64');
    expect(leakIn(`body {"pan":"${pan}"}`, cardNumberOf(pan))).toBe('the card number as it is');
    expect(leakIn('nothing here', [...secretOf(secret), ...cardNumberOf(pan)])).toBeNull();
    const both = `client {'_secret': '${secret}'} request ${Buffer.from(`["u", {"pan": "${pan}"}]`).toString('base64')}`;
    expect(leakIn(both, [...secretOf(secret), ...cardNumberOf(pan)])).toBe('the secret as it is and the card number in base64');
  });
});
