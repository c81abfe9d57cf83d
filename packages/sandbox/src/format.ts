// How the pages write amounts for people: an amount with its currency's decimals, worked on decimal
// text (never through binary floating point); and how a service datetime is read. Times are written
// by format-time.ts.
import { minorUnitOf } from '@pay/schema/currencies';

/**
 * How many decimals a currency's amounts are written with: its ISO 4217 minor unit from
 * @pay/schema's list; 2 for a code outside it (only a restored state can hold one).
 */
export function minorUnits(currency: string): number {
  return minorUnitOf(currency) ?? 2;
}

/**
 * The decimal text of an amount: a string as it was sent; a number as JavaScript writes it (the
 * shortest text that reads back as the same number), with an exponent (`1e-7`, `1e+21`) written
 * out in digits by moving the decimal point in the text.
 */
export function decimalText(amount: number | string): string {
  if (typeof amount === 'string') return amount;
  const text = String(amount);
  const m = /^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (m === null) return text;
  const [, sign, lead, rest = '', exponent] = m;
  const digits = lead! + rest;
  const point = 1 + Number(exponent); // where the decimal point falls in `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * An amount for people: `12.50 EUR`, `1000 JPY`, `1.500 KWD`. Decimals are padded to the
 * currency's minor units but never cut or rounded: the sandbox shows what was sent, so `10.005 EUR`
 * stays `10.005 EUR`. Text that is not plain decimal digits is shown as it is.
 */
export function formatAmount(amount: number | string, currency: string): string {
  const text = decimalText(amount);
  const m = /^(-?[0-9]+)(?:\.([0-9]*))?$/.exec(text);
  if (m === null) return `${text} ${currency}`;
  const fraction = (m[2] ?? '').padEnd(minorUnits(currency), '0');
  return `${m[1]}${fraction === '' ? '' : `.${fraction}`} ${currency}`;
}

/** Milliseconds of a service datetime (`2025-05-01T12:30:45.123000`, UTC without offset); NaN if not one. */
export function serviceMs(datetime: string): number {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$/.test(datetime)
    ? Date.parse(`${datetime.slice(0, 23)}Z`)
    : Number.NaN;
}
