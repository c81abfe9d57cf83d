// A create refused as a duplicate (409): the service holds a record under its reference_id. It is
// the result when it is this create's; otherwise a conflict, nothing created.
import { isSameCreate } from '@pay/schema';
import type { RawResponse } from './errors.js';
import type { CreateRun, Found, Timed } from './create-run.js';
import { backoffMs, sleep } from './retry.js';
import { nowSeconds } from './signer.js';

/** A 409: the service has a record with this reference_id. It is the result if it is ours. */
export async function resolveDuplicate<L extends Timed>(run: CreateRun<L>, response: RawResponse): Promise<Found<L>> {
  const { call } = run;
  run.event('lookup', 'status 409');
  for (let poll = 1; ; poll++) {
    const p = await run.lookup();
    if (p.kind === 'found') {
      if (isSameCreate(run.spec.payment, p.result.data.payment)) return run.found(p.result, 'status 409');
      throw run.conflict(response);
    }
    if (p.kind === 'aborted')
      throw run.unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; aborted by the caller', p.reason);
    if (p.kind === 'fatal') throw run.unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; the lookup failed', p.error);
    // Missing although the service says it exists (lookups lag behind), or no usable answer:
    // look again.
    const delayMs = (p.kind === 'transient' ? p.retryAfterMs : undefined) ?? backoffMs(poll);
    if (call.settings.clock.now() + delayMs >= call.deadline) {
      throw run.unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id, but no lookup found it in time', p.error);
    }
    run.event('waiting', 'status 409', delayMs);
    if (!(await sleep(call.settings.clock, delayMs, call.signal)))
      throw run.unknown(nowSeconds(call.settings.clock), 0, 'duplicate reference_id; aborted by the caller', call.signal?.reason);
  }
}
