/**
 * Datetimes of responses: "ISO 8601 with fractional seconds, no zone offset", read as UTC.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { ERROR_MESSAGE } from './annotations.js';
import { daysInMonth, digitsAt } from './calendar.js';

// The fraction is optional and an offset tolerated: serializers commonly drop a zero fraction
// (Python's isoformat() prints no ".000000" when microseconds are 0) and a future service version
// may add "Z"; responses are lenient so neither breaks a merchant.

/** Pattern of a service datetime, for example `2024-05-01T12:30:45.123456`. */
export const SERVICE_DATETIME_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?$';

// parseDateTime checks the shape once with the pattern, then reads each field at its fixed place.
const DATETIME = new RegExp(SERVICE_DATETIME_PATTERN);

// Milliseconds in 400 Gregorian years: the calendar repeats after that many.
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/** A datetime as the service writes it: ISO 8601, fractional seconds, no zone offset (UTC). */
export const ServiceDateTime = Type.String({
  pattern: SERVICE_DATETIME_PATTERN,
  description: 'ISO 8601 datetime with fractional seconds and no zone offset, in UTC.',
  [ERROR_MESSAGE]: 'must be an ISO 8601 datetime such as 2024-05-01T12:30:45.123456',
});

/** A datetime string as the service writes it. */
export type ServiceDateTime = Static<typeof ServiceDateTime>;

/**
 * Reads a service datetime as a UTC `Date`. The interface gives no offset; the service's clock is
 * taken to be UTC. Digits beyond milliseconds are truncated (a `Date` holds milliseconds). An
 * explicit `Z` or offset, if ever sent, is honoured.
 *
 * @throws RangeError when the text is not such a datetime or names an impossible date or time.
 */
export function parseDateTime(text: string): Date {
  if (typeof text !== 'string' || !DATETIME.test(text)) {
    throw new RangeError('not an ISO 8601 datetime such as 2024-05-01T12:30:45.123456');
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError('not a real date and time');
  }
  // The first three digits of the fraction are the milliseconds; the rest is truncated.
  let ms = 0;
  let at = 19;
  if (text.charCodeAt(at) === 46 /* . */) {
    for (let scale = 100; ++at < text.length; scale /= 10) {
      const digit = text.charCodeAt(at) - 48;
      if (!(digit >= 0 && digit <= 9)) break;
      if (scale >= 1) ms += digit * scale;
    }
  }
  // Date.UTC reads years 0-99 as 1900-1999, so those are read 400 years later and moved back.
  let time =
    year < 100
      ? Date.UTC(year + 400, month - 1, day, hour, minute, second, ms) - FOUR_CENTURIES_MS
      : Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (at < text.length && text.charCodeAt(at) !== 90 /* Z */) {
    const sign = text.charCodeAt(at) === 45 /* - */ ? -1 : 1;
    time -= sign * (digitsAt(text, at + 1, 2) * 60 + digitsAt(text, at + 4, 2)) * 60_000;
  }
  return new Date(time);
}
