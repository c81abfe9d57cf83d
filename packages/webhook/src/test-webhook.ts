// Signed webhooks for merchants' own tests, and for the conformance runner's endpoint mode.
import { signRequest } from '@pay/sign';

/** Options of {@link createTestWebhook}. */
export interface TestWebhookOptions {
  merchantId: string;
  secret: string;
  /** The address the webhook is signed for (and, for `request`, sent to). */
  url: string;
  /** The payload: an object (serialised once, minified) or the exact body text. */
  payload: object | string;
  /** Unix seconds to sign; default now. */
  timestamp?: number | string | undefined;
}

/** A signed webhook: the headers and body to send, and a ready Fetch `Request`. */
export interface TestWebhook {
  headers: { 'content-type': 'application/json'; 'x-merchant-id': string; 'x-timestamp': string; 'x-signature': string };
  body: string;
  request: Request;
}

/**
 * Makes a webhook exactly as the service sends one: a POST of the JSON body to `url`, signed over
 * the merchant id, timestamp, method, URL and body.
 *
 * @example
 * ```ts
 * const { request } = createTestWebhook({ merchantId: 'm_1', secret, url: 'http://127.0.0.1:3000/webhooks/pay',
 *   payload: { id: 'pi_1', reference_id: 'order-1', status: 'executed' } });
 * const response = await fetch(request);
 * ```
 */
export function createTestWebhook(options: TestWebhookOptions): TestWebhook {
  const body = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
  const signed = signRequest({ ...options, method: 'POST', body });
  const headers = { 'content-type': 'application/json' as const, ...signed };
  return {
    headers,
    body,
    get request() {
      return new Request(options.url, { method: 'POST', headers, body });
    },
  };
}
