// A create whose answer was lost (no answer, a timeout, a 5xx, an unreadable 2xx): looked up by
// its reference_id until it is found, or proven not created (see the README's algorithm), or time
// runs out.
import { isSameCreate } from '@pay/schema';
import type { CreateRun, Found, Lost, Timed } from './create-run.js';
import { backoffMs, sleep } from './retry.js';

/**
 * Settles an attempt whose answer was lost: the record found by reference, or 'not created'
 * once that is proven, or an OutcomeUnknownError when time runs out first.
 */
export async function reconcileLost<L extends Timed>(run: CreateRun<L>, timestamp: number, lost: Lost): Promise<Found<L> | 'not created'> {
  const { call } = run;
  const { settings } = call;
  // The service accepts the attempt only while its clock reads at most timestamp + tolerance
  // (whole seconds, so before timestamp + tolerance + 1); an accepted create is visible to
  // lookups within settleSeconds after that. From `deadAt` on, by the service's clock, a lookup
  // that misses proves the attempt will never create anything.
  const deadAtSeconds = timestamp + settings.toleranceSeconds + 1 + settings.settleSeconds;
  let behindMs = 0; // how far the service's clock was seen behind the client's
  run.event('lookup', lost.reason);
  for (let poll = 1; ; poll++) {
    const p = await run.lookup();
    const untilDead = deadAtSeconds * 1000 - call.settings.clock.now();
    let delayMs: number;
    if (p.kind === 'found') {
      if (isSameCreate(run.spec.payment, p.result.data.payment)) return run.found(p.result, lost.reason);
      throw run.unknown(
        timestamp,
        behindMs,
        `${lost.reason}; reference_id is used by another transaction with a different amount or currency`,
        lost.error,
      );
    } else if (p.kind === 'aborted') {
      throw run.unknown(timestamp, behindMs, `${lost.reason}; aborted by the caller`, p.reason);
    } else if (p.kind === 'fatal') {
      throw run.unknown(timestamp, behindMs, `${lost.reason}; the lookup failed`, p.error);
    } else if (p.kind === 'missing' && p.sentAt >= deadAtSeconds * 1000) {
      // Sent after deadAt by our clock. Proven if the service's clock agrees (or says nothing);
      // otherwise wait as long as it is behind, and look again.
      if (p.serverSeconds === undefined || p.serverSeconds >= deadAtSeconds) return 'not created' as const;
      behindMs = (deadAtSeconds - p.serverSeconds) * 1000;
      delayMs = behindMs;
    } else {
      // Missing before deadAt, or no usable answer (none, 429, 5xx, or one that cannot be read:
      // a lost answer, like the create's own): poll with backoff, and look up once more right at
      // deadAt.
      const backoff = (p.kind === 'transient' ? p.retryAfterMs : undefined) ?? backoffMs(poll);
      delayMs = untilDead > 0 ? Math.min(backoff, untilDead) : p.kind === 'missing' ? 0 : backoff;
    }
    delayMs = Math.max(0, delayMs);
    if (call.settings.clock.now() + delayMs >= call.deadline) {
      // The last lookup's answer, when it could not be read, is what an operator needs to see.
      const last = p.kind === 'unreadable' ? ` (the last lookup: ${p.error.message})` : '';
      throw run.unknown(
        timestamp,
        behindMs,
        `${lost.reason}; no time left in totalTimeoutMs to prove it was not created${last}`,
        lost.error,
      );
    }
    run.event('waiting', lost.reason, delayMs);
    if (!(await sleep(call.settings.clock, delayMs, call.signal))) {
      throw run.unknown(timestamp, behindMs, `${lost.reason}; aborted by the caller`, call.signal?.reason);
    }
  }
}
