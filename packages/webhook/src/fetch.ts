// The web-standard core: Fetch `Request` in, `Response` out. Hono, Next.js route handlers, Bun,
// Deno and edge workers use it directly.
import type { IncomingWebhook, WebhookHandlerOptions } from './process.js';
import { DEFAULT_MAX_BODY_BYTES, webhookProcessor } from './process.js';
import type { VerifyWebhookOptions, WebhookResult } from './verify.js';
import { refusal, verifyWebhook } from './verify.js';

/**
 * Reads a Fetch body as bytes, stopping at `limit`: a refusal instead of bytes when it is larger.
 * The declared content-length is checked first, then the bytes actually read.
 */
async function readRequestBody(request: Request, limit: number): Promise<Pick<IncomingWebhook, 'body' | 'refused'>> {
  const tooLarge = () => ({ body: undefined, refused: refusal('body_too_large', `the webhook body is larger than ${limit} bytes`) });
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) return tooLarge();
  if (!request.body) return { body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { body: bytes };
}

/**
 * Verifies a webhook delivered as a Fetch `Request`: reads its exact body (up to `maxBodyBytes`,
 * default 1 MiB) and checks it like {@link verifyWebhook}. The URL checked is `options.url`, the
 * address the service signed, never `request.url` (proxies rewrite it).
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
  const read = await readRequestBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  return read.refused ?? verifyWebhook({ ...options, headers: request.headers, body: read.body });
}

/**
 * A Fetch handler for webhooks: `(request) => Promise<Response>`. Answers 200 once `handler`
 * has processed the event (or for a duplicate of one already processed), 4xx for a webhook that
 * fails verification, 409 while the same delivery is being processed, 500 when `handler` throws,
 * so the service retries.
 *
 * @example
 * ```ts
 * // Hono
 * const onWebhook = createWebhookHandler({ merchantId, secret, url, handler: (event) => orders.update(event) });
 * app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));
 * // Next.js route handler: export const POST = createWebhookHandler({ ... });
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const { handle, maxBodyBytes } = webhookProcessor(options);
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    const answer = await handle({
      method: request.method,
      path: pathname + search,
      headers: request.headers,
      ...(await readRequestBody(request, maxBodyBytes)),
    });
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}
