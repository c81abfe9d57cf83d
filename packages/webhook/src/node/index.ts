// The Node `http` adapter (`@pay/webhook/node`): reads the exact bytes from the request stream,
// bounded, and answers on the response.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookCore } from '../core.js';
import type { WebhookHandlerOptions } from '../options.js';
import { answerNode, readNodeBody } from './io.js';

/**
 * A webhook handler for Node's `http` server: `(req, res) => Promise<void>`. It reads the raw
 * body itself, so nothing may read the request stream before it. It never rejects.
 *
 * @throws TypeError when created with unusable options.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { webhookHandler } from '@pay/webhook/node';
 * createServer(webhookHandler({ merchantId, secret, url: 'https://shop.example/webhooks/pay',
 *   handler: async (event) => orders.update(event.reference_id, event.status) })).listen(3000);
 * ```
 */
export function webhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const core = createWebhookCore(options);
  return (req, res) => answerNode(core, req, res, (limit) => readNodeBody(req, limit));
}
