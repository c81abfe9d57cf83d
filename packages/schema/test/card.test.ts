// Card data push body: every row, the card rules, and card data never in a message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CardPushRequest, maskPan, passesLuhn } from '../src/index.js';
import { cardPush, errorsOf, withPath } from './helpers.js';
import { fieldTable } from './rows.js';

fieldTable('CardPushRequest field table', CardPushRequest, cardPush, [
  {
    path: 'payin_id',
    required: true,
    ok: ['pi_1'],
    bad: [
      ['', 'must not be empty'],
      [7, 'must be a string'],
    ],
  },
  {
    path: 'card.pan',
    required: true,
    ok: ['4242424242424242', '378282246310005', '6011111111111117', '4000056655665556', '4222222222222'],
    bad: [
      ['4242424242424241', 'fails the Luhn check'],
      ['4242 4242 4242 4242', '12 to 19 digits, without spaces'],
      ['42424242424', '12 to 19 digits'],
      ['42424242424242424242', '12 to 19 digits'],
      [4242424242424242, 'must be a string'],
    ],
  },
  {
    path: 'card.exp_month',
    required: true,
    ok: ['01', '09', '12'],
    bad: [
      ['13', 'two digits from 01 to 12'],
      ['00', 'two digits from 01 to 12'],
      ['9', 'two digits from 01 to 12'],
      [9, 'must be a string'],
    ],
  },
  {
    path: 'card.exp_year',
    required: true,
    ok: ['2030', '1999'],
    bad: [
      ['30', 'four digits'],
      ['20301', 'four digits'],
      ['203a', 'four digits'],
    ],
  },
  {
    path: 'card.csc',
    required: true,
    ok: ['123', '1234', '000'],
    bad: [
      ['12', '3 or 4 digits'],
      ['12345', '3 or 4 digits'],
      ['12a', '3 or 4 digits'],
    ],
  },
]);

describe('card data in messages', () => {
  it('masks the PAN to its last four digits', () => {
    const errors = errorsOf(CardPushRequest, withPath(cardPush(), 'card.pan', '4242424242424241'));
    expect(errors).toEqual([{ path: 'card.pan', message: 'must be a valid card number (**** 4241 fails the Luhn check)' }]);
    expect(maskPan('4242424242424241')).toBe('**** 4241');
    expect(maskPan('123')).toBe('****');
  });
  it('never repeats a PAN or a CSC in any error (property)', () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
    fc.assert(
      fc.property(digits(8, 24), digits(1, 6), fc.string(), fc.string(), (pan, csc, month, year) => {
        const body = { payin_id: 'pi_1', card: { pan, exp_month: month, exp_year: year, csc }, [pan]: 1 };
        const text = JSON.stringify(errorsOf(CardPushRequest, body));
        expect(text).not.toContain(pan);
        // At most four digits of it, the last four: no message or masked path holds a longer run
        // of digits. (Looking for the digits before the last four instead fails wrongly when they
        // happen to equal the last four, as in 51075107.)
        expect(text).not.toMatch(/[0-9]{5}/);
        // Only the CSC's own path may be reported, never its value.
        for (const e of errorsOf(CardPushRequest, body)) {
          if (e.path === 'card.csc') expect(e.message).toBe('must be 3 or 4 digits');
        }
      }),
      {
        examples: [
          ['51075107', '0', '', ''],
          ['20302030', '0', '', ''],
        ],
      },
    );
  });
  it('Luhn check agrees with a direct computation', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 19 }), (ds) => {
        const sum = ds
          .slice()
          .reverse()
          .reduce((acc, d, i) => acc + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
        expect(passesLuhn(ds.join(''))).toBe(sum % 10 === 0);
      }),
    );
  });
});
