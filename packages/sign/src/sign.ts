// Producing signatures: the headers a merchant sends.
import { hmacHex } from '#hmac';
import * as assert from './assert.js';
import type { SignedCardPush, SignedRequest } from './string-to-sign.js';
import { cardPushParts, requestParts } from './string-to-sign.js';
import { nowSeconds } from './time.js';

/** Options of {@link signRequest}. */
export interface SignRequestOptions extends Omit<SignedRequest, 'timestamp'> {
  /** The merchant secret key from the dashboard (UTF-8). */
  secret: string;
  /** Unix seconds to sign and send; defaults to now. A string is signed and sent as given. */
  timestamp?: number | string | undefined;
}

/** Options of {@link signSimplified}. */
export interface SignSimplifiedOptions extends Omit<SignedCardPush, 'timestamp'> {
  /** The merchant secret key from the dashboard (UTF-8). */
  secret: string;
  /** Unix seconds to sign and send; defaults to now. */
  timestamp?: number | string | undefined;
}

// Type aliases, not interfaces: an alias is assignable to an index-signature type, so these
// headers can be passed straight to `fetch`, `verifyRequest` or any `Record<string, string>`.

/** The three authentication headers of a call to the service. */
export type SignedHeaders = {
  'x-merchant-id': string;
  'x-timestamp': string;
  /** HMAC-SHA256, 64 lowercase hex characters. */
  'x-signature': string;
};

/** The three authentication headers of a card-data push. */
export type SimplifiedSignedHeaders = {
  'x-merchant-id': string;
  'x-timestamp': string;
  /** HMAC-SHA256, 64 lowercase hex characters. */
  'x-simplified-signature': string;
};

/**
 * Signs a call to the service (or a webhook) and returns the headers to send with it.
 * Send exactly the `url` and `body` that were signed: the same bytes, the same trailing slash.
 *
 * @throws TypeError when an argument is unusable (empty merchant id or secret, a timestamp that
 *   is not whole seconds, a method that is not a token, a URL that is not absolute http(s)).
 * @example
 * ```ts
 * const body = JSON.stringify({ reference_id: 'order-1' });
 * const headers = signRequest({ merchantId: 'm_1', secret: process.env.PAY_SECRET!,
 *   method: 'POST', url: 'https://api.pay.example/v2/merchants/payins/', body });
 * await fetch('https://api.pay.example/v2/merchants/payins/', { method: 'POST', body,
 *   headers: { ...headers, 'content-type': 'application/json' } });
 * ```
 */
export function signRequest(options: SignRequestOptions): SignedHeaders {
  const secret = assert.nonEmptyString(options?.secret, 'secret');
  const timestamp = assert.timestamp(options.timestamp ?? nowSeconds());
  return {
    'x-merchant-id': options.merchantId,
    'x-timestamp': timestamp,
    'x-signature': hmacHex(secret, requestParts(options, timestamp)),
  };
}

/**
 * Signs a card-data push (`x-simplified-signature`: merchant id + timestamp + payin id, no method
 * and no body) and returns the headers to send with it.
 *
 * @throws TypeError when an argument is unusable.
 * @example
 * ```ts
 * const headers = signSimplified({ merchantId: 'm_1', secret: process.env.PAY_SECRET!, payinId: 'pi_1' });
 * ```
 */
export function signSimplified(options: SignSimplifiedOptions): SimplifiedSignedHeaders {
  const secret = assert.nonEmptyString(options?.secret, 'secret');
  const timestamp = assert.timestamp(options.timestamp ?? nowSeconds());
  return {
    'x-merchant-id': options.merchantId,
    'x-timestamp': timestamp,
    'x-simplified-signature': hmacHex(secret, cardPushParts(options, timestamp)),
  };
}
