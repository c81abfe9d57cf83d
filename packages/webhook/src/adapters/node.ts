// Node's http: read the exact bytes from the request stream (bounded), answer on the response.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IncomingWebhook, WebhookHandlerOptions, WebhookReply } from '../process.js';
import { DEFAULT_MAX_BODY_BYTES, webhookProcessor } from '../process.js';
import { refusal } from '../verify.js';

/** Reads a Node request's body, up to `limit` bytes, into what the pipeline takes. */
export async function readNodeBody(req: IncomingMessage, limit: number): Promise<Pick<IncomingWebhook, 'body' | 'refused'>> {
  const tooLarge = { body: undefined, refused: refusal('body_too_large', `the webhook body is larger than ${limit} bytes`) };
  if (Number(req.headers['content-length']) > limit) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume(); // discard the rest; the reply closes the connection
      return tooLarge;
    }
    chunks.push(chunk);
  }
  return { body: Buffer.concat(chunks, size) };
}

/** Writes a reply; closes the connection after a 413, whose body may still be arriving. */
export function sendNodeReply(res: ServerResponse, answer: WebhookReply): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer.body)) };
  if (answer.status === 413) headers.connection = 'close';
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

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
  const process = webhookProcessor(options);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (req, res) => {
    try {
      const read = req.method === 'POST' ? await readNodeBody(req, limit) : { body: '' };
      sendNodeReply(res, await process({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, ...read }));
    } catch (error) {
      // Only a broken connection or a bug gets here; answer 500 (the service retries) rather
      // than leave an unhandled rejection.
      console.warn('@pay/webhook: 500 unexpected error', error);
      if (!res.headersSent) sendNodeReply(res, { status: 500, body: '{"error":"internal"}' });
      else res.destroy();
    }
  };
}
