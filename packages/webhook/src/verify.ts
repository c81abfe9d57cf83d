// The core: verify a webhook's signature over the exact bytes and URL, then read its payload.
import { validate, WebhookPayload } from '@pay/schema';
import type { HeadersLike, VerifyFailureReason } from '@pay/sign';
import { verifyRequest } from '@pay/sign';
import { nearMiss } from './near-miss.js';
import { ParsedBodyError, rawBody } from './raw-body.js';

/** Why a webhook was refused. The signature reasons are the harness protocol's, in its order. */
export type WebhookFailureReason =
  | VerifyFailureReason
  /** The body was handed over already parsed: a setup mistake, answered 500 so the service retries. */
  | 'parsed_body'
  /** The signature is right but the body is not JSON. */
  | 'invalid_json'
  /** The body is JSON but not a webhook payload (`id`, `status` strings, an object). */
  | 'invalid_payload'
  /** The body was larger than the adapter's limit. */
  | 'body_too_large';

/** A webhook whose signature and payload checked out. */
export type WebhookEvent = WebhookPayload & Record<string, unknown>;

/** The verdict of {@link verifyWebhook}. */
export type WebhookResult =
  | {
      ok: true;
      /** The payload: `id`, `reference_id`, `status`, and any field the service added, kept. */
      event: WebhookEvent;
      /** Which of `secrets` matched (0 for a single `secret`). */
      secretIndex: number;
    }
  | {
      ok: false;
      reason: WebhookFailureReason;
      /** What was wrong, for logs; never a secret. Not for the HTTP response. */
      message: string;
      /** The HTTP status to answer: 401 for signature checks, 400 for a bad body, 413, or 500. */
      status: number;
      /** On `bad_signature`: the near miss that would have matched, when one does (for logs). */
      hint?: string;
    };

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
}

/** Options of {@link verifyWebhook}: the config plus what was received. */
export interface VerifyWebhookOptions extends WebhookConfig {
  /** The exact body received: text, bytes or an ArrayBuffer; never a parsed object. */
  body: unknown;
  /** The headers received: a Fetch `Headers` or an object with any-case names. */
  headers: HeadersLike;
  /** The receiver's clock in unix seconds (default now). */
  now?: number;
}

const STATUS: Record<WebhookFailureReason, number> = {
  missing_header: 401,
  malformed_timestamp: 401,
  expired: 401,
  merchant_mismatch: 401,
  malformed_signature: 401,
  bad_signature: 401,
  invalid_json: 400,
  invalid_payload: 400,
  body_too_large: 413,
  parsed_body: 500,
};

/** A refusal with its HTTP status. */
export function refusal(reason: WebhookFailureReason, message: string, hint?: string): WebhookResult & { ok: false } {
  return hint === undefined ? { ok: false, reason, message, status: STATUS[reason] } : { ok: false, reason, message, status: STATUS[reason], hint };
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a webhook: its signature over the exact body and URL (the checks of `@pay/sign`, in
 * the harness protocol's order), then its payload against `WebhookPayload`. Never throws for
 * anything a request can contain; a body that was parsed before it got here is refused as
 * `parsed_body` with advice for the framework at hand.
 *
 * @throws TypeError only for an unusable configuration (no secret, empty merchant id, a URL that
 *   is not absolute http(s)).
 * @example
 * ```ts
 * const result = verifyWebhook({ merchantId: 'm_1', secret, url: 'https://shop.example/webhooks/pay',
 *   headers: req.headers, body: rawBody });
 * if (result.ok) await markPaid(result.event.reference_id, result.event.status);
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookResult {
  let body: string | Uint8Array;
  try {
    body = rawBody(options.body);
  } catch (error) {
    if (error instanceof ParsedBodyError) return refusal('parsed_body', error.message);
    throw error;
  }
  const { merchantId, secret, secrets, url, headers, now, toleranceSeconds } = options;
  const verdict = verifyRequest({ merchantId, secret, secrets, method: 'POST', url, headers, body, now, toleranceSeconds });
  if (!verdict.ok) {
    const hint = verdict.reason === 'bad_signature' ? nearMiss({ ...options, body }) : undefined;
    return refusal(verdict.reason, verdict.message, hint);
  }
  return readPayload(body, verdict.secretIndex);
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
