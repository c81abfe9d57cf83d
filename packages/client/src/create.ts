// Creates that happen exactly once. The interface has no idempotency key: the merchant's
// reference_id and the lookup by it are the only handle. So a create whose answer is lost is
// never sent again blindly. It is looked up; and only once no attempt can still be accepted by
// the service (its x-timestamp is past the tolerance by the service's own clock, plus a settle
// margin) and a lookup still misses is it proven not created, and sent again with a new
// timestamp. The README walks through the algorithm and its worst-case time.
import type { PayError, RawResponse } from './errors.js';
import { BODY_SCHEMAS, isSameCreate } from '@pay/schema';
import { createRun, type CreateRun, type CreateSpec, type Found, type Lost, type Timed } from './create-run.js';
import { resolveDuplicate } from './create-duplicate.js';
import { reconcileLost } from './create-reconcile.js';
import { retrying } from './observe.js';
import type { Dated } from './response.js';
import { answerError, isSuccess, readRecord } from './response.js';
import { backoffMs, retryAfterMs, sleep } from './retry.js';
import type { Signer } from './signer.js';
import { nowSeconds } from './signer.js';
import type { Call } from './call-types.js';
import type { Outcome } from './call.js';
import { send } from './call.js';

/**
 * What a create returns. `reconciled: false`: the service's create answer (with `next_action`).
 * `reconciled: true`: the answer was lost, or the service refused the create as a duplicate (409)
 * or for its rate (429), and the record was found by its `reference_id`; `data` is then the lookup
 * record, which has no `next_action` (the README says how to go on without it).
 */
export type CreateResult<Created, Found> =
  | {
      readonly reconciled: false;
      /** The `reference_id` sent: the caller's, or the one generated for this create. */
      readonly referenceId: string;
      /** The create answer, with `next_action`. */
      readonly data: Created;
      /** The create's answer. */
      readonly response: RawResponse;
    }
  | {
      readonly reconciled: true;
      /** The `reference_id` sent, by which the record was found. */
      readonly referenceId: string;
      /** The record found by reference: the lookup shape, without `next_action`. */
      readonly data: Found;
      /** The lookup's answer. */
      readonly response: RawResponse;
    };

const encoder = /* @__PURE__ */ new TextEncoder();

/** Sends a create exactly once, whatever the network does. */
export async function createOnce<C extends Timed, L extends Timed>(
  call: Call,
  signer: Signer,
  spec: CreateSpec,
): Promise<CreateResult<Dated<C>, Dated<L>>> {
  const run = createRun<L>(call, signer, spec);
  // Encoded once: every attempt sends, and signs, exactly these bytes.
  const bytes = encoder.encode(spec.json);
  for (let sends = 1; ; sends++) {
    const timestamp = nowSeconds(call.settings.clock);
    const outcome = await send(call, {
      endpoint: spec.endpoint,
      method: 'POST',
      url: spec.url,
      headers: signer.post(spec.url, bytes, timestamp),
      body: bytes,
    });
    const next = await settleAttempt<C, L>(run, outcome, sends, timestamp);
    if (next === 'again') continue;
    if (next.kind === 'done') return next.result;
    const lost = next.lost;
    const proven = await reconcileLost(run, timestamp, lost);
    if (proven !== 'not created') return proven;
    if (sends > call.settings.retries) throw lost.error; // proven not created, and no re-send left
    run.event('resend', lost.reason);
  }
}

/** What one attempt's outcome leads to: a result, a lost answer to reconcile, or another send. */
type Next<C, L> = 'again' | { kind: 'done'; result: CreateResult<Dated<C>, Dated<L>> } | { kind: 'lost'; lost: Lost };

/** Reads one attempt's outcome: throws a refusal, returns a result, a lost answer, or 'again'. */
async function settleAttempt<C extends Timed, L extends Timed>(
  run: CreateRun<L>,
  outcome: Outcome,
  sends: number,
  timestamp: number,
): Promise<Next<C, L>> {
  const { call } = run;
  const { operation } = call;
  if (outcome.kind === 'aborted') {
    // Every earlier attempt was proven dead before this one was sent.
    if (!outcome.sent) throw outcome.reason;
    throw run.unknown(timestamp, 0, 'aborted by the caller', outcome.reason);
  }
  if (outcome.kind === 'failed') {
    if (outcome.sent) return { kind: 'lost', lost: { reason: outcome.reason, error: outcome.error } };
    // Provably never left (connection refused): safe to send again, like a lookup.
    await retryAfter(call, sends, () => backoffMs(sends), outcome.reason, outcome.error);
    return 'again';
  }
  const response = outcome.response;
  if (isSuccess(response.status)) {
    try {
      const data = readRecord<C>(operation, response, BODY_SCHEMAS[run.spec.endpoint.response!]);
      return { kind: 'done', result: { reconciled: false, referenceId: run.spec.referenceId, data, response } };
    } catch (error) {
      // Accepted, by the status; unreadable. The lookup tells what was created.
      return { kind: 'lost', lost: { reason: 'unreadable answer', error: error as PayError } };
    }
  }
  if (response.status === 409) return { kind: 'done', result: await resolveDuplicate(run, response) };
  if (response.status === 429) {
    const found = await afterRateLimit(run, response, sends);
    return found === undefined ? 'again' : { kind: 'done', result: found };
  }
  if (response.status >= 500)
    return { kind: 'lost', lost: { reason: `status ${response.status}`, error: answerError(operation, response) } };
  // Any other status is the service refusing the request: nothing was created.
  throw answerError(operation, response);
}

/**
 * A 429 is a refusal, not a lost answer: the request was not processed. Waits as asked, checks
 * that nothing was created all the same (the record found, when it is this create's), and leaves
 * the create to be sent again (undefined).
 */
async function afterRateLimit<L extends Timed>(run: CreateRun<L>, response: RawResponse, sends: number): Promise<Found<L> | undefined> {
  const { call } = run;
  const error = answerError(call.operation, response);
  const delayMs = () => retryAfterMs(response.headers, call.settings.clock.now()) ?? backoffMs(sends);
  await retryAfter(call, sends, delayMs, 'status 429', error);
  const p = await run.lookup();
  if (p.kind === 'found') {
    if (isSameCreate(run.spec.payment, p.result.data.payment)) return run.found(p.result, 'status 429');
    throw run.conflict(response);
  }
  if (p.kind === 'aborted') throw p.reason;
  return undefined;
}

/**
 * Waits before sending again, when re-sends are left and the time limit allows it; otherwise
 * throws `error` (or the caller's abort reason). The delay is worked out only once a re-send is
 * left (its backoff draws jitter).
 */
async function retryAfter(call: Call, sends: number, delay: () => number, reason: string, error: PayError): Promise<void> {
  if (sends > call.settings.retries) throw error;
  const delayMs = delay();
  retrying(call, { operation: call.operation, attempt: call.attempts + 1, delayMs, reason });
  const waited = call.settings.clock.now() + delayMs < call.deadline && (await sleep(call.settings.clock, delayMs, call.signal));
  if (!waited) {
    if (call.signal?.aborted) throw call.signal.reason;
    throw error;
  }
}
