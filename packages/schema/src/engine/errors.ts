/**
 * What the compiled and the interpreted validator share: the error shape, the error cap, dotted
 * paths, and the small readers of values (kinds, code points).
 *
 * @module
 */
import type { ValueKind } from './plan.js';

/** One problem with a value: where (dotted path) and what to do about it. */
export interface ValidationError {
  /**
   * Dotted path of the offending value: `customer.phone.country_code`, `items.0.x`. Empty for the
   * value itself. For a missing property, the path of the property, not of its parent.
   */
  readonly path: string;
  /** A sentence a person can act on, for example "must be at most 80 characters". */
  readonly message: string;
}

/** `Object.prototype.hasOwnProperty`, so an inherited or injected prototype never counts. */
export const hasOwn: (this: unknown, key: PropertyKey) => boolean = Object.prototype.hasOwnProperty;

/** Length in Unicode code points, as JSON Schema counts string length. */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A low surrogate after a high surrogate belongs to the same code point.
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) continue;
    }
    count += 1;
  }
  return count;
}

/** The kind of a value, for choosing the `anyOf` branch whose errors are reported. */
export function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isFinite(value) ? 'number' : 'other';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'other';
  }
}

/**
 * The most errors a validation lists; past it, a last entry says how many more there were, so a
 * body of a million unknown keys makes a list of a hundred and one, not of a million.
 */
export const MAX_ERRORS = 100;

/** The last entry of a list cut at {@link MAX_ERRORS}: `and 999900 more errors`. */
export function moreErrors(count: number): ValidationError {
  return { path: '', message: `and ${count} more error${count === 1 ? '' : 's'}` };
}

// Eight or more digits, each pair optionally split by one separator (space, tab, dash, dot,
// underscore or slash): a card number however it was written, "4111 1111 1111 1111" included.
const DIGIT_RUN = /[0-9](?:[ \t\u00a0._/\u2010-\u2015-]?[0-9]){7,}/g;

/**
 * An unknown property name as it appears in a path: long runs of digits masked to their last four
 * (separators and all), so a card number pasted as a key is not repeated, then cut to 64
 * characters so a huge key cannot make a huge error.
 */
export function pathKey(key: string): string {
  const masked = key.replace(DIGIT_RUN, (run) => `****${run.replace(/[^0-9]/g, '').slice(-4)}`);
  return masked.length > 64 ? `${masked.slice(0, 61)}...` : masked;
}

/** `parent.key`, or `key` at the root. */
export function joinPath(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}.${key}`;
}
