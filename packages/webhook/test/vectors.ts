// The golden verify_webhook vectors, shared by the core and adapter tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WebhookVector {
  id: string;
  description: string;
  flags: string[];
  input: {
    merchant_id: string;
    secret: string;
    url: string;
    method: string;
    headers: Record<string, string>;
    body_b64: string;
    now: string;
  };
  expected: { verdict: 'valid' | 'invalid' | 'acceptable'; reason: string | null };
}

export const vectors: WebhookVector[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'vectors', 'verify_webhook.json'), 'utf8'),
).vectors;

export const bodyOf = (v: WebhookVector) => Buffer.from(v.input.body_b64, 'base64');

/** Whether the body is a webhook payload, so a valid signature should yield an event. */
export function isPayload(v: WebhookVector): boolean {
  try {
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bodyOf(v)));
    return value !== null && typeof value === 'object' && typeof value.id === 'string' && typeof value.status === 'string';
  } catch {
    return false;
  }
}

/**
 * Whether HTTP can carry the vector's headers unchanged: servers trim surrounding whitespace from
 * field values and decode bytes above 0x7f as Latin-1, so such vectors are for the core only.
 */
export function survivesHttp(v: WebhookVector): boolean {
  return Object.values(v.input.headers).every((value) => value === value.trim() && /^[\x20-\x7e]*$/.test(value));
}
