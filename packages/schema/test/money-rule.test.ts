// The money keyword (x-pay-money): decimals against the currency's minor unit, and the 15
// significant digits of a JSON number, checked against an oracle that works differently from the
// rule (toFixed/toPrecision round-trips instead of reading the shortest text), in both validators.
import fc from 'fast-check';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  CreatePayinRequest,
  CreatePayinRequestV1,
  CreatePayoutRequest,
  CURRENCY_CODES,
  customKeywords,
  createValidator,
  jsonSchemas,
  MONEY_KEYWORD,
  Money,
  MoneyV1,
  minorUnitOf,
  ResponseMoney,
} from '../src/index.js';
import { errorsOf, expectValid, payinV1, payinV2, payout, withPath } from './helpers.js';

/** The fewest decimals that read back as `x`, found by rounding (toFixed), not by reading its text. */
function oracleDecimals(x: number): number {
  for (let d = 0; d <= 100; d += 1) if (Number(x.toFixed(d)) === x) return d;
  return Number.POSITIVE_INFINITY;
}

/** The fewest significant digits that read back as `x` (toPrecision). */
function oracleSignificant(x: number): number {
  for (let p = 1; p <= 21; p += 1) if (Number(x.toPrecision(p)) === x) return p;
  return Number.POSITIVE_INFINITY;
}

/** The errors at `amount` of a money object. */
const amountErrors = (value: unknown) => errorsOf(Money, value).filter((e) => e.path === 'amount');

describe('decimals against the currency (number amounts: the shortest round-trip text)', () => {
  it.each([
    // [amount, currency, message or null]
    [10.5, 'EUR', null],
    [10.55, 'EUR', null],
    [0.01, 'EUR', null],
    [0.001, 'EUR', 'EUR has 2 decimals; got 3'],
    [1e-7, 'EUR', 'EUR has 2 decimals; got 7'],
    [1.5e-7, 'EUR', 'EUR has 2 decimals; got 8'],
    [0.1 + 0.2, 'EUR', 'EUR has 2 decimals; got 17'],
    [5e-324, 'EUR', 'EUR has 2 decimals; got 324'],
    [1000, 'JPY', null],
    [10.5, 'JPY', 'JPY has no decimals; got 1'],
    [1.5, 'KWD', null],
    [1.234, 'BHD', null],
    [1.2345, 'BHD', 'BHD has 3 decimals; got 4'],
    [1.2345, 'CLF', null],
    [1.23456, 'UYW', 'UYW has 4 decimals; got 5'],
    // Huge numbers are whole: no decimals, and as many significant digits as their text shows.
    [1e21, 'JPY', null],
    [1.5e300, 'EUR', null],
    [999999999999999, 'EUR', null],
    [9999999999999.99, 'EUR', null],
  ])('%j %s', (amount, currency, message) => {
    const expected = message === null ? [] : [{ path: 'amount', message }];
    expect(amountErrors({ amount, currency })).toEqual(expected);
  });
});

describe('decimals against the currency (decimal strings: their value, trailing zeros left out)', () => {
  it.each([
    ['10.50', 'EUR', null],
    ['10.500', 'EUR', null],
    ['10.505', 'EUR', 'EUR has 2 decimals; got 3'],
    ['0.0000001', 'EUR', 'EUR has 2 decimals; got 7'],
    ['1000', 'JPY', null],
    ['1000.000', 'JPY', null],
    ['1000.5', 'JPY', 'JPY has no decimals; got 1'],
    ['1.500', 'KWD', null],
    ['1.5001', 'KWD', 'KWD has 3 decimals; got 4'],
    // Strings carry any number of digits exactly: no significant-digit limit.
    ['123456789012345678901234567890.12', 'EUR', null],
  ])('%j %s', (amount, currency, message) => {
    const expected = message === null ? [] : [{ path: 'amount', message }];
    expect(amountErrors({ amount, currency })).toEqual(expected);
  });
});

describe('significant digits of a JSON number', () => {
  it('refuses more than 15, whatever the currency, and says to send a decimal string', () => {
    const message = 'has 17 significant digits; a JSON number carries at most 15 exactly, so give this amount as a decimal string';
    expect(amountErrors({ amount: 12345678901234568, currency: 'JPY' })).toEqual([{ path: 'amount', message }]);
    expect(errorsOf(MoneyV1, { amount: 1234567890123456.8 })).toEqual([{ path: 'amount', message }]);
    expect(amountErrors({ amount: 123456789012345.6, currency: 'EUR' })).toEqual([
      { path: 'amount', message: message.replace('17', '16') },
    ]);
    expect(amountErrors({ amount: 123456789012345, currency: 'JPY' })).toEqual([]);
    expect(amountErrors({ amount: 12345678901234.5, currency: 'EUR' })).toEqual([]);
  });

  it('the legacy money object without a currency: only the significant digits are judged', () => {
    expectValid(MoneyV1, { amount: 0.001 });
    expect(errorsOf(MoneyV1, { amount: 0.1 + 0.2 })).toEqual([
      { path: 'amount', message: expect.stringContaining('has 17 significant digits') },
    ]);
  });
});

describe('one message per mistake', () => {
  it.each([
    // A mistake of the currency or of the amount's own form is reported once, by its own rule.
    [{ amount: 0.001, currency: 'ABC' }, ['currency']],
    [{ amount: 0.001, currency: 'eur' }, ['currency']],
    [{ amount: '1.2.3', currency: 'EUR' }, ['amount']],
    [{ amount: '-0.001', currency: 'EUR' }, ['amount']],
    [{ amount: -0.001, currency: 'EUR' }, ['amount']],
    [{ amount: Number.NaN, currency: 'EUR' }, ['amount']],
    [{ amount: Number.POSITIVE_INFINITY, currency: 'EUR' }, ['amount']],
    [{ amount: -0, currency: 'EUR' }, ['amount']],
    [{ amount: 0.001 }, ['currency']],
  ])('%j', (value, paths) => {
    expect(errorsOf(Money, value).map((e) => e.path)).toEqual(paths);
  });
});

describe('random amounts against the oracle', () => {
  const currency = fc.constantFrom(...CURRENCY_CODES);

  it('a positive number passes exactly when its decimals fit the currency and it has at most 15 significant digits', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 1e20, noNaN: true }), currency, (amount, code) => {
        const units = minorUnitOf(code) as number;
        const ok = oracleDecimals(amount) <= units && oracleSignificant(amount) <= 15;
        expect(amountErrors({ amount, currency: code }).length === 0, `${amount} ${code}`).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  it('amounts of the currency, as numbers and as strings, always pass', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }), currency, (minor, code) => {
        const units = minorUnitOf(code) as number;
        const digits = minor.toString().padStart(units + 1, '0');
        const text = units === 0 ? digits : `${digits.slice(0, -units)}.${digits.slice(-units)}`;
        expect(amountErrors({ amount: text, currency: code }), text).toEqual([]);
        expect(amountErrors({ amount: Number(text), currency: code }), text).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("the doubles next to an amount of the currency get the oracle's verdict too (the quick path's edges)", () => {
    const view = new DataView(new ArrayBuffer(8));
    const step = (x: number, by: bigint) => {
      view.setFloat64(0, x);
      view.setBigUint64(0, view.getBigUint64(0) + by);
      return view.getFloat64(0);
    };
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }), currency, fc.constantFrom(-1n, 1n), (minor, code, by) => {
        const units = minorUnitOf(code) as number;
        const amount = step(Number(minor) / 10 ** units, by);
        const ok = oracleDecimals(amount) <= units && oracleSignificant(amount) <= 15;
        expect(amountErrors({ amount, currency: code }).length === 0, `${amount} ${code}`).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  it('a decimal string passes exactly when its digits after the dot, trailing zeros left out, fit the currency', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99999 }), digits(0, 8), currency, (whole, fraction, code) => {
        const text = fraction === '' ? String(whole) : `${whole}.${fraction}`;
        const ok = fraction.replace(/0+$/, '').length <= (minorUnitOf(code) as number);
        expect(amountErrors({ amount: text, currency: code }).length === 0, `${text} ${code}`).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('in every create body, at payment.amount; responses stay lenient', () => {
  it.each([
    ['CreatePayinRequest', CreatePayinRequest, payinV2],
    ['CreatePayinRequestV1', CreatePayinRequestV1, payinV1],
    ['CreatePayoutRequest', CreatePayoutRequest, payout],
  ] as const)('%s', (_name, schema, fixture) => {
    const body = withPath(withPath(fixture(), 'payment.currency', 'EUR'), 'payment.amount', 0.001);
    expect(errorsOf(schema, body)).toEqual([{ path: 'payment.amount', message: 'EUR has 2 decimals; got 3' }]);
    const jpy = withPath(withPath(fixture(), 'payment.currency', 'JPY'), 'payment.amount', '1000.5');
    expect(errorsOf(schema, jpy)).toEqual([{ path: 'payment.amount', message: 'JPY has no decimals; got 1' }]);
  });

  it('ResponseMoney has no money keyword: any currency, any decimals', () => {
    expect(ResponseMoney).not.toHaveProperty(MONEY_KEYWORD);
    expect(errorsOf(ResponseMoney, { amount: 0.001, currency: 'ABC' })).toEqual([]);
  });
});

describe('the keyword as plain data', () => {
  it('is in the exported JSON Schema of every money object of a request', () => {
    const documents = jsonSchemas();
    const spec = { amount: 'amount', currency: 'currency' };
    expect(documents.Money[MONEY_KEYWORD]).toEqual(spec);
    expect(documents.MoneyV1[MONEY_KEYWORD]).toEqual(spec);
    for (const name of ['CreatePayinRequest', 'CreatePayinRequestV1', 'CreatePayoutRequest', 'CreatePayoutRequestPaymentPage'] as const) {
      const payment = (documents[name]['properties'] as Record<string, Record<string, unknown>>)['payment'];
      expect(payment?.[MONEY_KEYWORD], name).toEqual(spec);
    }
    expect(documents.ResponseMoney).not.toHaveProperty(MONEY_KEYWORD);
  });

  it('works on any property names, and a malformed keyword fails when the validator is made', () => {
    const Price = Type.Object({ total: Type.Number(), code: Type.String() }, { [MONEY_KEYWORD]: { amount: 'total', currency: 'code' } });
    expect(errorsOf(Price, { total: 1.5, code: 'JPY' })).toEqual([{ path: 'total', message: 'JPY has no decimals; got 1' }]);
    for (const spec of [
      true,
      null,
      'amount',
      { amount: 'amount' },
      { amount: 'a', currency: 'c', extra: 1 },
      { amount: 1, currency: 'c' },
    ]) {
      expect(() => createValidator(Type.Object({}, { [MONEY_KEYWORD]: spec })), JSON.stringify(spec)).toThrow(TypeError);
      expect(() => createValidator(Type.Object({}, { [MONEY_KEYWORD]: spec }), { codegen: 'never' })).toThrow(TypeError);
    }
  });

  it('customKeywords gives other validators the same verdict', () => {
    const check = customKeywords[MONEY_KEYWORD];
    const spec = { amount: 'amount', currency: 'currency' };
    for (const value of [
      { amount: 0.001, currency: 'EUR' },
      { amount: 0.01, currency: 'EUR' },
      { amount: '10.505', currency: 'EUR' },
      { amount: 10, currency: 'JPY' },
      { amount: 12345678901234568, currency: 'JPY' },
    ]) {
      expect(check(spec, value), JSON.stringify(value)).toBe(errorsOf(Money, value).length === 0);
    }
    expect(check(spec, 'not an object')).toBe(true);
  });
});
