// Express: the Node adapter, plus the one Express-specific trap: a body parser mounted before
// the webhook route has already consumed the stream.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookHandlerOptions } from '../process.js';
import { webhookProcessor } from '../process.js';
import { refusal } from '../verify.js';
import { readNodeBody, sendNodeReply } from '../node-io.js';

type ExpressRequest = IncomingMessage & { body?: unknown; _body?: boolean; originalUrl?: string };

const CONSUMED =
  'express.json() (or another body parser) already consumed this webhook\'s body, so its exact bytes are gone. ' +
  'Mount the webhook route before app.use(express.json()), or give it express.raw({ type: "*/*" }).';

/**
 * Express middleware that verifies and handles a webhook: `app.post('/webhooks/pay', webhookMiddleware({...}))`.
 * It reads the raw body itself. Behind `express.raw()` it uses the Buffer that gives; behind
 * `express.json()` it answers 500 and logs how to fix the route, rather than failing every
 * webhook as a bad signature.
 *
 * @example
 * ```ts
 * const app = express();
 * app.post('/webhooks/pay', webhookMiddleware({ merchantId, secret, url: 'https://shop.example/webhooks/pay',
 *   handler: (event) => orders.update(event.reference_id, event.status) }));
 * app.use(express.json()); // after the webhook route
 * ```
 */
export function webhookMiddleware(
  options: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  const { handle, maxBodyBytes } = webhookProcessor(options);
  return async (req: ExpressRequest, res, next) => {
    try {
      const headers = req.headers;
      const method = req.method ?? 'GET';
      const path = req.originalUrl ?? req.url ?? '/'; // before any router mount point was stripped
      if (Buffer.isBuffer(req.body)) {
        sendNodeReply(res, await handle({ method, path, headers, body: req.body }));
      } else if (req._body === true || req.body !== undefined || req.readableEnded) {
        sendNodeReply(res, await handle({ method, path, headers, body: undefined, refused: refusal('parsed_body', CONSUMED) }));
      } else {
        sendNodeReply(res, await handle({ method, path, headers, ...(await readNodeBody(req, maxBodyBytes)) }));
      }
    } catch (error) {
      if (next) next(error);
      else throw error;
    }
  };
}
