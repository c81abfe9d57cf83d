// The strings to sign, as the interface defines them: plain concatenation, no delimiters.
import * as assert from './assert.js';
import type { Part } from './bytes.js';
import { concat } from './bytes.js';

/** What an `x-signature` covers: one call to the service, or one webhook. */
export interface SignedRequest {
  /** Merchant id from the dashboard, exactly as sent in `x-merchant-id`. */
  merchantId: string;
  /** Unix time in whole seconds, exactly as sent in `x-timestamp`. */
  timestamp: number | string;
  /** HTTP method; signed in capitals. */
  method: string;
  /** The full URL called, with scheme, host, path, any trailing slash and query, signed as given. */
  url: string;
  /** The exact body sent: a string (UTF-8) or bytes. Ignored for GET, whose signed body is empty. */
  body?: string | Uint8Array | undefined;
}

/** What an `x-simplified-signature` covers: one card-data push. */
export interface SignedCardPush {
  /** Merchant id from the dashboard. */
  merchantId: string;
  /** Unix time in whole seconds, exactly as sent in `x-timestamp`. */
  timestamp: number | string;
  /** Id of the payin whose card data is pushed. */
  payinId: string;
}

/**
 * The string to sign as it is written, unchecked: merchant id, timestamp, method, URL and body,
 * concatenated with no delimiters, each as given (no GET rule, no capitals). requestParts calls it
 * once the fields are checked; the catalogue of signing mistakes calls it with the mistaken fields.
 */
export function concatenated(merchantId: string, timestamp: string, method: string, url: string, body: Part): Part[] {
  const head = `${merchantId}${timestamp}${method}${url}`;
  return typeof body === 'string' ? [head + body] : [head, body];
}

/**
 * The string to sign, checked, as parts for the HMAC: one string when the body is text (a single
 * update is the cheapest call into native HMAC), or the text head and the body bytes, so a large
 * byte body is never copied. `timestamp` is the x-timestamp text, already checked by the caller.
 */
export function requestParts(request: Omit<SignedRequest, 'timestamp'>, timestamp: string): Part[] {
  if (request === null || typeof request !== 'object') throw new TypeError('expected an object of request fields');
  const method = assert.method(request.method);
  const merchantId = assert.nonEmptyString(request.merchantId, 'merchantId');
  const url = assert.url(request.url);
  const body = assert.body(request.body);
  // The interface: "The body part is empty for GET requests", whatever a caller passes.
  return concatenated(merchantId, timestamp, method, url, method === 'GET' ? '' : body);
}

/** The simplified string to sign, checked: merchant id, timestamp (already checked), payin id. */
export function cardPushParts(push: Omit<SignedCardPush, 'timestamp'>, timestamp: string): [string] {
  if (push === null || typeof push !== 'object') throw new TypeError('expected an object of card push fields');
  const merchantId = assert.nonEmptyString(push.merchantId, 'merchantId');
  const payinId = assert.nonEmptyString(push.payinId, 'payinId');
  return [simplifiedConcatenated(merchantId, timestamp, payinId)];
}

/**
 * The simplified string to sign as it is written, unchecked: merchant id, timestamp, payin id.
 * The interface's worked example has no method here, though its step list names one; the worked
 * example is what the service computes (docs/design.md).
 */
export function simplifiedConcatenated(merchantId: string, timestamp: string, payinId: string): string {
  return `${merchantId}${timestamp}${payinId}`;
}

/**
 * The exact bytes an `x-signature` is computed over: merchant id, timestamp, method in capitals,
 * full URL and body, concatenated with no delimiters (the body part is empty for GET).
 *
 * @example
 * ```ts
 * const bytes = stringToSign({ merchantId: 'm_1', timestamp: 1732200000, method: 'GET',
 *   url: 'https://api.pay.example/v2/merchants/payins/pi_1' });
 * new TextDecoder().decode(bytes); // 'm_11732200000GEThttps://api.pay.example/v2/merchants/payins/pi_1'
 * ```
 */
export function stringToSign(request: SignedRequest): Uint8Array {
  return concat(requestParts(request, assert.timestamp(request?.timestamp)));
}

/** The exact bytes an `x-simplified-signature` is computed over: merchant id, timestamp, payin id. */
export function simplifiedStringToSign(push: SignedCardPush): Uint8Array {
  return concat(cardPushParts(push, assert.timestamp(push?.timestamp)));
}
