// Fastify: a plugin that registers one webhook route in its own encapsulated context, where the
// only body parser hands over the raw Buffer. Other routes keep their JSON parsing.
import type { WebhookHandlerOptions } from '../process.js';
import { webhookProcessor } from '../process.js';

/** The parts of a Fastify instance this plugin uses (so the package needs no Fastify types). */
export interface FastifyLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  post(
    path: string,
    handler: (
      request: { url: string; headers: Record<string, string | string[] | undefined>; body?: unknown },
      reply: { code(status: number): { type(t: string): { send(body: string): unknown } } },
    ) => Promise<unknown>,
  ): void;
}

/** Options of {@link fastifyWebhook}: the handler options and the route's path. */
export interface FastifyWebhookOptions extends WebhookHandlerOptions {
  /** The route path, e.g. `/webhooks/pay`. */
  path: string;
}

/**
 * A Fastify plugin: `app.register(fastifyWebhook, { path: '/webhooks/pay', merchantId, secret, url, handler })`.
 * Register it as is (not through fastify-plugin), so its raw-body parser stays scoped to the route.
 * A body over `maxBodyBytes` is answered 413 by Fastify itself.
 */
export function fastifyWebhook(fastify: FastifyLike, options: FastifyWebhookOptions, done: (error?: Error) => void): void {
  const { handle, maxBodyBytes } = webhookProcessor(options);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (_req, body, parsed) =>
    parsed(null, body),
  );
  fastify.post(options.path, async (request, reply) => {
    // Fastify skips the parser for an empty body; the signed body is then the empty string.
    const answer = await handle({ method: 'POST', path: request.url, headers: request.headers, body: request.body ?? '' });
    return reply.code(answer.status).type('application/json').send(answer.body);
  });
  done();
}
