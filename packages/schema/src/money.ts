/**
 * The money object (interface: "Money object" table: `amount`, `currency`).
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { ERROR_MESSAGE } from './annotations.js';

/**
 * A positive decimal written in digits: no sign, no exponent, no leading zeros, at least one
 * non-zero digit. The lookahead only scans forward once, so the check stays linear.
 */
export const POSITIVE_DECIMAL_PATTERN = '^(?=[0-9.]*[1-9])(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$';

/** Three capital letters. The interface does not list currencies; docs/design.md keeps them open. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

const AMOUNT_MESSAGE = 'must be a positive number, or a decimal string such as "10.50"';

/**
 * `payment.amount` in requests. The interface types it `number` ("Decimal amount"). docs/design.md:
 * JSON numbers on the wire, and callers may give a decimal string instead, which the client
 * writes into the body digit for digit (never through binary floating point). This schema only
 * accepts both forms; writing the string is the client's job.
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

/** `payment.currency`: three capital letters (the interface does not list the values). */
export const Currency = Type.String({
  pattern: CURRENCY_PATTERN,
  description: 'Currency code: three capital letters (ISO 4217 style, for example EUR).',
  [ERROR_MESSAGE]: 'must be three capital letters, such as EUR',
});

/** A currency code: three capital letters. */
export type Currency = Static<typeof Currency>;

/**
 * The money object of requests: `{ amount, currency }`, both required (create-payin v2 and
 * create-payout tables: `payment.amount` and `payment.currency` are starred). Strict: an unknown
 * property is an error.
 */
export const Money = Type.Object(
  { amount: Amount, currency: Currency },
  { additionalProperties: false, title: 'Money', description: 'Amount and currency of a transaction.' },
);

/** The money object of requests. */
export type Money = Static<typeof Money>;

/**
 * The money object of the legacy create-payin body. The interface: "The sample body also carries
 * payment.currency ... Whether they are required in the legacy body: not shown"; docs/design.md makes
 * `currency` optional here.
 */
export const MoneyV1 = Type.Object(
  { amount: Amount, currency: Type.Optional(Currency) },
  {
    additionalProperties: false,
    title: 'MoneyV1',
    description: 'Amount and currency of a legacy create-payin body; the currency may be omitted.',
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
