import { describe, expect, it } from 'vitest';
import {
  canonicalDecimal,
  FIRST_STATUS,
  isTerminalStatus,
  isTransactionKind,
  KNOWN_STATUSES,
  sameDecimal,
  TERMINAL_STATUSES,
  TRANSACTION_KINDS,
} from '../src/index.js';

// The interface's words, written here by hand: `new` on create, `executed` documented, and the two
// this toolkit adds (docs/design.md).
describe('statuses', () => {
  it('names the first status and the three final ones', () => {
    expect(FIRST_STATUS).toBe('new');
    expect([...TERMINAL_STATUSES].sort()).toEqual(['executed', 'expired', 'failed']);
    expect([...KNOWN_STATUSES].sort()).toEqual(['executed', 'expired', 'failed', 'new']);
  });

  it.each([
    ['executed', true],
    ['failed', true],
    ['expired', true],
    ['new', false],
    ['pending', false],
    ['EXECUTED', false],
    ['', false],
    [null, false],
    [undefined, false],
    [1, false],
  ])('isTerminalStatus(%j) is %s', (status, terminal) => {
    expect(isTerminalStatus(status)).toBe(terminal);
  });

  it.each([
    ['payin', true],
    ['payout', true],
    ['Payin', false],
    ['refund', false],
    [null, false],
  ])('isTransactionKind(%j) is %s', (kind, known) => {
    expect(isTransactionKind(kind)).toBe(known);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(TERMINAL_STATUSES)).toBe(true);
    expect(Object.isFrozen(KNOWN_STATUSES)).toBe(true);
    expect(Object.isFrozen(TRANSACTION_KINDS)).toBe(true);
  });
});

describe('canonicalDecimal', () => {
  it.each([
    ['10', '10'],
    ['10.10', '10.1'],
    ['010.500', '10.5'],
    ['0.000', '0'],
    ['0', '0'],
    ['1e-7', '0.0000001'],
    ['1.5E3', '1500'],
    ['12.345e1', '123.45'],
    ['1e21', '1000000000000000000000'],
    ['123456789012345678901234567890.10', '123456789012345678901234567890.1'],
    ['-1', '-1'],
    ['ten', 'ten'],
    ['1.', '1.'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalDecimal(text)).toBe(canonical);
  });

  it('agrees with the number JSON writes for every short decimal (checked through Number)', () => {
    for (let i = 0; i < 2000; i += 1) {
      const n = Math.round(Math.random() * 1e6) / 10 ** Math.floor(Math.random() * 8);
      expect(Number(canonicalDecimal(String(n)))).toBe(n);
      expect(canonicalDecimal(n.toFixed(9))).toBe(canonicalDecimal(String(n)));
    }
  });

  it('compares amounts by value, not spelling', () => {
    expect(sameDecimal('10.1', '10.10')).toBe(true);
    expect(sameDecimal('1e1', '10')).toBe(true);
    expect(sameDecimal('10.01', '10.1')).toBe(false);
    expect(sameDecimal('100', '10')).toBe(false);
  });
});
