// isCountryCode, the guard a TypeScript program uses on a country held as a string: it must say
// yes exactly where the schema's validator does (the one list, COUNTRY_CODES), and narrow.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { COUNTRY_CODES, Country, type CountryCode, isCountryCode, validate } from '../src/index.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

describe('isCountryCode', () => {
  it('agrees with the validator of customer.address.country on every pair of capital letters', () => {
    const pairs = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));
    const disagreements = pairs.filter((code) => isCountryCode(code) !== validate(Country, code).ok);
    expect(disagreements).toEqual([]);
    expect(pairs.filter(isCountryCode)).toEqual([...COUNTRY_CODES]);
    expect(COUNTRY_CODES).toHaveLength(249);
  });

  it('takes the assigned codes and nothing near them', () => {
    for (const code of ['GB', 'CA', 'DE', 'US', 'AQ', 'ZW']) expect(isCountryCode(code), code).toBe(true);
    // Reserved or user-assigned (UK, EU, XK), lower case, alpha-3, padded, empty.
    for (const value of ['UK', 'EU', 'XK', 'gb', 'Gb', 'GBR', ' GB', 'GB ', 'G', '']) expect(isCountryCode(value), value).toBe(false);
  });

  it('says false, never throws, for what is not a string', () => {
    for (const value of [null, undefined, 42, {}, ['GB'], Object('GB'), { toString: () => 'GB' }]) {
      expect(isCountryCode(value)).toBe(false);
      expect(validate(Country, value).ok).toBe(false);
    }
  });

  it('narrows a string to CountryCode', () => {
    const fromForm: string = new URLSearchParams('country=DE').get('country') ?? '';
    if (isCountryCode(fromForm)) expectTypeOf(fromForm).toEqualTypeOf<CountryCode>();
    else expectTypeOf(fromForm).toEqualTypeOf<string>();
    expect(isCountryCode(fromForm)).toBe(true);
  });
});
