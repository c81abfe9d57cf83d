// "Is this record ours?" as a table. The oracle is the interface's rule written out as literals,
// row by row: same amount as a decimal, same currency, and no currency sent matches any.
import { describe, expect, it } from 'vitest';
import { isSameCreate, type SentMoney } from '../src/index.js';

type Found = { amount: unknown; currency: unknown };
const ROWS: readonly (readonly [string, SentMoney, Found, boolean])[] = [
  ['same number, same currency', { amount: 10.5, currency: 'EUR' }, { amount: 10.5, currency: 'EUR' }, true],
  ['a number and its decimal string', { amount: 10.5, currency: 'EUR' }, { amount: '10.50', currency: 'EUR' }, true],
  ['a string and the number it names', { amount: '10.50', currency: 'EUR' }, { amount: 10.5, currency: 'EUR' }, true],
  ['exponent form of the same amount', { amount: '0.0000001', currency: 'EUR' }, { amount: 1e-7, currency: 'EUR' }, true],
  [
    'past 15 digits, one double apart',
    { amount: '12345678901234567', currency: 'EUR' },
    { amount: '12345678901234568', currency: 'EUR' },
    false,
  ],
  [
    'past 15 digits, same text',
    { amount: '12345678901234567.01', currency: 'EUR' },
    { amount: '12345678901234567.010', currency: 'EUR' },
    true,
  ],
  ['another amount', { amount: 10, currency: 'EUR' }, { amount: 11, currency: 'EUR' }, false],
  ['another currency', { amount: 10, currency: 'EUR' }, { amount: 10, currency: 'USD' }, false],
  ['currency case differs', { amount: 10, currency: 'EUR' }, { amount: 10, currency: 'eur' }, false],
  ['a currency sent, none found', { amount: 10, currency: 'EUR' }, { amount: 10, currency: null }, false],
  ['a currency sent, found undefined', { amount: 10, currency: 'EUR' }, { amount: 10, currency: undefined }, false],
  ['no currency sent (undefined): any found', { amount: 10 }, { amount: 10, currency: 'USD' }, true],
  ['no currency sent (null): any found', { amount: 10, currency: null }, { amount: '10.0', currency: 'JPY' }, true],
  ['no currency sent, none found', { amount: 10, currency: null }, { amount: 10, currency: null }, true],
  ['no currency sent, another amount', { amount: 10 }, { amount: 12, currency: 'USD' }, false],
  ['found amount missing', { amount: 10, currency: 'EUR' }, { amount: undefined, currency: 'EUR' }, false],
  ['found amount null', { amount: 10 }, { amount: null, currency: 'EUR' }, false],
  ['found amount an object', { amount: 10 }, { amount: { value: 10 }, currency: 'EUR' }, false],
  ['found amount negative', { amount: 10, currency: 'EUR' }, { amount: -10, currency: 'EUR' }, false],
  ['found amount not a decimal', { amount: 10, currency: 'EUR' }, { amount: 'ten', currency: 'EUR' }, false],
];

describe('isSameCreate', () => {
  for (const [name, sent, found, ours] of ROWS) {
    it(`${name}: ${ours ? 'ours' : 'not ours'}`, () => {
      expect(isSameCreate(sent, found)).toBe(ours);
    });
  }
});
