// Argument checks at the boundary. Messages say what was wrong and where, and never include a
// secret's value.

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
      throw new TypeError(`${name} must be whole unix seconds (a non-negative integer), got ${value}`);
    }
    return String(value);
  }
  if (typeof value === 'string') {
    if (!/^[0-9]+$/.test(value)) {
      throw new TypeError(`${name} must be whole unix seconds in decimal digits, got ${JSON.stringify(clip(value))}`);
    }
    return value;
  }
  throw new TypeError(`${name} must be a number or a string of decimal digits, got ${kind(value)}`);
}

// RFC 9110 token characters: what an HTTP method may be made of.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An HTTP method, returned in capitals as the signature requires. */
export function method(value: unknown): string {
  if (value === 'POST' || value === 'GET') return value; // the interface's two, checked cheaply
  const m = nonEmptyString(value, 'method');
  if (!TOKEN.test(m)) throw new TypeError(`method must be an HTTP method token, got ${JSON.stringify(clip(m))}`);
  return m.toUpperCase();
}

// Scheme, "://", a non-empty authority, then anything but whitespace and control characters.
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^\s/?#\\]+[^\s\u0000-\u001f\u007f]*$/i;

/** The full URL called (scheme and host included), checked but never parsed or normalised. */
export function url(value: unknown): string {
  const u = nonEmptyString(value, 'url');
  if (!ABSOLUTE_HTTP_URL.test(u)) {
    throw new TypeError(
      `url must be the full URL called, starting with http:// or https:// and without spaces, got ${JSON.stringify(clip(u))}`,
    );
  }
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

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
