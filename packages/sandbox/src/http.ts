// What every route takes and gives: the request as the core sees it (`Incoming`, made from a Fetch
// `Request` or straight from Node's request), the answer (`Reply`, turned into a Fetch `Response`
// or written straight to Node's response), JSON answers, the error body, bounded body reading.
import type { HeadersLike } from '@pay/sign';
import type { ErrorBody, FieldError } from './wire/errors.js';
import { maskText } from './masking.js';

/** The largest request body the sandbox reads, in bytes; a larger one is answered 413. */
export const MAX_BODY_BYTES = 64 * 1024;

export type { ErrorBody, FieldError } from './wire/errors.js';

/** A request as the core reads it. */
export interface Incoming {
  /** The method in capitals. */
  method: string;
  /** The exact URL called. */
  url: string;
  headers: HeadersLike;
  /** The body's bytes, or undefined when it is larger than MAX_BODY_BYTES. */
  read(): Promise<Uint8Array | undefined>;
  /**
   * What the body parsed to, once an endpoint parsed it: the request log masks this value rather
   * than decoding and parsing the same bytes again. Nothing changes a parsed body (validators and
   * records only read it).
   */
  parsed?: { value: unknown };
}

// Marks the objects made here as replies: a parsed request body can never pass for one.
const REPLY: unique symbol = Symbol('reply');

/** What the request log and the log line say of an answer, beyond its status. */
interface ReplyNote {
  /** `error.code` of a refusal. */
  code?: string;
  /** `error.message` of a refusal. */
  message?: string;
  /** `error.hint` of a refusal. */
  hint?: string;
  /** `error.errors` of a refusal (a 400's field errors). */
  errors?: readonly FieldError[];
  /** The transaction the request created or read. */
  transactionId?: string;
  /**
   * A look at the dashboard (one of its pages, its script, its change feed, the favicon): no log
   * line. The log is for what code and customers do; each view would add three lines.
   */
  view?: boolean;
}

/** An answer. `drop`: destroy the connection instead of sending it (an injected fault). */
export interface Reply {
  [REPLY]: true;
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | null;
  drop?: boolean;
  note?: ReplyNote;
}

/**
 * Sent with every answer. No page of the sandbox may be framed (a framed payment page or dashboard
 * can be clicked through a decoy), and no answer may be sniffed into another content type.
 */
const SAFE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

/**
 * The Content-Security-Policy every page works under: scripts only from the sandbox's own files
 * (no inline script, no inline event handler), styles inline, requests only to the sandbox, and
 * never framed.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = NO_HEADERS): Reply {
  const answer = reply(status, JSON_HEADERS, JSON.stringify(body));
  for (const name in headers) answer.headers[name] = headers[name]!;
  return answer;
}

/** An HTML page. */
export function html(status: number, body: string): Reply {
  return reply(
    status,
    { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': PAGE_CSP },
    body,
  );
}

/** A reply marked as a look at the dashboard (ReplyNote.view): it gets no log line. */
export function view(answer: Reply): Reply {
  answer.note = { ...answer.note, view: true };
  return answer;
}

/** A redirect (`status` 303 or 308) to `location`. */
export function redirect(status: number, location: string): Reply {
  return reply(status, { location, 'cache-control': 'no-store' }, null);
}

/** Any answer. */
export function reply(status: number, headers: Record<string, string>, body: Reply['body']): Reply {
  // Copied name by name: every answer has its own headers object (a route may add one), and an
  // object spread costs V8 ten times more than the loop.
  const all: Record<string, string> = {};
  for (const name in SAFE_HEADERS) all[name] = SAFE_HEADERS[name as keyof typeof SAFE_HEADERS];
  for (const name in headers) all[name] = headers[name]!;
  return { [REPLY]: true, status, headers: all, body };
}

/** Whether a value is a Reply (a route's early answer) rather than what it was reading. */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && (value as Partial<Reply>)[REPLY] === true;
}

/**
 * An error answer `{error: {code, message, ...}}`. Its message, hint and field errors pass the
 * masking rule (masking.ts) here, where every refusal is written: a sentence may quote what the
 * caller sent (a query, a path, a key), and the answer, the log line and the request log all
 * carry the one masked sentence, whichever code path wrote it.
 */
export function fail(
  status: number,
  code: string,
  message: string,
  extra: Omit<ErrorBody['error'], 'code' | 'message'> = {},
  headers: Record<string, string> = {},
): Reply {
  const shown = maskText(message);
  const hint = extra.hint === undefined ? undefined : maskText(extra.hint);
  const errors = extra.errors?.map((e) => ({ path: maskText(e.path), message: maskText(e.message) }));
  const error = {
    code,
    message: shown,
    ...extra,
    ...(hint === undefined ? {} : { hint }),
    ...(errors === undefined ? {} : { errors }),
  };
  const answer = json(status, { error } satisfies ErrorBody, headers);
  answer.note = {
    code,
    message: shown,
    ...(hint === undefined ? {} : { hint }),
    ...(errors === undefined ? {} : { errors }),
  };
  return answer;
}

/** 400 `invalid_request` listing every field error. */
export function invalid(message: string, errors: readonly FieldError[]): Reply {
  return fail(400, 'invalid_request', message, { errors });
}

/** 405 with the `Allow` header. */
export function methodNotAllowed(method: string, allowed: readonly string[]): Reply {
  return fail(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(' or ')}`, {}, { allow: allowed.join(', ') });
}

/**
 * A Fetch request's body as bytes, read up to `limit` (the stream is cancelled as soon as it passes
 * the limit, so an endless body costs nothing), or `undefined` when it is larger.
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
  // What nearly every client sends, recognised without splitting it.
  if (value === 'application/json' || value === 'application/json; charset=utf-8') return true;
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
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // V8's message quotes part of the input, which may be card data: only its position is kept.
    const position = error instanceof SyntaxError ? /position (\d+)/.exec(error.message)?.[1] : undefined;
    return { ok: false, message: `the body is not JSON${position === undefined ? '' : ` (error at character ${position})`}` };
  }
}
