// One request from its arrival to its answer, around the dispatcher (dispatch.ts): its time on
// the sandbox's clock, the log line, the request log (service calls only), the Date header, and
// a 500 for anything that fails inside, so no exception escapes.
import { readHeader } from '@pay/sign';
import type { CoreContext } from './core-context.js';
import { dispatch, type Note } from './dispatch.js';
import type { HostRequest } from './host-request.js';
import { fail, type Reply } from './http.js';
import { maskedCut, maskHeader } from './masking.js';
import { serviceDateTime } from './records.js';
import { loggedBody, loggedErrors } from './request-log.js';
import type { State } from './state.js';

/** Answers one request. Never rejects. */
export async function handleRequest(core: CoreContext, incoming: HostRequest): Promise<Reply> {
  const { clock, state, logger } = core;
  // Arrival on the sandbox's clock: what signatures are judged by, and the request log's `at`.
  const arrivedAt = clock.now();
  // How long it took, for the log line and the request log only: real time, whatever the clock.
  const started = performance.now();
  // Where it arrived on the schedule clock, and among what else happened in that millisecond.
  const arrival = { at: state.schedule.now(), order: state.schedule.tick() };
  const note: Note = {};
  let answer: Reply;
  try {
    answer = await dispatch(core, incoming, arrivedAt, note);
  } catch (error) {
    core.onError(error);
    answer = fail(500, 'internal_error', 'the sandbox failed on this request');
  }
  const target = redactPath(incoming.url);
  const { code, hint } = answer.note ?? {};
  if (logger !== undefined && answer.note?.view !== true) {
    logger(
      `${incoming.method} ${target} ${answer.drop ? 'dropped' : answer.status} ${elapsed(started)}ms` +
        `${code ? ` ${code}` : ''}${note.fault ? ` fault=${note.fault}` : ''}${hint ? ` hint: ${hint}` : ''}`,
    );
  }
  if (note.service) await record(state, incoming, answer, target, { arrivedAt, started }, arrival, note);
  // The service's Date header, on the sandbox's clock: a client reads it to see how far the
  // service's clock is from its own (Node would otherwise write the machine's time).
  answer.headers['date'] = new Date(clock.now()).toUTCString();
  return answer;
}

/** Adds a request to a service endpoint to the request log. */
async function record(
  state: State,
  incoming: HostRequest,
  answer: Reply,
  target: string,
  { arrivedAt, started }: { arrivedAt: number; started: number },
  arrival: { at: number; order: number },
  note: Note,
): Promise<void> {
  let body: Uint8Array | undefined;
  try {
    body = await incoming.read();
  } catch {
    body = new Uint8Array(0);
  }
  const claimed = readHeader(incoming.headers, 'x-merchant-id');
  state.requests.add(
    {
      seq: 0, // numbered by the log
      at: new Date(arrivedAt).toISOString(),
      clock_at: serviceDateTime(arrival.at),
      merchant_id: claimed === undefined ? null : maskedCut(maskHeader('x-merchant-id', claimed), 64),
      method: maskedCut(incoming.method, 16),
      path: target,
      status: answer.drop ? null : answer.status,
      code: answer.note?.code ?? null,
      message: answer.note?.message ?? null,
      hint: answer.note?.hint ?? null,
      errors: loggedErrors(answer.note?.errors),
      duration_ms: elapsed(started),
      transaction_id: answer.note?.transactionId ?? null,
      fault: note.fault ?? null,
      body: incoming.method === 'GET' && body?.byteLength === 0 ? null : loggedBody(body, incoming.parsed),
    },
    arrival.order,
  );
  state.changed();
}

/** The request target for a log line and the request log: path and query, masked (the card push token too), then cut. */
function redactPath(url: string): string {
  return maskedCut(url.replace(/^https?:\/\/[^/?#]*/i, '') || '/', 300);
}

/** Whole milliseconds since `started` (a performance.now() reading). */
function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
