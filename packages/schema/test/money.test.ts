// The money object table (amount, currency) on the Money schema itself.
import { describe, expect, it } from 'vitest';
import { Money, MoneyV1, ResponseMoney } from '../src/index.js';
import { errorsOf, expectError, expectValid } from './helpers.js';
import { AMOUNT_ROW, CURRENCY_BAD, fieldTable } from './rows.js';

const money = () => ({ payment: { amount: 10.5, currency: 'EUR' } });
// Rows are written against a `payment` wrapper so the paths read as in the interface.
import Type from 'typebox';
const Wrapped = Type.Object({ payment: Money }, { additionalProperties: false });

fieldTable('Money field table', Wrapped, money, [
  AMOUNT_ROW,
  { path: 'payment.currency', required: true, ok: ['EUR', 'USD', 'KWD', 'CLF'], bad: CURRENCY_BAD },
]);

describe('Money', () => {
  it('validates on its own, with root-relative paths', () => {
    expectValid(Money, { amount: '0.01', currency: 'USD' });
    expectError(Money, { amount: 1 }, 'currency', 'is required');
    expectError(Money, { amount: 1, currency: 'USD', fee: 1 }, 'fee', 'is not an allowed property');
    expectError(Money, 'ten euros', '', 'must be an object');
  });
  it('rejects non-finite numbers', () => {
    expectError(Money, { amount: Number.POSITIVE_INFINITY, currency: 'USD' }, 'amount', 'positive number');
    expectError(Money, { amount: Number.NaN, currency: 'USD' }, 'amount', 'positive number');
  });
  it('MoneyV1 makes the currency optional (legacy body)', () => {
    expectValid(MoneyV1, { amount: 5 });
    expectError(MoneyV1, { amount: 5, currency: 'usd' }, 'currency', 'ISO 4217 currency code');
  });
  it('ResponseMoney is lenient: zero, unknown currencies, any decimals and new fields pass', () => {
    expectValid(ResponseMoney, { amount: 0, currency: 'XBT', precision: 2 });
    expectValid(ResponseMoney, { amount: 0.001, currency: 'EUR' });
    expectValid(ResponseMoney, { amount: '10.505', currency: 'JPY' });
    expectValid(ResponseMoney, { amount: 1e-7, currency: 'HRK' });
    expect(errorsOf(ResponseMoney, { amount: 'x', currency: 1 })).toEqual([{ path: 'currency', message: 'must be a string' }]);
    expectError(ResponseMoney, { currency: 'EUR' }, 'amount', 'is required');
  });
});
