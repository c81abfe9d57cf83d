// Durations as a test writes them: 90_000, '90s', '15m', '1h30m', '2d'.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** A duration: milliseconds as a number, or a string of parts like `'1h30m'` (ms, s, m, h, d). */
export type Duration = number | string;

/**
 * The milliseconds of a duration, rounded to a whole number.
 * @throws TypeError saying where a string stops being a duration, or for a negative or non-finite number.
 */
export function durationMs(value: Duration, name = 'duration'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a finite, non-negative number of milliseconds`);
    return Math.round(value);
  }
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${name} must be milliseconds or a string like '90s', '15m' or '1h30m'`);
  }
  let ms = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < value.length) {
    const at = PART.lastIndex;
    const part = PART.exec(value);
    if (part === null) {
      throw new TypeError(`${name} must be parts like '90s', '15m' or '1h30m' (units ms, s, m, h, d); not understood from position ${at}`);
    }
    ms += Number(part[1]) * (UNIT_MS[part[2] as string] as number);
  }
  return Math.round(ms);
}
