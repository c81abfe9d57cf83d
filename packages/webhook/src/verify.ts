// The verifier: a webhook's signature over the exact bytes and URL, then its payload. It says why
// a webhook is refused; which HTTP status that deserves is the policy of refusals.ts.
import type { HeadersLike } from '@pay/sign';
import { verifyRequest } from '@pay/sign';
import { type Clock, clockOption } from '@pay/clock';
import { exactBytes } from './exact-bytes.js';
import { lazyHint } from './near-miss.js';
import type { VerifiedWebhook } from './parse-payload.js';
import { parsePayload } from './parse-payload.js';
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

/** The verdict of {@link verifyWebhook}. */
export type WebhookResult = VerifiedWebhook | WebhookRefusal;

/** What identifies a merchant's webhooks: its id, secret(s), and the exact URL the service signs. */
export interface WebhookConfig {
  /** The merchant id the webhook must be addressed to. */
  merchantId: string;
  /** The merchant secret key. */
  secret?: string | undefined;
  /** Several keys while rotating; the result says which matched. */
  secrets?: readonly string[] | undefined;
  /**
   * The exact address the service signed: the `webhook_url` given at creation, or the static
   * webhook address, with its trailing slash and query. Never rebuilt from the request.
   */
  url: string;
  /** Largest accepted clock difference, seconds (default 60, the interface's). */
  toleranceSeconds?: number | undefined;
  /**
   * The receiver's clock (`@pay/clock`), the machine's when not given. Tests pass a test clock to
   * move the receiver's time together with the sandbox's.
   */
  clock?: Clock | undefined;
}

/** Options of {@link verifyWebhook}: the config plus what was received. */
export interface VerifyWebhookOptions extends WebhookConfig {
  /** The exact body received: text, bytes or an ArrayBuffer; never a parsed object. */
  body: unknown;
  /** The headers received: a Fetch `Headers` or an object with any-case names. */
  headers: HeadersLike;
}

/**
 * Checks a webhook's signature over its exact bytes and URL (the checks of `@pay/sign`, in the
 * harness protocol's order). A `bad_signature` refusal carries a `hint`, worked out when read.
 *
 * @throws TypeError for a clock that is not a Clock.
 */
export function verifySignature(
  config: Omit<VerifyWebhookOptions, 'body'>,
  body: string | Uint8Array,
): { ok: true; secretIndex: number } | WebhookRefusal {
  const { merchantId, secret, secrets, url, headers, toleranceSeconds } = config;
  const now = Math.floor(clockOption(config.clock).now() / 1000);
  const verdict = verifyRequest({ merchantId, secret, secrets, method: 'POST', url, headers, body, now, toleranceSeconds });
  if (verdict.ok) return verdict;
  if (verdict.reason !== 'bad_signature') return refusal(verdict.reason, verdict.message);
  return refusal(verdict.reason, verdict.message, () =>
    lazyHint({ merchantId, secrets: secrets ?? (secret === undefined ? [] : [secret]), url, headers, body }),
  );
}

/**
 * Verifies a webhook: its signature over the exact body and URL (the checks of `@pay/sign`, in
 * the harness protocol's order), then its payload against `WebhookPayload`. Never throws for
 * anything a request can contain; a body that was parsed before it got here is refused as
 * `parsed_body` with advice for the framework at hand. Which HTTP status a refusal deserves is
 * {@link refusalStatus}'s answer.
 *
 * @throws TypeError only for an unusable configuration (no secret, empty merchant id, a URL that
 *   is not absolute http(s), a clock that is not a Clock).
 * @example
 * ```ts
 * const result = verifyWebhook({ merchantId: 'm_1', secret, url: 'https://shop.example/webhooks/pay',
 *   headers: req.headers, body: rawBody });
 * if (result.ok) await markPaid(result.event.reference_id, result.event.status);
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookResult {
  let body: ReturnType<typeof exactBytes>;
  try {
    body = exactBytes(options.body);
  } catch {
    body = exactBytes(undefined); // a hostile object whose prototype cannot even be read
  }
  if (typeof body === 'object' && !(body instanceof Uint8Array)) return refusal('parsed_body', body.advice);
  const signature = verifySignature(options, body);
  return signature.ok ? parsePayload(body, signature.secretIndex) : signature;
}
