// A handler's budget of near-miss hints. A hint costs a few HMACs: worth it for the one log line
// that explains a misconfiguration, not for each of a flood of forged requests. So a handler
// works out at most @pay/sign's RECEIVER_DIAGNOSES_PER_SECOND (one a second, whoever reads it;
// the rate is decided and justified there), and the others say why they have none.
import { RECEIVER_DIAGNOSES_PER_SECOND, TokenBucket } from '@pay/sign';
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

const HINT_SKIPPED =
  'not worked out: a near-miss check ran less than a second ago, and they run at most once a second so that forged requests cannot multiply the work';

/**
 * Returns what one handler puts each refusal through: a `bad_signature` refusal comes back with
 * a hint that is worked out, when read, only if the handler's budget has one left at `now`; any
 * other refusal comes back as it is.
 */
export function hintBudget(now: () => number): (refused: WebhookRefusal) => WebhookRefusal {
  const budget = new TokenBucket(RECEIVER_DIAGNOSES_PER_SECOND);
  return (refused) =>
    refused.reason !== 'bad_signature'
      ? refused
      : refusal(refused.reason, refused.message, () => (budget.take(now()) ? refused.hint : HINT_SKIPPED));
}
