import { describe, expect, it } from 'vitest';
import { durationMs } from '../src/duration.js';

// Expected values worked out by hand from the units (1 s = 1,000 ms, 1 m = 60 s, 1 h = 60 m, 1 d = 24 h).
const OK: [string | number, number][] = [
  [0, 0],
  [1500, 1500],
  [1.4, 1],
  ['250ms', 250],
  ['90s', 90_000],
  ['15m', 900_000],
  ['2h', 7_200_000],
  ['1h30m', 5_400_000],
  ['1d2h', 93_600_000],
  ['1.5s', 1500],
  ['1m1s1ms', 61_001],
];

const BAD: [unknown, RegExp][] = [
  [-1, /non-negative/],
  [Number.NaN, /finite/],
  [Number.POSITIVE_INFINITY, /finite/],
  ['', /like '90s'/],
  ['15', /not understood from position 0/],
  ['15 m', /not understood from position 0/],
  ['1h 30m', /not understood from position 2/],
  ['2w', /not understood from position 0/],
  [null, /milliseconds or a string/],
  [{}, /milliseconds or a string/],
];

describe('durationMs', () => {
  it.each(OK)('%s is %d ms', (input, ms) => {
    expect(durationMs(input)).toBe(ms);
  });
  it.each(BAD)('%s is refused with a message saying why', (input, message) => {
    expect(() => durationMs(input as string, 'advance')).toThrow(TypeError);
    expect(() => durationMs(input as string, 'advance')).toThrow(message);
    expect(() => durationMs(input as string, 'advance')).toThrow(/^advance /);
  });
});
