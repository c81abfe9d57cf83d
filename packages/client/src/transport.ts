// One HTTP attempt: send the exact bytes with their headers, honour the per-attempt and total time
// limits and the caller's AbortSignal, read at most READ_LIMIT bytes of the answer, and say what
// happened without throwing: an answer, a failure (and whether the request may have been sent),
// or the caller's abort.
import type { Operation, RawResponse } from './errors.js';
import { NetworkError, TimeoutError } from './errors.js';
import { emit } from './hooks.js';
import type { Settings } from './options.js';
import { endTimeLimit, startTimeLimit } from './time-limits.js';

/** Bytes of an answer read at most; the rest is never read. */
export const READ_LIMIT = 1024 * 1024;

/** One call to the client (`payins.create`, ...): its time budget, signal and attempt counter. */
export interface Call {
  readonly settings: Settings;
  readonly operation: Operation;
  readonly signal: AbortSignal | undefined;
  /** When the whole call must be over, in epoch milliseconds. */
  readonly deadline: number;
  /** HTTP requests made so far. */
  attempts: number;
  readonly referenceId?: string;
}

/** Starts a call: checks the caller's signal, fixes the deadline. */
export function startCall(settings: Settings, operation: Operation, signal: AbortSignal | undefined, referenceId?: string): Call {
  if (signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof signal.aborted === 'boolean')) {
    throw new TypeError(`${operation}: options.signal must be an AbortSignal`);
  }
  const call: Call = { settings, operation, signal, deadline: Date.now() + settings.totalTimeoutMs, attempts: 0 };
  return referenceId === undefined ? call : { ...call, referenceId };
}

/** A request to send. */
export interface Request {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array<ArrayBuffer>;
  /** The URL as hooks may show it (a push address has its token masked). */
  readonly shownUrl?: string;
  /** Removes card data the service might echo from the answer before anyone sees it. */
  readonly redact?: (text: string) => string;
}

/** What one attempt came to. */
export type Outcome =
  | { readonly kind: 'answer'; readonly response: RawResponse }
  /** `sent: false` only when the request provably never left (connection refused, unknown host). */
  | { readonly kind: 'failed'; readonly error: NetworkError | TimeoutError; readonly sent: boolean; readonly reason: string }
  | { readonly kind: 'aborted'; readonly reason: unknown; readonly sent: boolean };

// Errors raised before any byte of the request could leave: nothing reached the service.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function provenNotSent(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Sends one request and reads its answer. Never throws. */
export async function send(call: Call, request: Request): Promise<Outcome> {
  const { settings, operation, signal } = call;
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason, sent: false };
  const limit = Math.min(settings.timeoutMs, call.deadline - Date.now());
  if (limit <= 0) {
    const error = new TimeoutError(operation, `no time left in totalTimeoutMs (${settings.totalTimeoutMs} ms)`);
    return { kind: 'failed', error, sent: false, reason: 'timeout' };
  }
  const attempt = ++call.attempts;
  const { onRequest, onResponse } = settings.hooks;
  const event =
    onRequest === undefined && onResponse === undefined
      ? undefined
      : {
          operation,
          method: request.method,
          url: request.shownUrl ?? request.url,
          attempt,
          ...(call.referenceId === undefined ? {} : { referenceId: call.referenceId }),
        };
  // The attempt's own controller: its time limit aborts it, and so does the caller's signal.
  const controller = new AbortController();
  const timeLimit = startTimeLimit(controller, limit);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (event !== undefined) emit(onRequest, event);
  const started = event === undefined ? 0 : Date.now();
  let answered = false;
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal, redirect: 'manual' };
    if (request.body !== undefined) init.body = request.body;
    const fetchFn = settings.fetch; // called unbound: some runtimes' fetch refuses another `this`
    const response = await fetchFn(request.url, init);
    answered = true;
    const { text, truncated } = await readText(response);
    const raw: RawResponse = {
      status: response.status,
      headers: response.headers,
      body: request.redact ? request.redact(text) : text,
      truncated,
    };
    if (event !== undefined) emit(onResponse, { ...event, status: raw.status, durationMs: Date.now() - started });
    return { kind: 'answer', response: raw };
  } catch (error) {
    if (timeLimit.expired) {
      const what = limit === settings.timeoutMs ? `timeoutMs (${limit} ms)` : `totalTimeoutMs (${settings.totalTimeoutMs} ms)`;
      const message = `no complete answer within ${what}`;
      return { kind: 'failed', error: new TimeoutError(operation, message), sent: true, reason: 'timeout' };
    }
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason, sent: true };
    const sent = answered || !provenNotSent(error);
    const message = answered ? 'the connection failed while the answer was being read' : 'the request failed';
    const detail = describe(error);
    return {
      kind: 'failed',
      error: new NetworkError(operation, `${message}${detail ? ` (${detail})` : ''}`, undefined, { cause: error }),
      sent,
      reason: 'network error',
    };
  } finally {
    endTimeLimit(timeLimit);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A short description of a fetch failure: undici's cause code and message, nothing else. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 3; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') parts.push(code);
    else if (typeof message === 'string' && message !== 'fetch failed') parts.push(message.slice(0, 200));
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}

const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * The body as text, at most READ_LIMIT bytes of it. A body whose declared length fits is read in
 * one go (the fast path); otherwise it is streamed and the stream cancelled at the limit, so a
 * huge or endless answer costs at most the limit in memory.
 */
async function readText(response: Response): Promise<{ text: string; truncated: boolean }> {
  const declared = response.headers.get('content-length');
  if (response.body === null) return { text: '', truncated: false };
  if (declared !== null && /^[0-9]{1,9}$/.test(declared) && Number(declared) <= READ_LIMIT) {
    return { text: await response.text(), truncated: false };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > READ_LIMIT) {
      chunks.push(value.subarray(0, READ_LIMIT - size));
      size = READ_LIMIT;
      reader.cancel().catch(() => {});
      return { text: decode(chunks, size), truncated: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: decode(chunks, size), truncated: false };
}

function decode(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return decoder.decode(all);
}
