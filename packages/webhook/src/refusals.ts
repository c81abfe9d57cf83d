// Every way the receiver says no, in one place: why a webhook is refused or its delivery failed,
// the HTTP status each deserves, and the answer the caller gets. The status is what the service
// acts on (2xx: done; anything else: it retries), so this table is the receiver's retry policy.
// The answer carries the reason only: messages and hints are for the merchant's logs.
import type { VerifyFailureReason } from '@pay/sign';

/** Why a webhook was refused. The signature reasons are the harness protocol's, in its order. */
export type WebhookFailureReason =
  | VerifyFailureReason
  /** The body was handed over already parsed: a setup mistake, answered 500 so the service retries. */
  | 'parsed_body'
  /** The signature is right but the body is not JSON (UTF-8). */
  | 'invalid_json'
  /** The body is JSON but not a webhook payload (an object with `id` and `status` strings). */
  | 'invalid_payload'
  /** The body was larger than the limit (reading a request only). */
  | 'body_too_large'
  /** The body could not be read to its end: the connection failed mid-body (reading a request only). */
  | 'unreadable_body'
  /**
   * The request declares a `content-encoding` other than identity (reading a request only): the
   * signature is over the bytes the service sent, so a compressed body is refused, never inflated.
   */
  | 'unsupported_encoding';

/** Why the pipeline refused a request before or during verification. */
export type RefusalReason = WebhookFailureReason | 'method_not_allowed';

/** Why a verified webhook was not processed, or not remembered as processed. */
export type DeliveryFailureReason = 'handler_failed' | 'in_progress' | 'store_failed';

/** A refused webhook: why, and what was wrong, for logs. */
export interface WebhookRefusal {
  ok: false;
  reason: WebhookFailureReason;
  /** What was wrong, for logs; never a secret, a header value or the URL's query. Not for the HTTP response. */
  message: string;
  /**
   * On `bad_signature`: the near miss that would have matched, when one does (for logs). It is
   * worked out when first read, from a few bounded variants, so a forged request that nobody logs
   * costs one HMAC.
   */
  readonly hint?: string | undefined;
}

/** A refused webhook or a failed handler, as told to `onRefused`, with the status answered. */
export type WebhookFailure =
  | { ok: false; reason: RefusalReason; message: string; status: number; hint?: string }
  | { ok: false; reason: 'handler_failed'; message: string; status: 500; error: unknown }
  | { ok: false; reason: 'in_progress'; message: string; status: 409 }
  | { ok: false; reason: 'store_failed'; message: string; status: 503 | 500 | 200; error: unknown };

// A class, not an object literal with a getter: a forged request creates one, and an accessor
// property on a literal is slower to create than a class instance (see the README's
// Benchmarks).
class Refused implements WebhookRefusal {
  readonly ok = false as const;
  #hint: (() => string | undefined) | string | undefined;
  constructor(
    readonly reason: WebhookFailureReason,
    readonly message: string,
    hint: (() => string | undefined) | undefined,
  ) {
    this.#hint = hint;
  }
  get hint(): string | undefined {
    if (typeof this.#hint === 'function') this.#hint = this.#hint();
    return this.#hint;
  }
  /** For loggers that serialise the refusal: the hint included, worked out now. */
  toJSON(): object {
    const hint = this.hint;
    return hint === undefined ? { ...this } : { ...this, hint };
  }
}

/** A refusal; `hint`, when given, is worked out on first read. */
export function refusal(reason: WebhookFailureReason, message: string, hint?: () => string | undefined): WebhookRefusal {
  return new Refused(reason, message, hint);
}

/**
 * The HTTP status answered for each refusal. Signature failures are 401; a correctly signed body
 * that is not a payload is 400; a setup mistake (a parsed body) is 500 so the service retries once
 * it is fixed.
 */
const REFUSAL_STATUS: Readonly<Record<RefusalReason, number>> = {
  missing_header: 401,
  malformed_timestamp: 401,
  expired: 401,
  merchant_mismatch: 401,
  malformed_signature: 401,
  bad_signature: 401,
  invalid_json: 400,
  invalid_payload: 400,
  unreadable_body: 400,
  method_not_allowed: 405,
  body_too_large: 413,
  unsupported_encoding: 415,
  parsed_body: 500,
};

/**
 * The HTTP status answered when a verified webhook's delivery fails. 409: another attempt of the
 * same delivery is being processed, and acknowledging this one would lose the event if that
 * attempt failed. 500: the handler threw, so the service retries. 503: the delivery store failed
 * before the handler ran, so nothing was processed and the service retries (after it, see
 * `storeFailureStatus`).
 */
const DELIVERY_STATUS = { in_progress: 409, handler_failed: 500, store_failed: 503 } as const;

/**
 * The HTTP status the webhook handlers answer for a refusal reason: 401 for the signature checks,
 * 400 for a signed body that is not a payload, 405, 413, 415, and 500 for a parsed body (a setup
 * mistake, so the service retries once it is fixed). For code that verifies by hand.
 *
 * @example
 * ```ts
 * const result = verifyWebhook({ ...config, headers, body });
 * if (!result.ok) return new Response(null, { status: refusalStatus(result.reason) });
 * ```
 */
export function refusalStatus(reason: RefusalReason): number {
  return REFUSAL_STATUS[reason] ?? 500;
}

/** The status answered for a failed delivery (see `DELIVERY_STATUS`). */
export function deliveryFailureStatus<R extends DeliveryFailureReason>(reason: R): (typeof DELIVERY_STATUS)[R] {
  return DELIVERY_STATUS[reason];
}

/**
 * The status reported with a delivery store failure, which is the status answered: 503 when the
 * handler has not run (nothing was processed: the service retries); once it has, the handler's
 * outcome stands, 200 when it processed the event (the service must not send it again) and 500
 * when it threw.
 */
export function storeFailureStatus(handler: 'not_run' | 'processed' | 'failed'): 503 | 200 | 500 {
  return handler === 'not_run' ? DELIVERY_STATUS.store_failed : handler === 'processed' ? 200 : DELIVERY_STATUS.handler_failed;
}

/** An answer: the status the service acts on, and a JSON body for whoever reads its delivery log. */
export interface WebhookReply {
  status: number;
  body: string;
}

/**
 * What the pipeline made of a request: processed (now, or as a duplicate of an earlier attempt),
 * refused, or verified but not processed. The answer and the telemetry are both derived from it.
 */
export type Verdict =
  | { readonly kind: 'processed' | 'duplicate' }
  | { readonly kind: 'refused'; readonly reason: RefusalReason }
  | { readonly kind: 'failed'; readonly reason: DeliveryFailureReason };

// A failure's answer: its status and its reason, nothing more.
const errorReply = (status: number, reason: RefusalReason | DeliveryFailureReason): WebhookReply => ({
  status,
  body: JSON.stringify({ error: reason }),
});

/** The answer a verdict gets. */
export function replyTo(verdict: Verdict): WebhookReply {
  switch (verdict.kind) {
    case 'processed':
      return { status: 200, body: '{"ok":true}' };
    case 'duplicate':
      return { status: 200, body: '{"ok":true,"duplicate":true}' };
    case 'refused':
      return errorReply(refusalStatus(verdict.reason), verdict.reason);
    case 'failed':
      return errorReply(DELIVERY_STATUS[verdict.reason], verdict.reason);
  }
}
