// Node's http: read the exact bytes from the request stream (bounded), answer on the response.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookCore } from '../core.js';
import type { WebhookHandlerOptions } from '../options.js';
import { answerNode, readNodeBody } from './node-io.js';

/**
 * A webhook handler for Node's `http` server: `(req, res) => Promise<void>`. It reads the raw
 * body itself, so nothing may read the request stream before it. It never rejects.
 *
 * @throws TypeError when created with unusable options.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(createNodeWebhookHandler({ merchantId, secret, url: 'https://shop.example/webhooks/pay',
 *   handler: async (event) => orders.update(event.reference_id, event.status) })).listen(3000);
 * ```
 */
export function createNodeWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const core = createWebhookCore(options);
  return (req, res) => answerNode(core, req, res, (limit) => readNodeBody(req, limit));
}
