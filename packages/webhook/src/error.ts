// The throwing variant, for code that prefers exceptions to results.
import type { VerifyWebhookOptions, WebhookEvent, WebhookFailureReason } from './verify.js';
import { verifyWebhook } from './verify.js';

/** A webhook that failed verification; `code` is the reason, `status` the HTTP status to answer. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookFailureReason,
    message: string,
    readonly status: number,
    /** On `bad_signature`: the near miss that would have matched, for logs. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * Like {@link verifyWebhook}, but returns the event and throws {@link WebhookVerificationError}
 * (with `code` and `status`) when the webhook is refused.
 */
export function verifyWebhookOrThrow(options: VerifyWebhookOptions): WebhookEvent {
  const result = verifyWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result.reason, result.message, result.status, result.hint);
  return result.event;
}
