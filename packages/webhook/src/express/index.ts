// The Express adapter (`@pay/webhook/express`): the Node adapter, plus the one Express-specific
// trap: a body parser mounted before the webhook route has already consumed the stream.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookCore } from '../core.js';
import { answerNode, readNodeBody } from '../node/io.js';
import type { WebhookHandlerOptions } from '../options.js';
import type { BodyRead } from '../read-stream.js';
import { tooLarge } from '../read-stream.js';

type ExpressRequest = IncomingMessage & {
  body?: unknown;
  _body?: boolean;
  originalUrl?: string;
  baseUrl?: string;
  route?: { path?: unknown };
};

const CONSUMED =
  "express.json() (or another body parser) already consumed this webhook's body, so its exact bytes are gone. " +
  'Mount the webhook route before app.use(express.json()), or give it express.raw({ type: "*/*" }).';

/** The body as Express left it: unread (read it, bounded), a Buffer from express.raw(), or consumed. */
function expressBody(req: ExpressRequest, limit: number): Promise<BodyRead> {
  if (Buffer.isBuffer(req.body)) return Promise.resolve(req.body.length > limit ? tooLarge(limit) : { ok: true, body: req.body });
  if (req._body === true || req.body !== undefined || req.readableEnded) {
    return Promise.resolve({ ok: false, reason: 'parsed_body', message: CONSUMED });
  }
  return readNodeBody(req, limit);
}

/** The route Express matched (`/webhooks/pay`, under its router's mount path), when it is a plain path. */
function routeOf(req: ExpressRequest): string | undefined {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}

/**
 * Express middleware that verifies and handles a webhook: `app.post('/webhooks/pay', webhookHandler({...}))`.
 * It reads the raw body itself and never inflates it: a compressed body is answered 415 like on
 * every adapter. Behind `express.raw()` it uses the Buffer that gives (and still refuses a
 * request that declared a content-encoding); behind `express.json()` it answers 500 and logs how
 * to fix the route, rather than failing every webhook as a bad signature. It answers every
 * request itself, so Express's error page (with its stack trace) is never shown.
 *
 * @throws TypeError when created with unusable options.
 * @example
 * ```ts
 * import { webhookHandler } from '@pay/webhook/express';
 * const app = express();
 * app.post('/webhooks/pay', webhookHandler({ merchantId, secret, url: 'https://shop.example/webhooks/pay',
 *   handler: (event) => orders.update(event.reference_id, event.status) }));
 * app.use(express.json()); // after the webhook route
 * ```
 */
export function webhookHandler(
  options: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  const core = createWebhookCore(options);
  return (req: ExpressRequest, res) => answerNode(core, req, res, (limit) => expressBody(req, limit), routeOf(req));
}
