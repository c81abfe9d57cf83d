// One admin call over the wire: the request sent (once more if its connection was reset before an
// answer and sending again is safe, retry.ts), the answer read within one time limit, and turned
// into its JSON value or a SandboxAdminError.
import { describeFailure } from '../failure.js';
import { readErrorAnswer } from './error-answer.js';
import { SandboxAdminError } from './error.js';
import { sendAgain } from './retry.js';
import type { Transport, TransportAnswer } from './transport.js';

/** One call, as the client describes it. */
export interface Exchange {
  send: Transport;
  /** The sandbox, in words, for messages. */
  where: string;
  timeoutMs: number;
  method: 'GET' | 'POST';
  url: string;
  /** The call, in words, for messages: `POST /_sandbox/faults`. */
  label: string;
  body: object | undefined;
  /** The admin token, if any. */
  token: string | undefined;
}

/** Sends one call and reads its answer within the time limit; the JSON answer, or a SandboxAdminError. */
export async function exchange<T>(x: Exchange): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // An in-process handler may not heed the signal: the race ends the wait all the same. Real time,
  // not a `@pay/clock` one: it is one exchange's deadline, bounding I/O (an advance of a test clock
  // that the sandbox runs takes real time too, and a test clock standing still must not hang it).
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new SandboxAdminError({ status: null, code: 'timeout', message: `${x.label}: no answer from ${x.where} within ${x.timeoutMs} ms` }),
      );
      controller.abort(); // after the reject: the timeout, not the abort it causes, is the outcome
    }, x.timeoutMs);
  });
  const answered = (async () => {
    const response = await sendOnce(x, controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted || !sendAgain(x.method, error)) throw error;
      return sendOnce(x, controller.signal);
    });
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new SandboxAdminError({
        status: response.status,
        code: 'network_error',
        message: `${x.label}: the answer of ${x.where} broke off (${describeFailure(error)})`,
        cause: error,
      });
    }
    return { response, text };
  })().catch((error: unknown) => {
    if (error instanceof SandboxAdminError) throw error;
    throw new SandboxAdminError({
      status: null,
      code: 'network_error',
      message: `${x.label}: cannot reach ${x.where} (${describeFailure(error)})`,
      cause: error,
    });
  });
  answered.catch(() => {}); // lost to the timer, it must not surface as an unhandled rejection
  try {
    const { response, text } = await Promise.race([answered, timedOut]);
    return read<T>(x, response.status, text);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends the request once. */
function sendOnce(x: Exchange, signal: AbortSignal): Promise<TransportAnswer> {
  const headers: Record<string, string> = {};
  if (x.body !== undefined) headers['content-type'] = 'application/json';
  if (x.token !== undefined) headers['authorization'] = `Bearer ${x.token}`;
  return x.send({ method: x.method, url: x.url, headers, body: x.body === undefined ? undefined : JSON.stringify(x.body), signal });
}

/** The value of a 2xx JSON answer, or the SandboxAdminError an answer stands for. */
function read<T>(x: Exchange, status: number, text: string): T {
  if (status >= 200 && status < 300) {
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new SandboxAdminError({
        status,
        code: 'invalid_response',
        message: `${x.label}: the answer (${status}) of ${x.where} is not JSON; is it a sandbox?`,
      });
    }
  }
  const refused = readErrorAnswer(status, text);
  if (refused === undefined) {
    throw new SandboxAdminError({
      status,
      code: 'invalid_response',
      message: `${x.label}: ${x.where} answered ${status} without the sandbox's error body; is it a sandbox?`,
    });
  }
  throw new SandboxAdminError({
    status,
    code: refused.code,
    message: refused.summary,
    reason: refused.reason,
    errors: refused.errors,
    ...(refused.hint === undefined ? {} : { hint: refused.hint }),
  });
}
