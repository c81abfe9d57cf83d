// Creates that happen exactly once. The interface has no idempotency key: the merchant's
// reference_id and the lookup by it are the only handle. So a create whose answer is lost is
// never sent again blindly. It is looked up; and only once no attempt can still be accepted by
// the service (its x-timestamp is past the tolerance by the service's own clock, plus a settle
// margin) and a lookup still misses is it proven not created, and sent again with a new
// timestamp. The README walks through the algorithm and its worst-case time.
import type { PayError, RawResponse } from './errors.js';
import { ApiError, OutcomeUnknownError } from './errors.js';
import { BODY_SCHEMAS, type Endpoint, isSameCreate } from '@pay/schema';
import type { ReconcileEvent } from './hooks.js';
import type { Result } from './lookup.js';
import { probe } from './lookup.js';
import { reconciling, retrying } from './observe.js';
import type { Dated } from './response.js';
import { answerError, isSuccess, readRecord } from './response.js';
import { backoffMs, retryAfterMs, sleep } from './retry.js';
import type { Signer } from './signer.js';
import { nowSeconds } from './signer.js';
import type { Call } from './call.js';
import { send } from './call.js';

type Timed = Record<'created_at' | 'updated_at' | 'expires_at', string> & { payment: { amount: unknown; currency: unknown } };

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

/** One create, as the client sends it. */
export interface CreateSpec {
  /** The create endpoint. */
  readonly endpoint: Endpoint;
  /** Its URL. */
  readonly url: string;
  /** The lookup by reference_id of the records it creates. */
  readonly lookupEndpoint: Endpoint;
  /** The lookup by this create's reference_id. */
  readonly lookupUrl: string;
  /** The validated body, reference_id included, as JSON text: serialised once. */
  readonly json: string;
  readonly referenceId: string;
  /** What a record found by reference must match to be this create's. */
  readonly payment: { readonly amount: number | string; readonly currency?: string | undefined };
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** Sends a create exactly once, whatever the network does. */
export async function createOnce<C extends Timed, L extends Timed>(
  call: Call,
  signer: Signer,
  spec: CreateSpec,
): Promise<CreateResult<Dated<C>, Dated<L>>> {
  const { settings, operation } = call;
  const referenceId = spec.referenceId;
  // Encoded once: every attempt sends, and signs, exactly these bytes.
  const bytes = encoder.encode(spec.json);
  const reconcileEvent = (step: ReconcileEvent['step'], reason: string, delayMs?: number) =>
    reconciling(call, { operation, referenceId, step, reason, ...(delayMs === undefined ? {} : { delayMs }) });

  const found = (result: Result<Dated<L>>, reason: string) => {
    reconcileEvent('found', reason);
    return { reconciled: true as const, referenceId, data: result.data, response: result.response };
  };

  /** Waits `ms` unless the time limit or the caller says otherwise; false when it cannot. */
  const pause = async (ms: number) => call.settings.clock.now() + ms < call.deadline && (await sleep(call.settings.clock, ms, call.signal));

  for (let sends = 1; ; sends++) {
    const timestamp = nowSeconds(call.settings.clock);
    const outcome = await send(call, {
      endpoint: spec.endpoint,
      method: 'POST',
      url: spec.url,
      headers: signer.post(spec.url, bytes, timestamp),
      body: bytes,
    });
    let lost: { reason: string; error: PayError };

    if (outcome.kind === 'aborted') {
      // Every earlier attempt was proven dead before this one was sent.
      if (!outcome.sent) throw outcome.reason;
      throw unknown(timestamp, 0, 'aborted by the caller', outcome.reason);
    }
    if (outcome.kind === 'failed') {
      if (!outcome.sent) {
        // Provably never left (connection refused): safe to send again, like a lookup.
        if (sends > settings.retries) throw outcome.error;
        const delayMs = backoffMs(sends);
        retrying(call, { operation, attempt: call.attempts + 1, delayMs, reason: outcome.reason });
        if (!(await pause(delayMs))) {
          if (call.signal?.aborted) throw call.signal.reason;
          throw outcome.error;
        }
        continue;
      }
      lost = { reason: outcome.reason, error: outcome.error };
    } else {
      const response = outcome.response;
      if (isSuccess(response.status)) {
        try {
          return {
            reconciled: false,
            referenceId,
            data: readRecord<C>(operation, response, BODY_SCHEMAS[spec.endpoint.response!]),
            response,
          };
        } catch (error) {
          // Accepted, by the status; unreadable. The lookup tells what was created.
          lost = { reason: 'unreadable answer', error: error as PayError };
        }
      } else if (response.status === 409) {
        return await resolveDuplicate(response);
      } else if (response.status === 429) {
        // A refusal, not a lost answer: the request was not processed. Wait as asked, check that
        // nothing was created all the same, and send again.
        const error = answerError(operation, response);
        if (sends > settings.retries) throw error;
        const delayMs = retryAfterMs(response.headers, call.settings.clock.now()) ?? backoffMs(sends);
        retrying(call, { operation, attempt: call.attempts + 1, delayMs, reason: 'status 429' });
        if (!(await pause(delayMs))) {
          if (call.signal?.aborted) throw call.signal.reason;
          throw error;
        }
        const p = await probe<L>(call, signer, spec.lookupEndpoint, spec.lookupUrl);
        if (p.kind === 'found') {
          if (isSameCreate(spec.payment, p.result.data.payment)) return found(p.result, 'status 429');
          throw conflict(response);
        }
        if (p.kind === 'aborted') throw p.reason;
        continue;
      } else if (response.status >= 500) {
        lost = { reason: `status ${response.status}`, error: answerError(operation, response) };
      } else {
        // Any other status is the service refusing the request: nothing was created.
        throw answerError(operation, response);
      }
    }

    const proven = await reconcile(timestamp, lost);
    if (proven !== 'not created') return proven;
    if (sends > settings.retries) throw lost.error; // proven not created, and no re-send left
    reconcileEvent('resend', lost.reason);
  }

  /**
   * Settles an attempt whose answer was lost: the record found by reference, or 'not created'
   * once that is proven, or an OutcomeUnknownError when time runs out first.
   */
  async function reconcile(timestamp: number, lost: { reason: string; error: PayError }) {
    // The service accepts the attempt only while its clock reads at most timestamp + tolerance
    // (whole seconds, so before timestamp + tolerance + 1); an accepted create is visible to
    // lookups within settleSeconds after that. From `deadAt` on, by the service's clock, a lookup
    // that misses proves the attempt will never create anything.
    const deadAtSeconds = timestamp + settings.toleranceSeconds + 1 + settings.settleSeconds;
    let behindMs = 0; // how far the service's clock was seen behind the client's
    reconcileEvent('lookup', lost.reason);
    for (let poll = 1; ; poll++) {
      const p = await probe<L>(call, signer, spec.lookupEndpoint, spec.lookupUrl);
      const untilDead = deadAtSeconds * 1000 - call.settings.clock.now();
      let delayMs: number;
      if (p.kind === 'found') {
        if (isSameCreate(spec.payment, p.result.data.payment)) return found(p.result, lost.reason);
        throw unknown(
          timestamp,
          behindMs,
          `${lost.reason}; reference_id is used by another transaction with a different amount or currency`,
          lost.error,
        );
      } else if (p.kind === 'aborted') {
        throw unknown(timestamp, behindMs, `${lost.reason}; aborted by the caller`, p.reason);
      } else if (p.kind === 'fatal') {
        throw unknown(timestamp, behindMs, `${lost.reason}; the lookup failed`, p.error);
      } else if (p.kind === 'missing' && p.sentAt >= deadAtSeconds * 1000) {
        // Sent after deadAt by our clock. Proven if the service's clock agrees (or says nothing);
        // otherwise wait as long as it is behind, and look again.
        if (p.serverSeconds === undefined || p.serverSeconds >= deadAtSeconds) return 'not created' as const;
        behindMs = (deadAtSeconds - p.serverSeconds) * 1000;
        delayMs = behindMs;
      } else {
        // Missing before deadAt, or no usable answer (none, 429, 5xx, or one that cannot be read:
        // a lost answer, like the create's own): poll with backoff, and look up once more right at
        // deadAt.
        const backoff = (p.kind === 'transient' ? p.retryAfterMs : undefined) ?? backoffMs(poll);
        delayMs = untilDead > 0 ? Math.min(backoff, untilDead) : p.kind === 'missing' ? 0 : backoff;
      }
      delayMs = Math.max(0, delayMs);
      if (call.settings.clock.now() + delayMs >= call.deadline) {
        // The last lookup's answer, when it could not be read, is what an operator needs to see.
        const last = p.kind === 'unreadable' ? ` (the last lookup: ${p.error.message})` : '';
        throw unknown(timestamp, behindMs, `${lost.reason}; no time left in totalTimeoutMs to prove it was not created${last}`, lost.error);
      }
      reconcileEvent('waiting', lost.reason, delayMs);
      if (!(await sleep(call.settings.clock, delayMs, call.signal))) {
        throw unknown(timestamp, behindMs, `${lost.reason}; aborted by the caller`, call.signal?.reason);
      }
    }
  }

  /** A 409: the service has a record with this reference_id. It is the result if it is ours. */
  async function resolveDuplicate(response: RawResponse) {
    reconcileEvent('lookup', 'status 409');
    for (let poll = 1; ; poll++) {
      const p = await probe<L>(call, signer, spec.lookupEndpoint, spec.lookupUrl);
      if (p.kind === 'found') {
        if (isSameCreate(spec.payment, p.result.data.payment)) return found(p.result, 'status 409');
        throw conflict(response);
      }
      if (p.kind === 'aborted')
        throw unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; aborted by the caller', p.reason);
      if (p.kind === 'fatal') throw unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; the lookup failed', p.error);
      // Missing although the service says it exists (lookups lag behind), or no usable answer:
      // look again.
      const delayMs = (p.kind === 'transient' ? p.retryAfterMs : undefined) ?? backoffMs(poll);
      if (call.settings.clock.now() + delayMs >= call.deadline) {
        throw unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id, but no lookup found it in time', p.error);
      }
      reconcileEvent('waiting', 'status 409', delayMs);
      if (!(await sleep(call.settings.clock, delayMs, call.signal)))
        throw unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; aborted by the caller', call.signal?.reason);
    }
  }

  function conflict(response: RawResponse): ApiError {
    return new ApiError(
      operation,
      response,
      `reference_id ${JSON.stringify(referenceId)} already belongs to another transaction (different amount or currency); nothing was created`,
    );
  }

  function unknown(timestamp: number, behindMs: number, reason: string, cause: unknown): OutcomeUnknownError {
    const decidableAt = new Date((timestamp + settings.toleranceSeconds + 1 + settings.settleSeconds) * 1000 + behindMs);
    reconcileEvent('unknown', reason);
    return new OutcomeUnknownError(operation, referenceId, decidableAt, reason, cause);
  }
}
