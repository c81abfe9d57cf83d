// The Fastify adapter (`@pay/webhook/fastify`): a plugin that registers one webhook route and
// answers it from its onRequest hook, before Fastify parses anything. The exact bytes are then
// read from the raw request by the same bounded reader as every other adapter, whatever the
// content type, and other routes keep their own parsers untouched.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookCore } from '../core.js';
import { answerNode, readNodeBody } from '../node/io.js';
import type { WebhookHandlerOptions } from '../options.js';

/** The request and reply of a Fastify hook, as far as this plugin uses them. */
interface FastifyHookArgs {
  request: { raw: IncomingMessage; routeOptions?: { url?: string } };
  reply: { raw: ServerResponse; hijack(): void };
}

/** The parts of a Fastify instance this plugin uses (so the package needs no Fastify types). */
export interface FastifyLike {
  route(options: {
    method: 'POST';
    url: string;
    onRequest: (request: FastifyHookArgs['request'], reply: FastifyHookArgs['reply']) => Promise<void>;
    handler: () => Promise<void>;
  }): unknown;
}

/** Options of the Fastify {@link webhookHandler}: the handler options and the route's path. */
export interface FastifyWebhookOptions extends WebhookHandlerOptions {
  /** The route path, e.g. `/webhooks/pay`. */
  path: string;
}

/**
 * A Fastify plugin that serves the webhook route:
 * `app.register(webhookHandler({ path: '/webhooks/pay', merchantId, secret, url, handler }))`.
 * The route reads its own body (bounded by `maxBodyBytes`, answered 413 past it) and answers with
 * the same statuses and reasons as every adapter.
 *
 * @throws TypeError when created with unusable options.
 */
export function webhookHandler(
  options: FastifyWebhookOptions,
): (fastify: FastifyLike, pluginOptions: unknown, done: (error?: Error) => void) => void {
  const core = createWebhookCore(options);
  const { path } = options;
  return (fastify, _pluginOptions, done) => {
    fastify.route({
      method: 'POST',
      url: path,
      onRequest: async (request, reply) => {
        reply.hijack(); // this hook writes the answer itself; Fastify neither parses nor replies
        // The route as registered, a plugin prefix included.
        const route = request.routeOptions?.url ?? path;
        await answerNode(core, request.raw, reply.raw, (limit) => readNodeBody(request.raw, limit), route);
      },
      handler: async () => {}, // never reached: the hook has answered
    });
    done();
  };
}
