// The runner's own signing and verification, on node:crypto. The runner judges implementations
// with this code, never with the toolkit's packages under test: the HTTP modes sign the requests
// they send with it, and the judge uses it to recognise what a mistaken implementation computed.
import { createHmac } from 'node:crypto';

/** The interface's tolerance between x-timestamp and the receiver's clock, in seconds. */
const TOLERANCE_SECONDS = 60;

/** merchant id + timestamp + METHOD + full URL + body, no delimiters; a GET signs no body. */
export function stringToSign(merchantId: string, timestamp: string, method: string, url: string, body: Uint8Array): Buffer {
  const m = method.toUpperCase();
  return Buffer.concat([Buffer.from(`${merchantId}${timestamp}${m}${url}`, 'utf8'), m === 'GET' ? Buffer.alloc(0) : body]);
}

/** HMAC-SHA256 with the secret's UTF-8 bytes, as 64 lowercase hex characters. */
export function hmacHex(secret: string, message: Uint8Array): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(message).digest('hex');
}

/** Who signs: a merchant id and its secret. */
export interface Signer {
  merchantId: string;
  secret: string;
}

/** The three headers of a call to the service (or of a webhook), signed over the exact URL and bytes. */
export function signedHeaders(
  s: Signer,
  call: { method: string; url: string; body?: Uint8Array; timestamp: string },
): { 'x-merchant-id': string; 'x-timestamp': string; 'x-signature': string } {
  const body = call.body ?? Buffer.alloc(0);
  return {
    'x-merchant-id': s.merchantId,
    'x-timestamp': call.timestamp,
    'x-signature': hmacHex(s.secret, stringToSign(s.merchantId, call.timestamp, call.method, call.url, body)),
  };
}

/** The headers of a card-data push: merchant id + timestamp + payin id, no method. */
export function simplifiedHeaders(
  s: Signer,
  timestamp: string,
  payinId: string,
): { 'x-merchant-id': string; 'x-timestamp': string; 'x-simplified-signature': string } {
  return {
    'x-merchant-id': s.merchantId,
    'x-timestamp': timestamp,
    'x-simplified-signature': hmacHex(s.secret, Buffer.from(`${s.merchantId}${timestamp}${payinId}`, 'utf8')),
  };
}

/** A request to verify, with the verifier's merchant, secret, URL and clock: a verify vector's input. */
export interface VerifyInput {
  merchant_id: string;
  secret: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array;
  now: string;
}

/**
 * The harness protocol's checks, in its order: the answer a correct verifier gives. `signedBody`
 * replaces the bytes the verifier signs (to model one that re-serialises the body).
 */
export function verifyAnswer(input: VerifyInput, signedBody?: Uint8Array): { valid: boolean; reason: string | null } {
  const h = input.headers;
  const merchant = h['x-merchant-id'];
  const ts = h['x-timestamp'];
  const sig = h['x-signature'];
  const no = (reason: string) => ({ valid: false, reason });
  if (!merchant || !ts || !sig) return no('missing_header');
  if (!/^[0-9]+$/.test(ts)) return no('malformed_timestamp');
  const skew = BigInt(input.now) - BigInt(ts);
  if (skew > BigInt(TOLERANCE_SECONDS) || skew < -BigInt(TOLERANCE_SECONDS)) return no('expired');
  if (merchant !== input.merchant_id) return no('merchant_mismatch');
  if (!/^[0-9a-fA-F]{64}$/.test(sig)) return no('malformed_signature');
  const expected = hmacHex(input.secret, stringToSign(merchant, ts, input.method, input.url, signedBody ?? input.body));
  return expected === sig.toLowerCase() ? { valid: true, reason: null } : no('bad_signature');
}
