/**
 * The money object (interface: "Money object" table: `amount`, `currency`).
 *
 * Requests refuse money mistakes: a currency that is not an ISO 4217 code in use
 * (`CURRENCY_MINOR_UNITS`), an amount that is not positive, and an amount with more decimals than
 * its currency has (the `x-pay-money` keyword, money-rule.ts). Responses stay lenient.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { ERROR_MESSAGE } from './annotations.js';
import { CURRENCY_CODES } from './currencies.js';
import { POSITIVE_DECIMAL_PATTERN } from './decimals.js';
import { MONEY_KEYWORD } from './money-rule.js';

export { POSITIVE_DECIMAL_PATTERN } from './decimals.js';

const AMOUNT_MESSAGE = 'must be a positive number, or a decimal string such as "10.50"';

/**
 * `payment.amount` in requests. The interface types it `number` ("Decimal amount"). docs/design.md:
 * JSON numbers on the wire, and callers may give a decimal string instead, which the client
 * writes into the body digit for digit (never through binary floating point). This schema only
 * accepts both forms; writing the string is the client's job. How many decimals it may have
 * depends on the currency: {@link Money} checks that.
 */
export const Amount = Type.Union(
  [
    Type.Number({ exclusiveMinimum: 0, description: 'A positive, finite JSON number.' }),
    Type.String({
      pattern: POSITIVE_DECIMAL_PATTERN,
      description: 'A positive decimal written digit for digit, for example "10.50".',
      [ERROR_MESSAGE]: 'must be a positive decimal string such as "10.50" (digits, one optional dot)',
    }),
  ],
  { description: 'Decimal amount of the transaction.', [ERROR_MESSAGE]: AMOUNT_MESSAGE },
);

/** A request amount: a positive number, or a positive decimal string. */
export type Amount = Static<typeof Amount>;

/**
 * `payment.currency` in requests: an ISO 4217 code in use, in capitals (the interface does not list
 * the values; docs/design.md decides on the real list, {@link CURRENCY_CODES}). The static type
 * stays `string`: codes usually come from data (a price list, an order row), and a narrower type
 * would force a cast at every call without catching anything this check does not.
 */
export const Currency = Type.String({
  enum: [...CURRENCY_CODES],
  description: 'ISO 4217 currency code in use, in capitals, for example EUR.',
  [ERROR_MESSAGE]: 'must be an ISO 4217 currency code in use, in capitals, such as EUR, USD or JPY',
});

/** A request's currency code (checked against the ISO 4217 list). */
export type Currency = Static<typeof Currency>;

/** The money keyword of a money object whose properties are `amount` and `currency`. */
const MONEY_RULE = { [MONEY_KEYWORD]: { amount: 'amount', currency: 'currency' } };

const DECIMALS_RULE =
  'The amount has no more decimals than the currency has under ISO 4217 (2 for EUR, 0 for JPY, 3 for BHD), and a JSON ' +
  'number amount at most 15 significant digits (keyword x-pay-money).';

/**
 * The money object of requests: `{ amount, currency }`, both required (create-payin v2 and
 * create-payout tables: `payment.amount` and `payment.currency` are starred). Strict: an unknown
 * property is an error. The amount may have no more decimals than the currency's ISO 4217 minor
 * unit ("EUR has 2 decimals; got 3", at `amount`); a number is judged by the shortest text that
 * reads back as it (what `JSON.stringify` prints, so `1e-7` has 7 decimals), a decimal string by its
 * value ("10.50" has 1); a number may carry at most 15 significant digits.
 */
export const Money = Type.Object(
  { amount: Amount, currency: Currency },
  {
    additionalProperties: false,
    title: 'Money',
    description: `Amount and currency of a transaction. ${DECIMALS_RULE}`,
    ...MONEY_RULE,
  },
);

/** The money object of requests. */
export type Money = Static<typeof Money>;

/**
 * The money object of the legacy create-payin body. The interface: "The sample body also carries
 * payment.currency ... Whether they are required in the legacy body: not shown"; docs/design.md makes
 * `currency` optional here. The rules of {@link Money} apply; without a currency, the decimals
 * cannot be judged and only the 15 significant digits of a number are.
 */
export const MoneyV1 = Type.Object(
  { amount: Amount, currency: Type.Optional(Currency) },
  {
    additionalProperties: false,
    title: 'MoneyV1',
    description: `Amount and currency of a legacy create-payin body; the currency may be omitted. ${DECIMALS_RULE}`,
    ...MONEY_RULE,
  },
);

/** The money object of the legacy create-payin body. */
export type MoneyV1 = Static<typeof MoneyV1>;

/**
 * The money object as the service sends it (`payment` and `fee` of responses). Lenient, as every
 * response: unknown properties pass, any currency string passes (a currency the merchant has not
 * seen must not break parsing), and a zero or negative amount passes (a fee may be zero).
 */
export const ResponseMoney = Type.Object(
  {
    amount: Type.Union([Type.Number(), Type.String()], {
      [ERROR_MESSAGE]: 'must be a number (or a decimal string)',
    }),
    currency: Type.String(),
  },
  { title: 'ResponseMoney', description: 'Money object in a response from the service.' },
);

/** The money object as the service sends it. */
export type ResponseMoney = Static<typeof ResponseMoney>;
