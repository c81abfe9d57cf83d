// Reading dates by hand: a fixed-width run of ASCII digits and the length of a month. Datetimes
// of answers and dates of birth in bodies are read on every call, so no regular expression with
// captures, no substring and no Date round trip.

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `length` ASCII digits at `start`, or -1 when one is not a digit. */
export function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Days in `month` (1-12) of `year` in the proleptic Gregorian calendar; 0 for another month. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}
