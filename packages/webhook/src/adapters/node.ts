// Node's http: read the exact bytes from the request stream (bounded), answer on the response.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNodeBody, sendNodeReply } from '../node-io.js';
import type { WebhookHandlerOptions } from '../process.js';
import { webhookProcessor } from '../process.js';

/**
 * A webhook handler for Node's `http` server: `(req, res) => Promise<void>`. It reads the raw
 * body itself, so nothing may read the request stream before it.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(createNodeWebhookHandler({ merchantId, secret, url: 'https://shop.example/webhooks/pay',
 *   handler: async (event) => orders.update(event.reference_id, event.status) })).listen(3000);
 * ```
 */
export function createNodeWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { handle, maxBodyBytes } = webhookProcessor(options);
  return async (req, res) => {
    try {
      const read = await readNodeBody(req, maxBodyBytes);
      sendNodeReply(res, await handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, ...read }));
    } catch (error) {
      // Only a broken connection or a bug gets here; answer 500 (the service retries) rather
      // than leave an unhandled rejection.
      console.warn('@pay/webhook: 500 unexpected error', error);
      if (!res.headersSent) sendNodeReply(res, { status: 500, body: '{"error":"internal"}' });
      else res.destroy();
    }
  };
}
