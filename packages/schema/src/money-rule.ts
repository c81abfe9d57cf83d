// The `x-pay-money` keyword: the one rule of a money object that ties two fields together. JSON
// Schema can say "a positive number" and "one of these codes", but not "no more decimals than
// this currency has", so that rule is a keyword of this package, written in the schema as plain
// data (`{"x-pay-money": {"amount": "amount", "currency": "currency"}}`: the names of the two
// properties) and run by both of this package's validators; `customKeywords` teaches it to others.
//
// It refuses, and reports at the amount's path:
// - an amount with more decimals than the currency's ISO 4217 minor unit: "EUR has 2 decimals;
//   got 3" (numbers judged by their shortest round-trip text, decimal strings by their value; see
//   decimals.ts);
// - a JSON number amount with more than 15 significant digits, whatever the currency: it may
//   already have been rounded on its way in, and a decimal string carries it exactly.
// It stays silent when the amount or the currency breaks its own rule (not positive, not a
// decimal string, not a known code): that rule reports it, and no two messages say one thing.
import { minorUnitOf } from './currencies.js';
import { MAX_NUMBER_DIGITS, numberDigits, POSITIVE_DECIMAL_PATTERN, stringDecimals } from './decimals.js';

/** The name of the money keyword, as it appears in schemas. */
export const MONEY_KEYWORD = 'x-pay-money';

/** The value of the money keyword: which properties hold the amount and the currency. */
export interface MoneyKeyword {
  readonly amount: string;
  readonly currency: string;
}

/** What a keyword reports: a message, at a property of the value (`key`) or at the value itself. */
interface KeywordFailure {
  readonly key?: string;
  readonly message: string;
}

/** The check of one occurrence of a keyword: a failure, or undefined when the value passes. */
export type KeywordCheck = (value: unknown) => KeywordFailure | undefined;

const DECIMAL = new RegExp(POSITIVE_DECIMAL_PATTERN);
// 10 to the power of each minor unit (all exact as doubles).
const SCALE = [1, 10, 100, 1000, 10000];

/**
 * A quick yes for the common number amount (`10.5` EUR): when amount × 10^units is a whole number
 * K below 10^15 and K / 10^units reads back as the amount, the decimal K / 10^units (at most `units`
 * decimals, at most 15 digits) is a text of the amount, so its shortest text is no longer. Anything
 * else is decided by reading the shortest text.
 */
function fitsQuickly(amount: number, units: number): boolean {
  const scale = SCALE[units] as number;
  const whole = amount * scale;
  return Number.isInteger(whole) && whole < 1e15 && whole / scale === amount;
}

const hasOwn = Object.prototype.hasOwnProperty;

function decimalsMessage(currency: string, units: number, got: number): string {
  return `${currency} has ${units === 0 ? 'no decimals' : `${units} decimals`}; got ${got}`;
}

function own(object: object, key: string): unknown {
  const value = (object as Record<string, unknown>)[key];
  return value !== undefined && hasOwn.call(object, key) ? value : undefined;
}

/**
 * The check of a money keyword whose value names the two properties.
 *
 * @throws TypeError when the value is not `{ amount: <name>, currency: <name> }` (when the validator
 *   is made, never while validating).
 */
export function moneyCheck(spec: unknown): KeywordCheck {
  const names = spec as Partial<MoneyKeyword> | null;
  if (
    typeof names !== 'object' ||
    names === null ||
    typeof names.amount !== 'string' ||
    typeof names.currency !== 'string' ||
    Object.keys(names).length !== 2
  ) {
    throw new TypeError(`schema keyword ${MONEY_KEYWORD} must be {"amount": <property name>, "currency": <property name>}`);
  }
  const { amount: amountKey, currency: currencyKey } = names;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const amount = own(value, amountKey);
    const currency = own(value, currencyKey);
    const units = minorUnitOf(currency);
    if (typeof amount === 'number') {
      // Without a currency only the digits count: any amount of up to four decimals fits quickly.
      if (!(amount > 0 && amount < Number.POSITIVE_INFINITY) || fitsQuickly(amount, units ?? 4)) return undefined;
      const { decimals, significant } = numberDigits(amount);
      if (units !== undefined && decimals > units) {
        return { key: amountKey, message: decimalsMessage(currency as string, units, decimals) };
      }
      if (significant > MAX_NUMBER_DIGITS) {
        return {
          key: amountKey,
          message: `has ${significant} significant digits; a JSON number carries at most ${MAX_NUMBER_DIGITS} exactly, so give this amount as a decimal string`,
        };
      }
    } else if (typeof amount === 'string' && units !== undefined) {
      // The pattern is tested only on the way to a refusal: a string that is no decimal at all is
      // the pattern's to report.
      const decimals = stringDecimals(amount);
      if (decimals > units && DECIMAL.test(amount)) {
        return { key: amountKey, message: decimalsMessage(currency as string, units, decimals) };
      }
    }
    return undefined;
  };
}
