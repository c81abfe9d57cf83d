// The currency list, checked against what it was not written from: a table of well-known ISO 4217
// exponents, and the CLDR data of the runtime's Intl, with every disagreement written out.
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, CURRENCY_MINOR_UNITS, minorUnitOf } from '../src/index.js';

// ISO 4217 minor units of well-known codes: the majors, every code of exponent 0, 3 and 4, and
// the codes whose CLDR digits differ from ISO's (see INTL_DIGITS).
const WELL_KNOWN: Record<string, number> = {
  EUR: 2,
  USD: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  CNY: 2,
  INR: 2,
  BRL: 2,
  MXN: 2,
  ZAR: 2,
  SEK: 2,
  TWD: 2,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
  HUF: 2,
  IDR: 2,
  COP: 2,
  MGA: 2,
  MRU: 2,
};

// Where CLDR (what Intl formats with) gives other digits than ISO 4217: CLDR records the decimals
// people write, ISO the minor unit of the currency. Checked on Node 20.20 (ICU 78.2, CLDR 48).
const INTL_DIGITS: Record<string, number> = {
  AFN: 0,
  ALL: 0,
  COP: 0,
  HUF: 0,
  IDR: 0,
  IQD: 0,
  IRR: 0,
  KPW: 0,
  LAK: 0,
  LBP: 0,
  MGA: 0,
  MMK: 0,
  PKR: 0,
  SOS: 0,
  SYP: 0,
  YER: 0,
};

// Codes Intl lists that are refused here, and why.
const INTL_ONLY: Record<string, string> = {
  ANG: 'withdrawn, replaced by XCG (2025)',
  BGN: 'withdrawn, Bulgaria adopted the euro (2026)',
  CUC: 'withdrawn (2021)',
  HRK: 'withdrawn, Croatia adopted the euro (2023)',
  SLL: 'withdrawn, replaced by SLE',
  ZWL: 'withdrawn, replaced by ZWG (2024)',
  XDR: 'no minor unit in ISO 4217 (N.A.)',
  XSU: 'no minor unit in ISO 4217 (N.A.)',
};

// Codes accepted here that Intl does not list: the funds codes, and codes newer than some ICU data.
const NOT_IN_INTL = new Set(['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW', 'VED', 'XCG', 'ZWG']);

const intlDigits = (code: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;

describe('CURRENCY_MINOR_UNITS', () => {
  it('is three capital letters per code, in alphabetical order, each once, with a minor unit of 0, 2, 3 or 4', () => {
    expect(CURRENCY_CODES).toEqual(Object.keys(CURRENCY_MINOR_UNITS));
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of CURRENCY_CODES) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(CURRENCY_MINOR_UNITS[code]);
    }
    expect(Object.isFrozen(CURRENCY_MINOR_UNITS)).toBe(true);
    expect(Object.isFrozen(CURRENCY_CODES)).toBe(true);
  });

  it('gives the ISO 4217 minor unit of every well-known code', () => {
    for (const [code, units] of Object.entries(WELL_KNOWN)) expect(minorUnitOf(code), code).toBe(units);
  });

  it('has no code whose minor unit ISO 4217 gives as N.A. (metals, units of account, XTS, XXX)', () => {
    for (const code of ['XAG', 'XAU', 'XPD', 'XPT', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA', 'XTS', 'XXX']) {
      expect(minorUnitOf(code), code).toBeUndefined();
    }
  });

  it('agrees with the digits of Intl (CLDR) wherever CLDR follows ISO 4217; the others are listed', () => {
    for (const code of CURRENCY_CODES) {
      const expected = INTL_DIGITS[code] ?? CURRENCY_MINOR_UNITS[code];
      // A listed disagreement may have been settled in a newer CLDR: either value is then right.
      const allowed = code in INTL_DIGITS ? [expected, CURRENCY_MINOR_UNITS[code]] : [expected];
      if (NOT_IN_INTL.has(code) && !Intl.supportedValuesOf('currency').includes(code)) continue;
      expect(allowed, code).toContain(intlDigits(code));
    }
    // The table lists only real disagreements, each about a code of the list.
    for (const [code, digits] of Object.entries(INTL_DIGITS)) expect(minorUnitOf(code), code).not.toBe(digits);
  });

  it('holds every currency Intl knows, except the listed withdrawn or unit-less ones; and nothing unknown to both', () => {
    const intl = Intl.supportedValuesOf('currency');
    const ours = new Set<string>(CURRENCY_CODES);
    expect(intl.filter((code) => !ours.has(code))).toEqual(intl.filter((code) => code in INTL_ONLY));
    for (const code of CURRENCY_CODES) if (!intl.includes(code)) expect(NOT_IN_INTL.has(code), code).toBe(true);
    for (const code of Object.keys(INTL_ONLY)) expect(minorUnitOf(code), code).toBeUndefined();
  });

  it('minorUnitOf answers only for the codes themselves: no other case, no inherited key, no non-string', () => {
    for (const value of [
      'eur',
      'Eur',
      ' EUR',
      'EUR ',
      'constructor',
      'toString',
      '__proto__',
      'hasOwnProperty',
      '',
      978,
      null,
      undefined,
      {},
    ]) {
      expect(minorUnitOf(value), String(value)).toBeUndefined();
    }
  });
});
