/**
 * Helpers shared by the compiled and the interpreted validator.
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

const LONG_DIGITS = /[0-9]{8,}/g;

/**
 * An unknown property name as it appears in a path: cut to 64 characters so a huge key cannot
 * make a huge error, and with long runs of digits masked, so a card number pasted as a key is not
 * repeated either.
 */
export function pathKey(key: string): string {
  const short = key.length > 64 ? `${key.slice(0, 61)}...` : key;
  return short.replace(LONG_DIGITS, (digits) => `****${digits.slice(-4)}`);
}

/** `parent.key`, or `key` at the root. */
export function joinPath(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}.${key}`;
}
