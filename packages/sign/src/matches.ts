// Whether a signature was made over a given message. verifyRequest answers that for the string
// the interface defines; a tool that explains a refusal (the sandbox naming the likely mistake)
// must ask it of strings the interface does not define: the URL without its trailing slash, the
// method in lower case, the body pretty-printed. This is that question, with the same constant-time
// comparison, so such a tool holds no HMAC or comparison code of its own.
import { hmacHex } from '#hmac';
import * as assert from './assert.js';
import { constantTimeEqual } from './bytes.js';

/** Options of {@link signatureMatches}. */
export interface SignatureMatchesOptions {
  /** The secret key (UTF-8). */
  secret: string;
  /** The exact message: text (UTF-8) or bytes. */
  message: string | Uint8Array;
  /** The signature as sent: hex, either case. */
  signature: string;
}

/**
 * Whether `signature` is the HMAC-SHA256 of `message` under `secret`, compared in constant time.
 * A signature that is not 64 hex characters never matches.
 *
 * @throws TypeError when `secret` is not a non-empty string or `message` is not a string or bytes.
 * @example
 * ```ts
 * // Was this x-signature computed with the method in lower case?
 * signatureMatches({ secret, message: `${merchantId}${timestamp}post${url}${body}`, signature });
 * ```
 */
export function signatureMatches(options: SignatureMatchesOptions): boolean {
  const secret = assert.nonEmptyString(options?.secret, 'secret');
  const message = options.message;
  if (typeof message !== 'string' && !(message instanceof Uint8Array)) throw new TypeError('message must be a string or a Uint8Array');
  const signature = options.signature;
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  return constantTimeEqual(hmacHex(secret, [message]), signature.toLowerCase());
}
