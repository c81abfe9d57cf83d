// Verifying a Fetch `Request` by hand, for code that answers webhooks itself: the body read and
// the content-encoding rule exactly as the handlers apply them, then verifyWebhook.
import { readIncoming } from '../incoming.js';
import { DEFAULT_MAX_BODY_BYTES } from '../options.js';
import type { VerifyWebhookOptions, WebhookResult } from '../verify.js';
import { verifyWebhook } from '../verify.js';
import { fetchBody } from './request.js';

/**
 * Verifies a webhook delivered as a Fetch `Request`: refuses a compressed body (like every
 * handler), reads its exact body (up to `maxBodyBytes`, default 1 MiB) and checks it like
 * {@link verifyWebhook}. The URL checked is `options.url`, the address the service signed, never
 * `request.url` (proxies rewrite it).
 *
 * @example
 * ```ts
 * const result = await verifyWebhookRequest(request, { merchantId, secret, url: 'https://shop.example/webhooks/pay' });
 * ```
 */
export async function verifyWebhookRequest(
  request: Request,
  options: Omit<VerifyWebhookOptions, 'body' | 'headers'> & { maxBodyBytes?: number },
): Promise<WebhookResult> {
  const read = await readIncoming(
    { headers: request.headers, readBody: fetchBody(request) },
    options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  );
  if (!read.ok) return read;
  return verifyWebhook({ ...options, headers: request.headers, body: read.body });
}
