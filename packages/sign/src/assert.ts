// Argument checks at the boundary. Messages say what was wrong and where, and never repeat the
// value itself: a URL can carry a token in its query, a timestamp field can hold anything a caller
// pasted, and a secret must never appear at all.

/** Throws a TypeError naming `name` unless `value` is a non-empty string. */
export function nonEmptyString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${kind(value)}`);
  if (value.length === 0) throw new TypeError(`${name} must not be empty`);
  return value;
}

/** A timestamp as sent in x-timestamp: whole seconds, as a number or a string of decimal digits. */
export function timestamp(value: unknown, name = 'timestamp'): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(`${name} must be whole unix seconds (a non-negative integer), got ${numberKind(value)}`);
    }
    return String(value);
  }
  if (typeof value === 'string') {
    const at = value.search(/[^0-9]/);
    if (value.length === 0 || at >= 0) {
      throw new TypeError(
        `${name} must be whole unix seconds in decimal digits, got ${value.length === 0 ? 'an empty string' : `a string with a non-digit at position ${at}`}`,
      );
    }
    return value;
  }
  throw new TypeError(`${name} must be a number or a string of decimal digits, got ${kind(value)}`);
}

// RFC 9110 token characters: what an HTTP method may be made of.
const NOT_TOKEN = /[^!#$%&'*+.^_`|~0-9A-Za-z-]/;

/** An HTTP method, returned in capitals as the signature requires. */
export function method(value: unknown): string {
  if (value === 'POST' || value === 'GET') return value; // the interface's two, checked cheaply
  const m = nonEmptyString(value, 'method');
  const at = m.search(NOT_TOKEN);
  if (at >= 0) throw new TypeError(`method must be an HTTP method token, got a character that is not allowed at position ${at}`);
  return m.toUpperCase();
}

const SCHEME = /^https?:\/\//i;
const UNSAFE = /[\s\u0000-\u001f\u007f]/;
const AUTHORITY = /^https?:\/\/[^\s/?#\\]/i;
// All three at once, for the URL that has no problem: one pass instead of three on every call.
const FINE = /^https?:\/\/[^\s\u0000-\u001f\u007f/?#\\][^\s\u0000-\u001f\u007f]*$/i;

/**
 * Why `value` cannot be signed as the full URL called, or undefined when it can: it must start
 * with `http://` or `https://`, have a host, and hold no whitespace or control characters. The
 * URL is checked, never parsed or normalised (it is signed exactly as given), and the answer never
 * repeats it, so it is safe to log even when the query holds a token.
 *
 * @example
 * ```ts
 * urlProblem('https://shop.example/webhooks/pay'); // undefined
 * urlProblem('/webhooks/pay'); // 'must start with http:// or https://'
 * ```
 */
export function urlProblem(value: string): string | undefined {
  if (FINE.test(value)) return undefined;
  if (!SCHEME.test(value)) return 'must start with http:// or https://';
  const at = value.search(UNSAFE);
  if (at >= 0) return `must not contain spaces or control characters (one is at position ${at})`;
  if (!AUTHORITY.test(value)) return 'must have a host after the scheme';
  return undefined;
}

/** The full URL called (scheme and host included), checked but never parsed or normalised. */
export function url(value: unknown): string {
  const u = nonEmptyString(value, 'url');
  const problem = urlProblem(u);
  if (problem !== undefined) throw new TypeError(`url must be the full URL called, and it ${problem}`);
  return u;
}

/** A body to sign: text (UTF-8) or the exact bytes sent. */
export function body(value: unknown): string | Uint8Array {
  if (value === undefined || typeof value === 'string' || value instanceof Uint8Array) return value ?? '';
  throw new TypeError(
    `body must be the exact body sent, as a string or a Uint8Array, got ${kind(value)}` +
      (value !== null && typeof value === 'object' ? '; serialise it once (JSON.stringify) and sign and send that string' : ''),
  );
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function numberKind(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return 'an infinite number';
  if (value < 0) return 'a negative number';
  if (!Number.isInteger(value)) return 'a fraction';
  return 'a number beyond the safe integer range';
}
