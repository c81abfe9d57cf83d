// Parses the bytes a signature has just vouched for into the webhook's payload. Only a verified
// body gets here, so a forged request never costs a JSON parse; a signed body that is not a
// payload is the service's (or a test's) mistake, refused with its own reason.
import { validate, WebhookPayload } from '@pay/schema';
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

/** A webhook whose signature and payload checked out. */
export type WebhookEvent = WebhookPayload & Record<string, unknown>;

/** A verified webhook: its payload, and which of the configured secrets signed it. */
export interface VerifiedWebhook {
  ok: true;
  /** The payload: `id`, `reference_id`, `status`, and any field the service added, kept. */
  event: WebhookEvent;
  /** Which of `secrets` matched (0 for a single `secret`). */
  secretIndex: number;
}

// Fatal: bytes that are not UTF-8 are not JSON. The BOM is kept, so bytes and text agree: JSON.parse refuses it in both.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The payload of a verified body: JSON (UTF-8) checked against `WebhookPayload`, every field kept;
 * `invalid_json` or `invalid_payload` otherwise, naming each field that is wrong.
 */
export function parsePayload(body: string | Uint8Array, secretIndex: number): VerifiedWebhook | WebhookRefusal {
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
