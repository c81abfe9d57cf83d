// One HTTP attempt: send the exact bytes with their headers (through the settings' exchanger),
// honour the per-attempt and total time limits and the caller's AbortSignal, and say what
// happened without throwing: an answer, a failure (and whether the request may have been sent),
// or the caller's abort.
import type { Call } from './call-types.js';
import type { Operation, RawResponse } from './errors.js';
import { NetworkError, TimeoutError } from './errors.js';
import type { Exchanged, Request } from './exchange.js';
import { watchRequest } from './observe.js';
import type { Settings } from './options.js';
import { endTimeLimit, startTimeLimit } from './time-limits.js';

// Call has its own file (call-types.ts) so observe.ts and telemetry.ts can name it without
// importing this one: they would close an import circle.

/** Starts a call: checks the caller's signal, fixes the deadline. */
export function startCall(settings: Settings, operation: Operation, signal: AbortSignal | undefined, referenceId?: string): Call {
  // Checked whole, before anything is sent: a look-alike without the listener methods would fail
  // only after the request had left.
  if (
    signal !== undefined &&
    !(
      typeof signal === 'object' &&
      signal !== null &&
      typeof signal.aborted === 'boolean' &&
      typeof signal.addEventListener === 'function' &&
      typeof signal.removeEventListener === 'function'
    )
  ) {
    throw new TypeError(`${operation}: options.signal must be an AbortSignal`);
  }
  const call: Call = {
    settings,
    operation,
    signal,
    deadline: settings.clock.now() + settings.totalTimeoutMs,
    attempts: 0,
    telemetry: undefined,
  };
  return referenceId === undefined ? call : { ...call, referenceId };
}

/** What one attempt came to. */
export type Outcome =
  | { readonly kind: 'answer'; readonly response: RawResponse }
  /** `sent: false` only when the request provably never left (connection refused, unknown host, still waiting for a connection). */
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
  const left = call.deadline - settings.clock.now();
  if (left <= 0) {
    const error = new TimeoutError(operation, `no time left in totalTimeoutMs (${settings.totalTimeoutMs} ms)`);
    return { kind: 'failed', error, sent: false, reason: 'timeout' };
  }
  const watched = watchRequest(call, request, ++call.attempts);
  // The attempt's own exchange: its time limit stops it, and so does the caller's signal.
  const exchange = watched === undefined ? settings.exchange(request) : watched.send(settings.exchange, request);
  // Two limits on two clocks. One attempt's (`timeoutMs`) bounds the network: real time, on the
  // shared timer. The whole call's (`totalTimeoutMs`) is business time, on the client's clock,
  // armed only when it comes first; a test clock stands still while the request is in flight, so
  // there it never cuts an exchange short, however slow the machine.
  const timeLimit = startTimeLimit(exchange, settings.timeoutMs);
  let overTotal = false;
  const cancelTotal =
    left < settings.timeoutMs
      ? settings.clock.alarm(
          left,
          () => {
            overTotal = true;
            exchange.abort();
          },
          { unref: true },
        )
      : undefined;
  const onAbort = () => exchange.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const done = await exchange.done;
  endTimeLimit(timeLimit);
  cancelTotal?.();
  signal?.removeEventListener('abort', onAbort);
  const outcome = outcomeOf(call, request, done, overTotal ? 'total' : timeLimit.expired ? 'attempt' : undefined);
  if (watched !== undefined) {
    if (outcome.kind === 'answer') watched.answered(outcome.response.status);
    else watched.failed(outcome.kind === 'aborted' ? 'aborted' : outcome.reason);
  }
  return outcome;
}

/** What an exchange that has settled came to. */
function outcomeOf(call: Call, request: Request, done: Exchanged, expired: 'attempt' | 'total' | undefined): Outcome {
  const { settings, operation, signal } = call;
  if (done.kind === 'answer') {
    const raw: RawResponse = {
      status: done.status,
      headers: done.headers,
      body: request.redact ? request.redact(done.text) : done.text,
      truncated: done.truncated,
    };
    return { kind: 'answer', response: raw };
  }
  if (expired !== undefined) {
    const what = expired === 'attempt' ? `timeoutMs (${settings.timeoutMs} ms)` : `totalTimeoutMs (${settings.totalTimeoutMs} ms)`;
    const message = `no complete answer within ${what}`;
    return { kind: 'failed', error: new TimeoutError(operation, message), sent: done.unsent !== true, reason: 'timeout' };
  }
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason, sent: done.unsent !== true };
  const { error, answered } = done;
  const sent = answered || (done.unsent !== true && !provenNotSent(error));
  const message = answered ? 'the connection failed while the answer was being read' : 'the request failed';
  const detail = describe(error);
  return {
    kind: 'failed',
    error: new NetworkError(operation, `${message}${detail ? ` (${detail})` : ''}`, undefined, { cause: error }),
    sent,
    reason: 'network error',
  };
}

/** A short description of a failure: its codes (Node's, undici's) and message, nothing else. */
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
