// Reads a request body stream up to a limit: the one reader behind every adapter. Node streams
// and Fetch bodies alike are pulled chunk by chunk and abandoned as soon as they pass the limit,
// so an oversized or endless body costs at most `limit` bytes of memory. It never throws: a
// stream that fails (the client went away mid-body) is an unreadable body, answered like any
// other refusal.

const encoder = new TextEncoder();

/** A body as the pipeline takes it: the exact bytes, or why there are none. */
export type BodyRead =
  | { ok: true; body: string | Uint8Array }
  | { ok: false; reason: 'body_too_large' | 'unreadable_body' | 'parsed_body'; message: string };

/** One pull from a body stream, as a Node async iterator and a Fetch stream reader both give it. */
export type PullChunk = () => Promise<{ done?: boolean; value?: unknown }>;

/** The refusal of a body over `limit` bytes. */
export function tooLarge(limit: number): BodyRead {
  return { ok: false, reason: 'body_too_large', message: `the webhook body is larger than ${limit} bytes` };
}

/**
 * Reads a body stream into one byte array of at most `limit` bytes. A declared `content-length`
 * over the limit is refused before anything is read; a stream that turns out longer is refused as
 * soon as it passes the limit, and `stop` is called so the adapter can discard or cancel the rest.
 */
export async function readStream(pull: PullChunk, limit: number, declaredLength: string | undefined, stop: () => void): Promise<BodyRead> {
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    stop();
    return tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await pull();
      if (done) break;
      // A Node stream someone put in string mode gives text; valid UTF-8 encodes back to the same bytes.
      const chunk = value instanceof Uint8Array ? value : typeof value === 'string' ? encoder.encode(value) : undefined;
      if (chunk === undefined) continue;
      size += chunk.byteLength;
      if (size > limit) {
        stop();
        return tooLarge(limit);
      }
      chunks.push(chunk);
    }
  } catch {
    stop();
    return {
      ok: false,
      reason: 'unreadable_body',
      message: 'the webhook body could not be read to its end (the connection failed mid-body)',
    };
  }
  if (chunks.length === 1) return { ok: true, body: chunks[0]! };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, body: bytes };
}
