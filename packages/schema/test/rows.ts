import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { chars, expectError, expectValid, REMOVE, withPath } from './helpers.js';

/** One row of a field table of the interface, and what the schema must do with it. */
export interface Row {
  readonly path: string;
  /** Starred in the table (or present by the interface's description, for responses). */
  readonly required: boolean;
  /** Inclusive length bounds from the table. */
  readonly min?: number;
  readonly max?: number;
  /** Builds a valid string of length n, for fields that also have a shape. */
  readonly make?: (n: number) => string;
  readonly ok?: readonly unknown[];
  readonly bad?: readonly (readonly [unknown, string])[];
}

/**
 * Tests every row of a field table: required flag, both inclusive bounds and one past each, and
 * each accepted and rejected example. Every failing case asserts the exact path and a message.
 */
export function fieldTable(title: string, schema: TSchema, fixture: () => unknown, rows: readonly Row[]): void {
  describe(title, () => {
    it('accepts the complete valid body', () => {
      expectValid(schema, fixture());
    });
    for (const row of rows) {
      describe(row.path, () => {
        if (row.required) {
          it('is required', () => {
            expectError(schema, withPath(fixture(), row.path, REMOVE), row.path, 'is required');
          });
        } else {
          it('is optional', () => {
            expectValid(schema, withPath(fixture(), row.path, REMOVE));
          });
        }
        const { min, max } = row;
        const make = row.make ?? ((n: number) => chars(n));
        if (min !== undefined && max !== undefined) {
          it(`accepts lengths ${min} and ${max} (inclusive bounds)`, () => {
            expectValid(schema, withPath(fixture(), row.path, make(min)));
            expectValid(schema, withPath(fixture(), row.path, make(max)));
          });
          it(`rejects length ${max + 1}`, () => {
            expectError(schema, withPath(fixture(), row.path, make(max + 1)), row.path, `must be at most ${max} characters`);
          });
          if (min > 0) {
            it(`rejects length ${min - 1}`, () => {
              const fragment = min === 1 ? 'must not be empty' : `must be at least ${min} characters`;
              expectError(schema, withPath(fixture(), row.path, min === 1 ? '' : make(min - 1)), row.path, fragment);
            });
          }
        } else if (max !== undefined) {
          // A maximum alone (the interface gives none; docs/design.md does): at it, and one past it.
          it(`accepts length ${max} and rejects length ${max + 1}`, () => {
            expectValid(schema, withPath(fixture(), row.path, make(max)));
            expect(make(max)).toHaveLength(max);
            expectError(schema, withPath(fixture(), row.path, make(max + 1)), row.path, `must be at most ${max} characters`);
          });
        }
        for (const value of row.ok ?? []) {
          it(`accepts ${JSON.stringify(value)}`, () => {
            expectValid(schema, withPath(fixture(), row.path, value));
          });
        }
        for (const [value, fragment] of row.bad ?? []) {
          it(`rejects ${JSON.stringify(value)}: "${fragment}"`, () => {
            expectError(schema, withPath(fixture(), row.path, value), row.path, fragment);
          });
        }
      });
    }
  });
}

/**
 * Rows shared by the create bodies. Every fixture's currency has two decimals (EUR, CAD): the
 * amounts below are judged against that (money-rule.test.ts covers other currencies).
 */
export const AMOUNT_ROW: Row = {
  path: 'payment.amount',
  required: true,
  ok: [0.01, 10, 1e9, 1e21, 999999999999999, 9999999999999.99, '10.50', '10.500', '0.5', '1', '123456789012345678901234567890.12'],
  bad: [
    [0.001, 'has 2 decimals; got 3'],
    [1e-7, 'has 2 decimals; got 7'],
    [0.1 + 0.2, 'has 2 decimals; got 17'],
    ['10.505', 'has 2 decimals; got 3'],
    ['0.0000001', 'has 2 decimals; got 7'],
    // 17 significant digits: what 12345678901234567 becomes once read as a double.
    [12345678901234568, 'has 17 significant digits'],
    [-0, 'must be greater than 0'],
    [0, 'must be greater than 0'],
    [-1, 'must be greater than 0'],
    ['0', 'decimal string'],
    ['0.00', 'decimal string'],
    ['-1', 'decimal string'],
    ['1e3', 'decimal string'],
    ['10,50', 'decimal string'],
    ['01.5', 'decimal string'],
    ['1.', 'decimal string'],
    [true, 'must be a positive number, or a decimal string'],
    [null, 'must be a positive number, or a decimal string'],
  ],
};

const NOT_ISO = 'must be an ISO 4217 currency code in use, in capitals';

export const CURRENCY_BAD = [
  ['eur', NOT_ISO],
  ['EURO', NOT_ISO],
  ['E1R', NOT_ISO],
  ['ABC', NOT_ISO],
  // No minor unit (gold, the testing code), withdrawn (Croatia's kuna), not a key of its own.
  ['XAU', NOT_ISO],
  ['XTS', NOT_ISO],
  ['HRK', NOT_ISO],
  ['constructor', NOT_ISO],
  [978, 'must be a string'],
] as const;

/**
 * A valid email address of exactly `n` characters (6 to 255): `j@`, then 63-letter labels and a
 * last label `ex...`, as the length bounds of the interface need one at each end.
 */
export function emailOfLength(n: number): string {
  let domain = 'ex';
  while (domain.length < n - 2) {
    const room = n - 2 - domain.length - 1; // letters left for a new label before its dot
    domain = room >= 1 ? `${'a'.repeat(Math.min(63, room))}.${domain}` : `${domain}x`;
  }
  return `j@${domain}`;
}

/** The email row of the create bodies: the interface's bounds, and the pragmatic address rule. */
export const EMAIL_ROW = (path: string): Row => ({
  path,
  required: true,
  min: 6,
  max: 255,
  make: emailOfLength,
  ok: ['jane@shop.example', 'j.doe+tag@mail.shop.co.uk', "o'brien@example.ie", 'zoë@bücher.example'],
  bad: [
    ['not-an-email', 'it has no @'],
    ['jane@shop', 'the domain has no dot'],
    ['Jane <jane@shop.example>', 'it contains white space'],
    ['jane@shop.example ', 'it contains white space'],
  ],
});

export const PHONE_CODE_ROW = (path: string): Row => ({
  path,
  required: true,
  min: 2,
  max: 4,
  make: (n) => `+${'1'.repeat(n - 1)}`,
  bad: [
    ['44', 'plus sign followed by digits'],
    ['+4a', 'plus sign followed by digits'],
    ['++1', 'plus sign followed by digits'],
  ],
});

export const WEBHOOK_OK = [
  'https://shop.example/hooks/pay',
  'HTTPS://shop.example:8443/h?x=1',
  'http://localhost:3000/hooks',
  'http://127.0.0.1/hooks',
  'http://api.localhost/hooks',
  'http://[::1]:8080/',
];

export const WEBHOOK_BAD = [
  ['http://shop.example/hooks', 'must be an absolute https URL'],
  ['http://localhost.evil.example/', 'must be an absolute https URL'],
  ['ftp://shop.example/', 'must be an absolute https URL'],
  ['/hooks/pay', 'must be an absolute https URL'],
  ['https://', 'must be an absolute https URL'],
  ['https://shop.example/a b', 'must be an absolute https URL'],
] as const;

/**
 * The longest URL a body may carry (docs/design.md: the interface sets no maximum), and URLs of an
 * exact length: https on a public name for any URL field, or a webhook address.
 */
export const URL_MAX = 2048;
export const urlOfLength = (n: number): string => `https://shop.example/${'a'.repeat(n - 21)}`;

/** Rows of the URL fields: the shapes, and at most URL_MAX characters. */
export const URL_ROW = (path: string, required: boolean): Row => ({
  path,
  required,
  max: URL_MAX,
  make: urlOfLength,
  ok: URL_OK,
  bad: URL_BAD,
});
export const WEBHOOK_ROW = (path: string, required: boolean): Row => ({
  path,
  required,
  max: URL_MAX,
  make: urlOfLength,
  ok: WEBHOOK_OK,
  bad: WEBHOOK_BAD,
});

export const URL_OK = ['https://shop.example/pay/fail', 'http://shop.example/x?y=1#z', 'https://user@shop.example:8080/'];

export const URL_BAD = [
  ['shop.example/pay', 'must be an absolute http or https URL'],
  ['javascript:alert(1)', 'must be an absolute http or https URL'],
  ['https:// shop.example/', 'must be an absolute http or https URL'],
  ['mailto:a@b.example', 'must be an absolute http or https URL'],
  [42, 'must be a string'],
] as const;
