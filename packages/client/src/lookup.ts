// Lookups by id and by reference_id: safe to repeat, so retried on network errors, timeouts, 429
// and 5xx, with backoff and Retry-After. `probe` is one attempt, for reconciling creates.
import { BODY_SCHEMAS, type Endpoint } from '@pay/schema';
import type { PayError, RawResponse } from './errors.js';
import { NotFoundError } from './errors.js';
import { retrying } from './observe.js';
import type { Dated } from './response.js';
import { answerError, isSuccess, readRecord } from './response.js';
import { backoffMs, retryAfterMs, sleep } from './retry.js';
import { nowSeconds, type Signer } from './signer.js';
import type { Call } from './call-types.js';
import { send } from './call.js';

/** What a lookup (or a card push) returns: the record and the raw answer it came from. */
export interface Result<T> {
  /**
   * The record, typed; unknown fields and statuses pass through; datetimes are `Date`s. For a card
   * push, null when the answer is not the payin's record (see `pushCard`).
   */
  readonly data: T;
  /** The service's answer: status, headers, body text. */
  readonly response: RawResponse;
}

/** One lookup attempt, as reconciliation needs to tell its outcomes apart. */
export type Probe<T> =
  | { readonly kind: 'found'; readonly result: Result<Dated<T>> }
  /** A clean 404. `sentAt`: client time the request was sent; `serverSeconds`: its `Date` header. */
  | { readonly kind: 'missing'; readonly error: PayError; readonly sentAt: number; readonly serverSeconds: number | undefined }
  /** Worth trying again: no answer, 429 or 5xx. */
  | { readonly kind: 'transient'; readonly error: PayError; readonly reason: string; readonly retryAfterMs: number | undefined }
  /**
   * An answer that says nothing: a 2xx that is not a readable record (cut short, HTML, empty,
   * another shape), or a 404 that is not JSON (a proxy's page, not the service's "no such
   * record"). Neither found nor missing: reconciliation treats it as a lost answer.
   */
  | { readonly kind: 'unreadable'; readonly error: PayError }
  /** The service refused the lookup: another status. */
  | { readonly kind: 'fatal'; readonly error: PayError }
  | { readonly kind: 'aborted'; readonly reason: unknown };

/** True for the statuses a lookup is retried on: 429 and 5xx. */
function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The service's clock from a `Date` header, in whole seconds, when there is a readable one. */
function serverSeconds(response: RawResponse): number | undefined {
  const value = response.headers.get('date');
  const ms = value === null ? Number.NaN : Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** One GET of `url`, a lookup `endpoint`, signed afresh; the record checked against the endpoint's answer schema. */
export async function probe<T extends Record<'created_at' | 'updated_at' | 'expires_at', string>>(
  call: Call,
  signer: Signer,
  endpoint: Endpoint,
  url: string,
): Promise<Probe<T>> {
  const sentAt = call.settings.clock.now();
  const outcome = await send(call, { endpoint, method: 'GET', url, headers: signer.get(url, nowSeconds(call.settings.clock)) });
  if (outcome.kind === 'aborted') return { kind: 'aborted', reason: outcome.reason };
  if (outcome.kind === 'failed') return { kind: 'transient', error: outcome.error, reason: outcome.reason, retryAfterMs: undefined };
  const response = outcome.response;
  if (isSuccess(response.status)) {
    try {
      return { kind: 'found', result: { data: readRecord<T>(call.operation, response, BODY_SCHEMAS[endpoint.response!]), response } };
    } catch (error) {
      return { kind: 'unreadable', error: error as PayError };
    }
  }
  const error = answerError(call.operation, response);
  if (error instanceof NotFoundError) return { kind: 'missing', error, sentAt, serverSeconds: serverSeconds(response) };
  if (response.status === 404) return { kind: 'unreadable', error };
  if (retryableStatus(response.status)) {
    return {
      kind: 'transient',
      error,
      reason: `status ${response.status}`,
      retryAfterMs: retryAfterMs(response.headers, call.settings.clock.now()),
    };
  }
  return { kind: 'fatal', error };
}

/**
 * A lookup, retried up to `retries` times on network errors, timeouts, 429 and 5xx. An unreadable
 * answer is not retried: asked by the caller, it is reported (InvalidResponseError, or an
 * ApiError for a 404 that is not the service's); only reconciliation, which must decide, asks again.
 */
export async function lookup<T extends Record<'created_at' | 'updated_at' | 'expires_at', string>>(
  call: Call,
  signer: Signer,
  endpoint: Endpoint,
  url: string,
): Promise<Result<Dated<T>>> {
  for (let retry = 1; ; retry++) {
    const p = await probe<T>(call, signer, endpoint, url);
    if (p.kind === 'found') return p.result;
    if (p.kind === 'aborted') throw p.reason;
    if (p.kind !== 'transient' || retry > call.settings.retries) throw p.error;
    const delayMs = p.retryAfterMs ?? backoffMs(retry);
    // A wait that would end past the time limit only delays the same error.
    if (call.settings.clock.now() + delayMs >= call.deadline) throw p.error;
    retrying(call, { operation: call.operation, attempt: call.attempts + 1, delayMs, reason: p.reason });
    if (!(await sleep(call.settings.clock, delayMs, call.signal))) throw call.signal?.reason;
  }
}
