// The body must be verified as the exact bytes received. This is where a parsed body is caught,
// with advice for the framework at hand, before it can fail as a mysterious bad signature.

/** A raw body as a framework can hand it over. */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Why a body could not be used: it is not raw. */
export class ParsedBodyError extends Error {
  override readonly name = 'ParsedBodyError';
}

const ADVICE =
  'the webhook body must be the raw bytes received, but it was already parsed. ' +
  'Express: mount the @pay/webhook middleware before express.json() or give this route express.raw({ type: "*/*" }); ' +
  'Fastify: register the @pay/webhook plugin, which parses its route as a Buffer; ' +
  'Fetch/Hono/Next.js: pass the Request itself (verifyWebhookRequest), not await request.json(); ' +
  'Node http: read the request stream into a Buffer.';

/** The body as a string or bytes, signed as received; throws ParsedBodyError for anything else. */
export function rawBody(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body === undefined || body === null) {
    throw new ParsedBodyError('no webhook body was given; pass the raw bytes received (an empty body is the empty string)');
  }
  throw new ParsedBodyError(ADVICE);
}
