// A request as an adapter hands it to the pipeline, and the first step of the pipeline: reading
// its exact body, the same way for every adapter. Only an identity content-encoding is read at
// all, and a body reader that fails is an unreadable body, never a throw.
import type { HeadersLike } from '@pay/sign';
import { readHeader } from '@pay/sign';
import type { BodyRead } from './read-stream.js';
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

/** A request as an adapter hands it over. */
export interface IncomingWebhook {
  method: string;
  headers: HeadersLike;
  /** The request's path and query as received (used only with `trustProxyHeaders`). */
  path: string;
  /** The framework's route template for this request (`/webhooks/pay`), when it has one: names its telemetry. */
  route?: string | undefined;
  /**
   * Reads the exact body, at most `limit` bytes (the one bounded reader of read-stream.ts, or a
   * buffer a framework already read). Called only once the method and encoding are acceptable;
   * never throws.
   */
  readBody(limit: number): Promise<BodyRead>;
}

/**
 * The content-encoding rule, the same for every adapter: only identity is accepted. The signature
 * covers the bytes the service sent; a body that arrives compressed is not those bytes, and
 * inflating it would spend unbounded work (a zip bomb) on a request not yet authenticated.
 */
function encodingRefusal(headers: HeadersLike): WebhookRefusal | undefined {
  const encoding = readHeader(headers, 'content-encoding');
  if (encoding === undefined) return undefined;
  const name = encoding.trim().toLowerCase();
  if (name === '' || name === 'identity') return undefined;
  return refusal(
    'unsupported_encoding',
    'the request declares a content-encoding other than identity; the signature covers the exact bytes the service sends, so a compressed body is refused, never inflated',
  );
}

/**
 * The exact body of a request, at most `limit` bytes, or why there is none: a content-encoding
 * other than identity (refused before anything is read), a body over the limit, a body already
 * consumed, or a reader that failed.
 */
export async function readIncoming(
  incoming: Pick<IncomingWebhook, 'headers' | 'readBody'>,
  limit: number,
): Promise<{ ok: true; body: string | Uint8Array } | WebhookRefusal> {
  const encoding = encodingRefusal(incoming.headers);
  if (encoding !== undefined) return encoding;
  let read: BodyRead;
  try {
    read = await incoming.readBody(limit);
  } catch {
    read = { ok: false, reason: 'unreadable_body', message: 'the webhook body could not be read' };
  }
  return read.ok ? read : refusal(read.reason, read.message);
}
