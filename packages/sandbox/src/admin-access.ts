// Who may use the admin area (`/_sandbox/`: the admin API, the dashboard and its actions).
//
// The developer at the machine, and nobody else. A connection from 127.0.0.1 is not proof of that:
// ngrok, cloudflared, Codespaces forwarding and a local nginx all connect from 127.0.0.1 on behalf
// of anyone on the internet. They say so in a forwarding header, or call the sandbox under its
// public name, so a request with either is taken for a remote one (fail safe: a proxy that hides
// both must not exist in front of the sandbox without publicUrl). A remote caller needs the admin
// token: random per sandbox unless the developer gives one, never a default anyone can guess.
import { readHeader, type HeadersLike } from '@pay/sign';

/** The cookie the admin token is kept in by a browser, once given on the sign-in page. */
export const ADMIN_COOKIE = 'pay_sandbox_admin';

// Headers a proxy adds for the client it forwards for (RFC 7239, the de-facto X-Forwarded-*, and
// the vendor spellings of the client's address).
const FORWARDING = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'client-ip',
]);

/**
 * Whether a request carries a header a proxy adds when it forwards someone else's request. One
 * pass over the header names (it runs on every request).
 */
export function isForwarded(headers: HeadersLike): boolean {
  try {
    const names: Iterable<string> =
      typeof (headers as Headers).keys === 'function' ? (headers as Headers).keys() : Object.keys(headers as Record<string, unknown>);
    for (const name of names) {
      const lower = name.toLowerCase();
      if (FORWARDING.has(lower) || lower.startsWith('x-forwarded-')) return true;
    }
    return false;
  } catch {
    return true; // headers that cannot be listed cannot be shown to be direct
  }
}

const TOKEN = /^[\x21-\x7e]{16,256}$/;

/**
 * Checks an admin token given by the developer: 16 to 256 visible ASCII characters (no spaces), so
 * it fits a header and a cookie and is not a word anyone would guess.
 *
 * @throws TypeError saying what is wrong, never repeating the value.
 */
export function checkAdminToken(value: unknown): string {
  if (typeof value !== 'string' || !TOKEN.test(value) || value.includes(';') || value.includes(',')) {
    throw new TypeError('adminToken must be 16 to 256 visible ASCII characters, without spaces, commas or semicolons');
  }
  return value;
}

/** A fresh admin token: 128 random bits, hex. */
export function newAdminToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The admin token a request presents: `Authorization: Bearer <token>`, or the sign-in cookie. */
export function presentedToken(headers: HeadersLike): string | undefined {
  const authorization = readHeader(headers, 'authorization');
  const bearer = authorization === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (bearer !== undefined) return bearer;
  const cookies = readHeader(headers, 'cookie');
  if (cookies === undefined) return undefined;
  for (const part of cookies.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === ADMIN_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether `given` is `token`, in time that does not depend on where they differ. */
export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined || given.length !== token.length) return false;
  let diff = 0;
  for (let i = 0; i < token.length; i++) diff |= given.charCodeAt(i) ^ token.charCodeAt(i);
  return diff === 0;
}
