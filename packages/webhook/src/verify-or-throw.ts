// The throwing variant, for code that prefers exceptions to results.
import type { WebhookEvent } from './parse-payload.js';
import type { WebhookFailureReason, WebhookRefusal } from './refusals.js';
import type { VerifyWebhookOptions } from './verify.js';
import { verifyWebhook } from './verify.js';

/**
 * A webhook that failed verification; `code` is the reason (`refusalStatus(code)` is the HTTP
 * status the handlers answer for it).
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookFailureReason;
  /** On `bad_signature`: the near miss that would have matched, for logs (worked out when read). */
  declare readonly hint?: string | undefined;
  constructor(refused: Pick<WebhookRefusal, 'reason' | 'message' | 'hint'>) {
    super(refused.message);
    this.code = refused.reason;
    Object.defineProperty(this, 'hint', { get: () => refused.hint });
  }
}

/**
 * Like {@link verifyWebhook}, but returns the event and throws {@link WebhookVerificationError}
 * (with `code`) when the webhook is refused.
 */
export function verifyWebhookOrThrow(options: VerifyWebhookOptions): WebhookEvent {
  const result = verifyWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result);
  return result.event;
}
