/**
 * The `format` values this package gives meaning to.
 *
 * JSON Schema cannot say "a real calendar date", "not in the future" or "passes the Luhn check"
 * with `pattern` alone. Those rules are written as `format` keywords so the schemas stay plain
 * data: `date`, `ipv4` and `ipv6` are standard JSON Schema formats (any validator with format
 * support checks them the same way); `pay-not-in-future`, `pay-luhn` and `pay-email` are this
 * package's own and are described in the OpenAPI document. (`pay-email` is not the standard
 * `email`: that one is RFC 5321's full mailbox syntax; this one is a stricter, pragmatic rule.) Other validators can be taught them with
 * {@link customFormats} (for example `ajv.addFormat(name, check)`).
 *
 * Checkers are registered nowhere globally: the validator of this package looks them up here.
 *
 * @module
 */
import { daysInMonth, digitsAt } from './calendar.js';
import { emailProblem } from './email.js';

/** A format this package checks: a predicate, and the message shown when it fails. */
export interface FormatDefinition {
  /** True when the string satisfies the format. */
  readonly check: (value: string) => boolean;
  /**
   * The message for a failing value. It receives the value only so the Luhn message can show the
   * last four digits; no other message repeats the value.
   */
  readonly message: (value: string) => string;
}

/** True for a real calendar date written `yyyy-mm-dd` (RFC 3339 full-date): no 2001-02-29. */
export function isCalendarDate(value: string): boolean {
  // Read by hand rather than with a regular expression: this runs on every create-payin body.
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  return year >= 0 && day >= 1 && day <= daysInMonth(year, month);
}

// "Not in the future" depends on the time zone of the person; a date of birth of "today" in
// Kiribati (UTC+14) is already tomorrow in UTC. The limit is therefore the latest calendar date
// anywhere on Earth, so a genuine date is never rejected because of where the server runs.
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;
let limitComputedAt = Number.NaN;
let limitDate = '';

/** The latest calendar date currently in effect anywhere on Earth, `yyyy-mm-dd`. */
function latestCalendarDateOnEarth(now: number = Date.now()): string {
  // Cached for a second: the check runs on every body, and Date formatting is the costly part.
  if (!(now >= limitComputedAt && now - limitComputedAt < 1000)) {
    limitDate = new Date(now + LATEST_OFFSET_MS).toISOString().slice(0, 10);
    limitComputedAt = now;
  }
  return limitDate;
}

/**
 * True unless the value is a calendar date later than today (today taken in the time zone that is
 * furthest ahead). A value that is not a calendar date passes: the `date` format reports it.
 */
function isNotInFuture(value: string): boolean {
  // yyyy-mm-dd strings of four-digit years compare like the dates they name; anything that is
  // not a calendar date passes here because the `date` format already reports it.
  return value <= latestCalendarDateOnEarth() || !isCalendarDate(value);
}

/**
 * True when a string of digits passes the Luhn (mod 10) check. A value that is not all digits
 * passes: the `pattern` of the card number reports it, so no two messages say the same thing.
 */
export function passesLuhn(value: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = value.length - 1; i >= 0; i -= 1) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return true;
    if (double) {
      const twice = digit * 2;
      sum += twice > 9 ? twice - 9 : twice;
    } else {
      sum += digit;
    }
    double = !double;
  }
  return value.length > 0 && sum % 10 === 0;
}

/**
 * Masks a card number for messages: `**** 4242`. Only the last four characters are kept, and
 * only when the value is long enough that four characters do not reveal most of it.
 */
export function maskPan(value: string): string {
  return value.length >= 8 ? `**** ${value.slice(-4)}` : '****';
}

/** True for an email address by this package's pragmatic rule (see email.ts). */
function isEmailAddress(value: string): boolean {
  return emailProblem(value) === undefined;
}

/** True for a dotted-quad IPv4 address, decimal parts 0-255 without leading zeros. */
function isIPv4(value: string): boolean {
  if (value.length < 7 || value.length > 15) return false;
  let parts = 0;
  let part = 0;
  let digits = 0;
  for (let i = 0; i <= value.length; i += 1) {
    const code = i === value.length ? 46 : value.charCodeAt(i);
    if (code === 46) {
      // "." ends a part: 1 to 3 digits, at most 255, no leading zero.
      if (digits === 0 || part > 255 || (digits > 1 && value.charCodeAt(i - digits) === 48)) return false;
      parts += 1;
      part = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57 && digits < 3) {
      part = part * 10 + (code - 48);
      digits += 1;
    } else {
      return false;
    }
  }
  return parts === 4;
}

/** True for an IPv6 address in RFC 4291 text form (with `::` and an embedded IPv4 tail). */
function isIPv6(value: string): boolean {
  if (value.length < 2 || value.length > 45) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const split = (text: string): string[] => (text === '' ? [] : text.split(':'));
  const head = split(halves[0] ?? '');
  const tail = halves.length === 2 ? split(halves[1] ?? '') : [];
  const compressed = halves.length === 2;
  // An embedded IPv4 address may only be the very last piece of the whole address.
  const lastGroup = compressed ? tail : head;
  let units = 0;
  const groups = [...head, ...tail];
  for (let i = 0; i < groups.length; i += 1) {
    const group = groups[i] ?? '';
    const isLast = i === groups.length - 1 && lastGroup.length > 0;
    if (isLast && group.includes('.')) {
      if (!isIPv4(group)) return false;
      units += 2;
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(group)) {
      units += 1;
    } else {
      return false;
    }
  }
  return compressed ? units <= 7 : units === 8;
}

/**
 * Every format this package checks, by name. Formats not listed here (for example `uri` or
 * `date-time` written by someone else) are annotations, as JSON Schema 2020-12 says by default.
 */
export const FORMATS: Readonly<Record<string, FormatDefinition>> = Object.freeze({
  date: {
    check: isCalendarDate,
    message: () => 'must be a real calendar date in yyyy-mm-dd form',
  },
  'pay-not-in-future': {
    check: isNotInFuture,
    message: () => 'must not be in the future',
  },
  'pay-luhn': {
    check: passesLuhn,
    // The only message that refers to the value: masked to the last four digits.
    message: (value: string) => `must be a valid card number (${maskPan(value)} fails the Luhn check)`,
  },
  'pay-email': {
    check: isEmailAddress,
    // Says what is wrong without repeating the address (it is personal data).
    message: (value: string) => `must be an email address such as jane@shop.example: ${emailProblem(value) ?? 'it is not one'}`,
  },
  ipv4: {
    check: isIPv4,
    message: () => 'must be an IPv4 address',
  },
  ipv6: {
    check: isIPv6,
    message: () => 'must be an IPv6 address',
  },
});

/**
 * The formats of this package that are not standard JSON Schema formats, as plain predicates, so
 * another validator can check the exported JSON Schema the same way:
 * `for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, check)`.
 */
export const customFormats: Readonly<Record<'pay-not-in-future' | 'pay-luhn' | 'pay-email', (value: string) => boolean>> = Object.freeze({
  'pay-not-in-future': isNotInFuture,
  'pay-luhn': passesLuhn,
  'pay-email': isEmailAddress,
});
