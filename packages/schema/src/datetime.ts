/**
 * Datetimes of responses: "ISO 8601 with fractional seconds, no zone offset", read as UTC.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { ERROR_MESSAGE } from './annotations.js';

// The fraction is optional and an offset tolerated: serializers commonly drop a zero fraction
// (Python's isoformat() prints no ".000000" when microseconds are 0) and a future service version
// may add "Z"; responses are lenient so neither breaks a merchant.
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

/** Pattern of a service datetime, for example `2024-05-01T12:30:45.123456`. */
export const SERVICE_DATETIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?$';

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
  const match = typeof text === 'string' ? DATETIME.exec(text) : null;
  if (match === null) throw new RangeError('not an ISO 8601 datetime such as 2024-05-01T12:30:45.123456');
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  // Dates roll 2001-02-29 over to March 1st; a round trip tells an impossible date apart.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new RangeError('not a real date and time');
  }
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const offsetMinutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6));
    return new Date(date.getTime() - sign * offsetMinutes * 60_000);
  }
  return date;
}
