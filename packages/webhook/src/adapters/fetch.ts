// The Fetch adapter: `Request` in, `Response` out, for Hono, Next.js route handlers, Bun, Deno and
// edge workers; and verifyWebhookRequest, the by-hand check of a Fetch `Request`.
import type { BodyRead } from '../body.js';
import { readBounded } from '../body.js';
import type { IncomingWebhook } from '../core.js';
import { createWebhookCore, encodingRefusal } from '../core.js';
import type { WebhookHandlerOptions } from '../options.js';
import { DEFAULT_MAX_BODY_BYTES } from '../options.js';
import type { VerifyWebhookOptions, WebhookResult } from '../verify.js';
import { refusal, verifyWebhook } from '../verify.js';

const USED =
  'the Request body was already read (request.json(), request.text() or a middleware), so its exact bytes are gone; ' +
  'pass the Request to @pay/webhook before anything reads it';

/** Reads a Fetch body through the one bounded reader. */
function fetchBody(request: Request): IncomingWebhook['readBody'] {
  return (limit): Promise<BodyRead> => {
    const stream = request.body;
    if (stream === null) return Promise.resolve({ ok: true, body: new Uint8Array(0) });
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      reader = stream.getReader();
    } catch {
      return Promise.resolve({ ok: false, reason: 'parsed_body', message: USED });
    }
    const stop = () => void reader.cancel().catch(() => {});
    return readBounded(() => reader.read(), limit, request.headers.get('content-length') ?? undefined, stop);
  };
}

/** The path and query of an absolute URL, by string search: nothing to parse, nothing to throw. */
function pathOf(url: string): string {
  const authority = url.indexOf('//');
  const slash = url.indexOf('/', authority < 0 ? 0 : authority + 2);
  if (slash < 0) return '/';
  const hash = url.indexOf('#', slash);
  return hash < 0 ? url.slice(slash) : url.slice(slash, hash);
}

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
  const encoding = encodingRefusal(request.headers);
  if (encoding !== undefined) return encoding;
  const read = await fetchBody(request)(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  if (!read.ok) return refusal(read.reason, read.message);
  return verifyWebhook({ ...options, headers: request.headers, body: read.body });
}

/**
 * A Fetch handler for webhooks: `(request) => Promise<Response>`. Answers 200 once `handler`
 * has processed the event (or for a duplicate of one already processed), 4xx for a webhook that
 * fails verification, 409 while the same delivery is being processed, 500 when `handler` throws,
 * 503 when the delivery store fails, so the service retries. It never rejects.
 *
 * @throws TypeError when created with unusable options.
 * @example
 * ```ts
 * // Hono
 * const onWebhook = createWebhookHandler({ merchantId, secret, url, handler: (event) => orders.update(event) });
 * app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));
 * // Next.js route handler: export const POST = createWebhookHandler({ ... });
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const core = createWebhookCore(options);
  return async (request) => {
    const answer = await core.handle({ method: request.method, path: pathOf(request.url), headers: request.headers, readBody: fetchBody(request) });
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}
