// Bytes, HMAC and the strings to sign, on node: builtins only. Every other generator module
// builds on these, so that no expected value depends on this repository's own signing code.
import { createHmac } from 'node:crypto';

export const EMPTY = Buffer.alloc(0);
export const utf8 = (text) => Buffer.from(text, 'utf8');
/** Node's 'latin1': every UTF-16 code unit keeps only its low byte ('é' → e9, 'д' → 34). */
export const latin1 = (text) => Buffer.from(text, 'latin1');
export const b64 = (bytes) => Buffer.from(bytes).toString('base64');
export const hmacHex = (keyBytes, messageBytes) => createHmac('sha256', keyBytes).update(messageBytes).digest('hex');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The bytes as text (a BOM kept as U+FEFF), or null when they are not valid UTF-8. */
export function utf8OrNull(bytes) {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The parts of an x-signature string to sign, as a correct signer takes them from a request:
 * merchant id, timestamp, method, URL exactly as given, and the body bytes (none for GET).
 * Mistakes change one part and keep the others.
 */
export function requestParts({ merchant_id, timestamp, method, url, body_b64 }) {
  const body = method === 'GET' ? EMPTY : Buffer.from(body_b64, 'base64');
  return { merchantId: merchant_id, timestamp, method, url, body };
}

/** Concatenation with no delimiters, each text part as UTF-8, the body as its bytes. */
export const stringToSign = ({ merchantId, timestamp, method, url, body }) =>
  Buffer.concat([utf8(merchantId), utf8(timestamp), utf8(method), utf8(url), body]);

/** The x-simplified-signature string: merchant id + timestamp + payin id, no method. */
export const simplifiedString = ({ merchant_id, timestamp, payin_id }) => utf8(merchant_id + timestamp + payin_id);

/** Splits a URL at its first '?': the path part (scheme and host included) and the query ('?…' or ''). */
export function splitQuery(url) {
  const at = url.indexOf('?');
  return at < 0 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at) };
}

/** The body as text for the body mistakes: strict UTF-8, a leading BOM dropped (as decoders do). */
export function bodyAsText(bytes) {
  const text = utf8OrNull(bytes);
  if (text === null) return null;
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
