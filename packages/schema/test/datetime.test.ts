// Datetimes of responses, the helper reading them as UTC, and the format checkers.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { customFormats, DateOfBirth, isCalendarDate, parseDateTime } from '../src/index.js';
import { expectError, expectValid } from './helpers.js';

describe('parseDateTime', () => {
  it('reads a service datetime as UTC', () => {
    expect(parseDateTime('2024-05-01T12:30:45.123456').toISOString()).toBe('2024-05-01T12:30:45.123Z');
    expect(parseDateTime('2024-05-01T12:30:45.1').toISOString()).toBe('2024-05-01T12:30:45.100Z');
    expect(parseDateTime('2024-05-01T12:30:45').toISOString()).toBe('2024-05-01T12:30:45.000Z');
    expect(parseDateTime('0099-01-01T00:00:00.0').getUTCFullYear()).toBe(99);
  });
  it('honours an explicit zone if the service ever sends one', () => {
    expect(parseDateTime('2024-05-01T12:30:45.000Z').toISOString()).toBe('2024-05-01T12:30:45.000Z');
    expect(parseDateTime('2024-05-01T12:30:45.000+02:00').toISOString()).toBe('2024-05-01T10:30:45.000Z');
  });
  it('rejects impossible or malformed datetimes', () => {
    for (const text of ['2001-02-29T00:00:00.0', '2024-05-01T24:00:00.0', '2024-05-01 12:30:45', 'now', '']) {
      expect(() => parseDateTime(text)).toThrow(RangeError);
    }
    expect(() => parseDateTime(42 as never)).toThrow(RangeError);
  });
  it('agrees with an independent reading through Date setters, on any text of the shape', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const text = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        two(13),
        two(32),
        two(25),
        two(60),
        two(60),
        fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/)),
        fc.oneof(fc.constant(''), fc.constant('Z'), fc.stringMatching(/^[+-][0-9]{2}:[0-9]{2}$/)),
      )
      .map(([y, mo, d, h, mi, s, fraction, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${zone}`);
    fc.assert(
      fc.property(text, (t) => {
        const expected = readWithDateSetters(t);
        if (expected === undefined) expect(() => parseDateTime(t), t).toThrow('not a real date and time');
        else expect(parseDateTime(t).getTime(), t).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

/** The oracle: epoch ms of a datetime of the right shape read with Date's own calendar, or undefined when impossible. */
function readWithDateSetters(text: string): number | undefined {
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(text)!;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real || hour > 23 || minute > 59 || second > 59) return undefined;
  const offset = zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return date.getTime() - offset * 60_000;
}

describe('date of birth', () => {
  it('is a calendar date (leap years)', () => {
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-00-10')).toBe(false);
    expect(isCalendarDate('2024-01-00')).toBe(false);
    expect(isCalendarDate('２０２４-01-01')).toBe(false);
  });
  it('is not in the future, with today taken where the date starts first', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2024-06-15T12:00:00Z'));
      expectValid(DateOfBirth, '2024-06-15');
      // Already 16 June in Kiribati (UTC+14) at 12:00 UTC.
      expectValid(DateOfBirth, '2024-06-16');
      expectError(DateOfBirth, '2024-06-17', '', 'must not be in the future');
      vi.setSystemTime(new Date('2024-06-15T09:00:00Z'));
      expectError(DateOfBirth, '2024-06-16', '', 'must not be in the future');
    } finally {
      vi.useRealTimers();
    }
  });
  it('custom formats are exported for other validators', () => {
    expect(Object.keys(customFormats).sort()).toEqual(['pay-email', 'pay-luhn', 'pay-not-in-future']);
    expect(customFormats['pay-luhn']('4242424242424242')).toBe(true);
  });
});
