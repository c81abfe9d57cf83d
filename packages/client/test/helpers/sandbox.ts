// A client of a real @pay/sandbox started by the test, with the tolerance shortened on both sides
// (so a proof that a create was not made takes seconds, not a minute) and time limits long enough
// that a loaded machine never turns an answer into a timeout (the tests about timeouts set their
// own). The tolerance is 5 s, not 2: client and sandbox share one test process, and in a loaded
// clean-clone CI run a signed create once reached the sandbox 4 s after it was signed (401 expired).
// Given a test clock, sandbox and client run on it: their waits (the proof, back-offs, the
// sandbox's delay and lookup lag) pass in no real time, and signing to judging takes none.
import type { Clock } from '@pay/clock';
import { type RunningSandbox, startSandbox } from '@pay/sandbox';
import { type ClientOptions, createClient } from '../../src/index.js';

/** The sandbox's tolerance and the client's, seconds. */
export const TOLERANCE = 5;
/** The client's settle margin, seconds: longer than the delays and lags the tests inject. */
export const SETTLE = 2;

/** A merchant of the test's sandbox. */
export interface Merchant {
  readonly id: string;
  readonly secret: string;
}

/** Starts a sandbox on loopback knowing `merchant`, with the shortened tolerance, on `clock` (the real one by default). */
export function startTestSandbox(merchant: Merchant, clock?: Clock): Promise<RunningSandbox> {
  return startSandbox({ merchants: [merchant], toleranceSeconds: TOLERANCE, ...(clock === undefined ? {} : { clock }) });
}

/** A client of `sandbox` as `merchant`, with `extra` options over the defaults above. */
export function sandboxClient(sandbox: RunningSandbox, merchant: Merchant, extra: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl: sandbox.url,
    cardProxyUrl: sandbox.cardProxyUrl,
    merchantId: merchant.id,
    secret: merchant.secret,
    toleranceSeconds: TOLERANCE,
    settleSeconds: SETTLE,
    timeoutMs: 10_000,
    totalTimeoutMs: 30_000,
    ...extra,
  });
}
