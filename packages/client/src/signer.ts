// The only place the secret is used. It lives in these closures and nowhere else: not on the
// client object, not in any error or event, so no `util.inspect` or log can show it.
import type { Clock } from '@pay/clock';
import { signRequest, signSimplified } from '@pay/sign';

/** Signed headers for each kind of request. */
export interface Signer {
  /** Headers of a lookup of `url`, timestamped `timestamp` (unix seconds). */
  get(url: string, timestamp: number): Record<string, string>;
  /** Headers of a POST of exactly `body` to `url`, timestamped `timestamp` (unix seconds). */
  post(url: string, body: Uint8Array, timestamp: number): Record<string, string>;
  /** Headers of a card-data push for `payinId` (`x-simplified-signature`). */
  push(payinId: string): Record<string, string>;
}

/** A signer for one merchant. */
export function createSigner(merchantId: string, secret: string): Signer {
  return {
    get: (url, timestamp) => {
      const headers: Record<string, string> = signRequest({ merchantId, secret, method: 'GET', url, timestamp });
      headers['accept'] = 'application/json';
      return headers;
    },
    post: (url, body, timestamp) => ({
      ...signRequest({ merchantId, secret, method: 'POST', url, body, timestamp }),
      'content-type': 'application/json',
      accept: 'application/json',
    }),
    push: (payinId) => ({
      ...signSimplified({ merchantId, secret, payinId }),
      'content-type': 'application/json',
      accept: 'application/json',
    }),
  };
}

/** Now on `clock`, in whole unix seconds: the x-timestamp of a request sent now. */
export function nowSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
