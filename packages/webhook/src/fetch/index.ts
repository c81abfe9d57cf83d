// The Fetch adapter (`@pay/webhook/fetch`): `Request` in, `Response` out, for Hono, Next.js route
// handlers, Bun, Deno and edge workers.
import { createWebhookCore } from '../core.js';
import type { WebhookHandlerOptions } from '../options.js';
import { fetchBody, pathOf } from './request.js';

/**
 * A Fetch handler for webhooks: `(request) => Promise<Response>`. Answers 200 once `handler`
 * has processed the event (or for a duplicate of one already processed), 4xx for a webhook that
 * fails verification, 409 while the same delivery is being processed, 500 when `handler` throws,
 * 503 when the delivery store fails, so the service retries. It never rejects.
 *
 * @throws TypeError when created with unusable options.
 * @example
 * ```ts
 * import { webhookHandler } from '@pay/webhook/fetch';
 * // Hono
 * const onWebhook = webhookHandler({ merchantId, secret, url, handler: (event) => orders.update(event) });
 * app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));
 * // Next.js route handler: export const POST = webhookHandler({ ... });
 * ```
 */
export function webhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const core = createWebhookCore(options);
  return async (request) => {
    const answer = await core.handle({
      method: request.method,
      path: pathOf(request.url),
      headers: request.headers,
      readBody: fetchBody(request),
    });
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}
