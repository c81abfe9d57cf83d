// The body handed to verifyWebhook, taken as the exact bytes received, without copying; or,
// when it is not bytes (a framework parsed it first, or nothing was passed), the advice to log,
// since such a body can never match its signature.

const ADVICE =
  'the webhook body must be the raw bytes received, but it was already parsed. ' +
  'Express: mount the @pay/webhook middleware before express.json() or give this route express.raw({ type: "*/*" }); ' +
  "Fastify: register the @pay/webhook plugin, which reads its route's body itself; " +
  'Fetch/Hono/Next.js: pass the Request itself (verifyWebhookRequest), not await request.json(); ' +
  'Node http: read the request stream into a Buffer.';

const MISSING = 'no webhook body was given; pass the raw bytes received (an empty body is the empty string)';

/**
 * The body as a string or bytes, exactly as received, or, when it is not (a parsed object, null,
 * undefined), the advice to log. Views on an ArrayBuffer are read without copying.
 */
export function exactBytes(body: unknown): string | Uint8Array | { advice: string } {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return { advice: body === undefined || body === null ? MISSING : ADVICE };
}
