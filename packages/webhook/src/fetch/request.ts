// A Fetch `Request` as the pipeline reads it: its body through the one bounded reader, and its
// path. Shared by the Fetch adapter and verifyWebhookRequest.
import type { IncomingWebhook } from '../incoming.js';
import type { BodyRead } from '../read-stream.js';
import { readStream } from '../read-stream.js';

const USED =
  'the Request body was already read (request.json(), request.text() or a middleware), so its exact bytes are gone; ' +
  'pass the Request to @pay/webhook before anything reads it';

/** Reads a Fetch body up to the limit; past it, the stream is cancelled. */
export function fetchBody(request: Request): IncomingWebhook['readBody'] {
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
    return readStream(() => reader.read(), limit, request.headers.get('content-length') ?? undefined, stop);
  };
}

/** The path and query of an absolute URL, by string search: nothing to parse, nothing to throw. */
export function pathOf(url: string): string {
  const authority = url.indexOf('//');
  const slash = url.indexOf('/', authority < 0 ? 0 : authority + 2);
  if (slash < 0) return '/';
  const hash = url.indexOf('#', slash);
  return hash < 0 ? url.slice(slash) : url.slice(slash, hash);
}
