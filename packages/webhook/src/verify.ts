// The verifier: a webhook's signature over the exact bytes and URL, then its payload. It says why
// a webhook is refused; which HTTP status that deserves is the pipeline's business (core.ts).
import { validate, WebhookPayload } from '@pay/schema';
import type { HeadersLike, VerifyFailureReason } from '@pay/sign';
import { verifyRequest } from '@pay/sign';
import { lazyHint } from './near-miss.js';
import { rawBody } from './raw-body.js';

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

/** A webhook whose signature and payload checked out. */
export type WebhookEvent = WebhookPayload & Record<string, unknown>;

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

/** The verdict of {@link verifyWebhook}. */
export type WebhookResult =
  | {
      ok: true;
      /** The payload: `id`, `reference_id`, `status`, and any field the service added, kept. */
      event: WebhookEvent;
      /** Which of `secrets` matched (0 for a single `secret`). */
      secretIndex: number;
    }
  | WebhookRefusal;

/** What identifies a merchant's webhooks: its id, secret(s), and the exact URL the service signs. */
export interface WebhookConfig {
  /** The merchant id the webhook must be addressed to. */
  merchantId: string;
  /** The merchant secret key. */
  secret?: string;
  /** Several keys while rotating; the result says which matched. */
  secrets?: readonly string[];
  /**
   * The exact address the service signed: the `webhook_url` given at creation, or the static
   * webhook address, with its trailing slash and query. Never rebuilt from the request.
   */
  url: string;
  /** Largest accepted clock difference, seconds (default 60, the interface's). */
  toleranceSeconds?: number;
  /**
   * The receiver's clock: a function returning unix milliseconds, like `Date.now` (the default).
   * Every clock in this package has this shape; tests pass their own to drive time.
   */
  now?: () => number;
}

/** Options of {@link verifyWebhook}: the config plus what was received. */
export interface VerifyWebhookOptions extends WebhookConfig {
  /** The exact body received: text, bytes or an ArrayBuffer; never a parsed object. */
  body: unknown;
  /** The headers received: a Fetch `Headers` or an object with any-case names. */
  headers: HeadersLike;
}

// A class, not an object literal with a getter: a forged request creates one, and a class
// instance costs a few nanoseconds where an accessor property costs about a microsecond.
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

// Fatal: bytes that are not UTF-8 are not JSON. The BOM is kept, so bytes and text agree: JSON.parse refuses it in both.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Verifies a webhook: its signature over the exact body and URL (the checks of `@pay/sign`, in
 * the harness protocol's order), then its payload against `WebhookPayload`. Never throws for
 * anything a request can contain; a body that was parsed before it got here is refused as
 * `parsed_body` with advice for the framework at hand. Which HTTP status a refusal deserves is
 * {@link refusalStatus}'s answer.
 *
 * @throws TypeError only for an unusable configuration (no secret, empty merchant id, a URL that
 *   is not absolute http(s), a clock that is not a function).
 * @example
 * ```ts
 * const result = verifyWebhook({ merchantId: 'm_1', secret, url: 'https://shop.example/webhooks/pay',
 *   headers: req.headers, body: rawBody });
 * if (result.ok) await markPaid(result.event.reference_id, result.event.status);
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookResult {
  let body: ReturnType<typeof rawBody>;
  try {
    body = rawBody(options.body);
  } catch {
    body = rawBody(undefined); // a hostile object whose prototype cannot even be read
  }
  if (typeof body === 'object' && !(body instanceof Uint8Array)) return refusal('parsed_body', body.advice);
  const { merchantId, secret, secrets, url, headers, toleranceSeconds } = options;
  const clock = options.now;
  if (clock !== undefined && typeof clock !== 'function') {
    throw new TypeError('now must be a function returning unix milliseconds, like Date.now');
  }
  const now = Math.floor((clock ?? Date.now)() / 1000);
  const verdict = verifyRequest({ merchantId, secret, secrets, method: 'POST', url, headers, body, now, toleranceSeconds });
  if (verdict.ok) return readPayload(body, verdict.secretIndex);
  if (verdict.reason !== 'bad_signature') return refusal(verdict.reason, verdict.message);
  const signed = body;
  return refusal(verdict.reason, verdict.message, () =>
    lazyHint({ merchantId, secrets: secrets ?? (secret === undefined ? [] : [secret]), url, headers, body: signed, now, toleranceSeconds }),
  );
}

function readPayload(body: string | Uint8Array, secretIndex: number): WebhookResult {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    return refusal('invalid_json', 'the webhook body is signed correctly but is not JSON (UTF-8)');
  }
  const checked = validate(WebhookPayload, value);
  if (!checked.ok) {
    const where = checked.errors.map((e) => `${e.path || '(body)'}: ${e.message}`).join('; ');
    return refusal('invalid_payload', `the webhook body is signed correctly but is not a webhook payload: ${where}`);
  }
  return { ok: true, event: value as WebhookEvent, secretIndex };
}
