// Deliveries: a verified webhook handed to the merchant's handler once. The service retries a
// webhook until it gets a 2xx (at once, then after 15 min, 30 min and 1 h) and signs each attempt
// anew, and the payload carries no delivery id, so a delivery is known by what it says:
// (transaction id, status). A status change is processed once; the same change arriving again is
// acknowledged without calling the handler. Here: the store that remembers deliveries, and the
// flow around the handler (claim, handle, complete, or release so the service's retry is processed).
import type { WebhookEvent } from './parse-payload.js';
import { deliveryFailureStatus, storeFailureStatus } from './refusals.js';
import type { DeliveryFailureReason } from './refusals.js';
import type { Report } from './report.js';

/** What a store knows of a delivery key. */
export type ClaimResult = 'claimed' | 'in_progress' | 'done';

/**
 * Where delivery keys live. The in-memory store serves one process; several instances behind a
 * load balancer need a shared one: `redisStore` from `@pay/webhook/redis`, or your own.
 * Any failure (a throw, a rejection, a claim answer other than the three values) is a store
 * failure: before the handler ran it is answered 503, so the service retries.
 */
export interface DeliveryStore {
  /**
   * Atomically marks `key` in progress for `leaseMs`, held by `token`, unless it is already known;
   * says what it found. The lease is short so that a receiver that dies while processing does not
   * block the service's later attempts: once it lapses, the next attempt claims the delivery again.
   * `token` is unique to each attempt (the pipeline makes it), so a release can tell whose claim
   * it gives back.
   */
  claim(key: string, leaseMs: number, token: string): ClaimResult | Promise<ClaimResult>;
  /** Marks `key` done, for `ttlMs`. */
  complete(key: string, ttlMs: number): void | Promise<void>;
  /**
   * Gives back the claim on `key` (the handler failed), so the service's next attempt is
   * processed, but only while `token` still holds it: once the lease lapsed another attempt may
   * have claimed the key, and a late release must not hand that claim to a third. A key already
   * marked done stays done.
   */
  release(key: string, token: string): void | Promise<void>;
}

/**
 * How long a processed delivery is remembered: longer than the whole retry schedule (0 + 15 + 30
 * + 60 minutes), with room for a slow receiver and clock drift.
 */
export const DEFAULT_DELIVERY_TTL_MS = 3 * 60 * 60 * 1000;

/**
 * How long a claim on a delivery being processed holds: longer than a handler should take, and
 * shorter than the 15 minutes before the service's second retry, so a delivery whose processing
 * died is processed again by that retry.
 */
export const DEFAULT_PROCESSING_LEASE_MS = 5 * 60 * 1000;

/** The key of a delivery: transaction id and status, unambiguous whatever they contain. */
export function deliveryKey(event: { id: string; status: string }): string {
  return JSON.stringify([event.id, event.status]);
}

/** What delivering needs: the handler, where deliveries are remembered (if anywhere), for how long, and where failures go. */
export interface DeliverySetup {
  handler: (event: WebhookEvent) => unknown;
  store: DeliveryStore | undefined;
  processingLeaseMs: number;
  deliveryTtlMs: number;
  report: Report;
}

/** How a delivery ended: processed (by this attempt, or by an earlier one: `duplicate`), or why not. */
export type Delivered = { ok: true; duplicate: boolean } | { ok: false; reason: DeliveryFailureReason };

/**
 * Delivers a verified event: claims it in the store, calls the handler, then marks it done, or,
 * when the handler throws, gives the claim back so that the service's retry is processed. Reports
 * every failure on the way; never throws. A store that fails (a shared store unreachable, say)
 * must not crash the receiver nor lose the event: before the handler it is a failed delivery (the
 * service retries); after it, the handler's outcome stands and the store failure is reported.
 */
export async function deliver(event: WebhookEvent, setup: DeliverySetup): Promise<Delivered> {
  const { store, report } = setup;
  const key = deliveryKey(event);
  // A store failure is reported with the status the handler's outcome calls for (before it ran:
  // the service must retry; after it: what the handler did stands).
  const reportStoreFailure = (handler: 'not_run' | 'processed' | 'failed', message: string, error: unknown) =>
    report({ ok: false, reason: 'store_failed', message, status: storeFailureStatus(handler), error });
  const storeFailed = (message: string, error: unknown): Delivered => {
    reportStoreFailure('not_run', message, error);
    return { ok: false, reason: 'store_failed' };
  };
  // This attempt's own token: a release gives back only the claim this attempt holds.
  const token = store ? globalThis.crypto.randomUUID() : '';
  if (store) {
    let claim: unknown;
    try {
      claim = await store.claim(key, setup.processingLeaseMs, token);
    } catch (error) {
      return storeFailed(`the delivery store failed to claim ${key}`, error);
    }
    if (claim === 'done') return { ok: true, duplicate: true };
    if (claim === 'in_progress') {
      // Another attempt of this very delivery is being processed right now. Acknowledging it would
      // lose the event if that attempt then fails; the service must try again later.
      report({
        ok: false,
        reason: 'in_progress',
        message: `delivery ${key} is being processed by another attempt`,
        status: deliveryFailureStatus('in_progress'),
      });
      return { ok: false, reason: 'in_progress' };
    }
    if (claim !== 'claimed') {
      // Taking an unknown answer as a claim could process a delivery twice; as anything else,
      // lose it. Only a retry is safe.
      const error = new TypeError('a DeliveryStore claim must answer "claimed", "in_progress" or "done"');
      return storeFailed(`the delivery store answered an unknown claim result for ${key}`, error);
    }
  }
  try {
    await setup.handler(event);
  } catch (error) {
    try {
      report({
        ok: false,
        reason: 'handler_failed',
        message: `the handler failed for delivery ${key}`,
        status: deliveryFailureStatus('handler_failed'),
        error,
      });
    } finally {
      // Whatever the report did, the claim is given back, so the service's retry is processed
      // rather than refused as in progress until the lease ends.
      if (store) {
        try {
          await store.release(key, token);
        } catch (releaseError) {
          // The claim then lapses after its lease, and a later attempt is processed.
          reportStoreFailure('failed', `the delivery store failed to release ${key}`, releaseError);
        }
      }
    }
    return { ok: false, reason: 'handler_failed' };
  }
  if (store) {
    try {
      await store.complete(key, setup.deliveryTtlMs);
    } catch (error) {
      // Processed: the service must not send it again, so the delivery still counts as processed.
      reportStoreFailure('processed', `the delivery store failed to complete ${key}`, error);
    }
  }
  return { ok: true, duplicate: false };
}
