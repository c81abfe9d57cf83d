// Node's side of the Node, Express and Fastify adapters: the request stream pulled through the
// one bounded reader, the pipeline run, and the reply written on the response. Not part of the
// public API.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookCore } from '../core.js';
import type { IncomingWebhook } from '../incoming.js';
import type { BodyRead } from '../read-stream.js';
import { readStream } from '../read-stream.js';
import type { WebhookReply } from '../refusals.js';
import { refusalStatus } from '../refusals.js';

type Pull = AsyncIterator<unknown> & { return?(): Promise<unknown> };

/** Reads a Node request's body up to the limit; past it, the rest is discarded. */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  // An iterator that leaves the stream alive when abandoned, so the reply can still be written.
  const stream = req as IncomingMessage & { iterator?(options: { destroyOnReturn: boolean }): Pull };
  const chunks: Pull = typeof stream.iterator === 'function' ? stream.iterator({ destroyOnReturn: false }) : req[Symbol.asyncIterator]();
  const stop = () => {
    void chunks.return?.().catch(() => {});
    req.resume(); // discard the rest; the reply closes the connection
  };
  const declared = req.headers['content-length'];
  return readStream(() => chunks.next(), limit, typeof declared === 'string' ? declared : undefined, stop);
}

// The answers given without reading the whole body: after them the connection is closed, so a
// large remainder is never read just to be thrown away.
const ANSWERED_UNREAD = new Set((['method_not_allowed', 'body_too_large', 'unsupported_encoding'] as const).map(refusalStatus));

/** Writes a reply, closing the connection after an answer given without reading the whole body. */
function sendNodeReply(res: ServerResponse, answer: WebhookReply): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer.body)) };
  if (ANSWERED_UNREAD.has(answer.status)) headers['connection'] = 'close';
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** Runs the core on a Node request and writes its answer; an unexpected failure is a bare 500, never a stack trace. */
export async function answerNode(
  core: WebhookCore,
  req: IncomingMessage,
  res: ServerResponse,
  readBody: IncomingWebhook['readBody'],
  route?: string,
): Promise<void> {
  try {
    const answer = await core.handle({
      method: req.method ?? 'GET',
      path: (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/',
      headers: req.headers,
      readBody,
      route,
    });
    sendNodeReply(res, answer);
  } catch (error) {
    // Only a broken connection or a bug gets here; answer 500 (the service retries) rather than
    // leave an unhandled rejection or let a framework render the error.
    console.warn('@pay/webhook: 500 unexpected error', error);
    if (!res.headersSent) sendNodeReply(res, { status: 500, body: '{"error":"internal"}' });
    else res.destroy();
  }
}
