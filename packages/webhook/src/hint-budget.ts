// A handler's budget of near-miss hints. A hint costs a few HMACs: worth it for the one log line
// that explains a misconfiguration, not for each of a flood of forged requests. So a handler
// works out at most one a second, whoever reads it, and the others say why they have none.
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

/** How often a handler works out a near-miss hint at most. */
const HINT_INTERVAL_MS = 1000;
const HINT_SKIPPED =
  'not worked out: a near-miss check ran less than a second ago, and they run at most once a second so that forged requests cannot multiply the work';

/**
 * Returns what one handler puts each refusal through: a `bad_signature` refusal comes back with
 * a hint that is worked out, when read, only if none was in the last second by `now`; any other
 * refusal comes back as it is.
 */
export function hintBudget(now: () => number): (refused: WebhookRefusal) => WebhookRefusal {
  let lastHintAt: number | undefined;
  return (refused) =>
    refused.reason !== 'bad_signature'
      ? refused
      : refusal(refused.reason, refused.message, () => {
          const t = now();
          if (lastHintAt !== undefined && Math.abs(t - lastHintAt) < HINT_INTERVAL_MS) return HINT_SKIPPED;
          lastHintAt = t;
          return refused.hint;
        });
}
