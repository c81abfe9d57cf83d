import type { TSchema } from 'typebox';
import { describe, it } from 'vitest';
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

/** Rows shared by the create bodies. */
export const AMOUNT_ROW: Row = {
  path: 'payment.amount',
  required: true,
  ok: [0.01, 10, 1e9, '10.50', '0.5', '1', '123456789012345678901234567890.123456789'],
  bad: [
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

export const CURRENCY_BAD = [
  ['eur', 'three capital letters'],
  ['EURO', 'three capital letters'],
  ['E1R', 'three capital letters'],
  [978, 'must be a string'],
] as const;

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

export const URL_OK = ['https://shop.example/pay/fail', 'http://shop.example/x?y=1#z', 'https://user@shop.example:8080/'];

export const URL_BAD = [
  ['shop.example/pay', 'must be an absolute http or https URL'],
  ['javascript:alert(1)', 'must be an absolute http or https URL'],
  ['https:// shop.example/', 'must be an absolute http or https URL'],
  ['mailto:a@b.example', 'must be an absolute http or https URL'],
  [42, 'must be a string'],
] as const;
