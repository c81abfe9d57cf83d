// Reading a Node request's body and writing the reply: shared by the Node and Express adapters,
// and not part of the public API.
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IncomingWebhook, WebhookReply } from './process.js';
import { refusal } from './verify.js';

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
