// Small Fetch helpers shared by every route: JSON answers, the error body, bounded body reading.

/** The largest request body the sandbox reads, in bytes; a larger one is answered 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** One problem with a request, at a dotted field path (`''` for the body itself). */
export interface FieldError {
  path: string;
  message: string;
}

/** The body of every error answer: a stable `code`, a sentence, and field errors for a 400. */
export interface ErrorBody {
  error: { code: string; message: string; errors?: readonly FieldError[]; id?: string };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** An error answer `{error: {code, message, ...}}`. */
export function fail(status: number, code: string, message: string, extra: Omit<ErrorBody['error'], 'code' | 'message'> = {}, headers: Record<string, string> = {}): Response {
  return json(status, { error: { code, message, ...extra } } satisfies ErrorBody, headers);
}

/** 400 `invalid_request` listing every field error. */
export function invalid(message: string, errors: readonly FieldError[]): Response {
  return fail(400, 'invalid_request', message, { errors });
}

/** 405 with the `Allow` header. */
export function methodNotAllowed(method: string, allowed: readonly string[]): Response {
  return fail(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(' or ')}`, {}, { allow: allowed.join(', ') });
}

/**
 * The request body as bytes, read up to `limit` (a stream is cancelled as soon as it passes the
 * limit, so an endless body costs nothing), or `undefined` when it is larger.
 */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length')) > limit) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Whether a `content-type` is JSON: the media type `application/json` (any case), with at most a
 * `charset` parameter, which must then be UTF-8 (the only encoding JSON allows on the wire).
 */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || /^charset="?utf-8"?$/.test(p));
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses JSON bytes: the value, or a sentence saying why they are not JSON. */
export function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  if (bytes.byteLength === 0) return { ok: false, message: 'the body is empty; send a JSON object' };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, message: 'the body is not valid UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // V8's message quotes part of the input, which may be card data: only its position is kept.
    const position = error instanceof SyntaxError ? /position (\d+)/.exec(error.message)?.[1] : undefined;
    return { ok: false, message: `the body is not JSON${position === undefined ? '' : ` (error at character ${position})`}` };
  }
}
