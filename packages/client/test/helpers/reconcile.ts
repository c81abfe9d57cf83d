// What the reconciliation tests share: a client against the scripted stand-in, both on one test
// clock, with the tolerance shortened on both sides (1 s, settle 0 s), and the two ways a create's
// answer is lost on the wire. The HTTP exchanges are real; the waits for the tolerance and the
// settle window (and every back-off) pass on the test clock, in no real time: `run` drives it.
import type { ServerResponse } from 'node:http';
import { createTestClock } from '@pay/clock/test-clock';
import { createClient, type ReconcileEvent } from '../../src/index.js';
import { commitRequest, MERCHANT, type Received, SECRET, startServer, type TestServer } from './server.js';

/** The tolerance both sides use, in seconds. */
export const T = 1;
/** The settle margin the client uses, in seconds. */
export const SETTLE = 0;

/** Where each test's clock starts: years from the machine's time, so a stray Date.now() shows. */
export const START = Date.UTC(2031, 4, 6, 7, 8, 9);

/** A client and its server on one test clock; `await using` closes the server. */
export async function setup(extra: Record<string, unknown> = {}) {
  const server = await startServer();
  const clock = createTestClock({ start: START });
  // The service judges lookup lag and writes its Date header by the same clock the client signs with.
  server.service.now = clock.now;
  const events: ReconcileEvent[] = [];
  const pay = createClient({
    clock,
    baseUrl: server.base,
    merchantId: MERCHANT,
    secret: SECRET,
    toleranceSeconds: T,
    settleSeconds: SETTLE,
    // Far above any answer time, even on a loaded machine: tests that need a timeout set their own.
    timeoutMs: 15_000,
    hooks: { onReconcile: (e: ReconcileEvent) => events.push(e) },
    ...extra,
  });
  const posts = () => server.received.filter((r) => r.method === 'POST');
  const gets = () => server.received.filter((r) => r.method === 'GET');
  const ts = (i: number) => Number(posts()[i]!.headers['x-timestamp']);
  /** From this second on (x-timestamp of attempt `i` + tolerance + 1 + settle) a miss proves attempt `i` dead. */
  const deadAt = (i: number) => ts(i) + T + 1 + SETTLE;
  /**
   * `call`'s outcome, the clock run until nothing but the call was waiting on it: each wait of the
   * call is skipped to its end, and each exchange with the server takes the real time it takes
   * (the clock stands still meanwhile). Handlers are attached at once, so an early failure is
   * never reported unhandled.
   */
  const run = <R>(call: Promise<R>): Promise<R> => Promise.all([call, clock.runUntilIdle('1h')]).then(([result]) => result);
  return { server, clock, pay, run, events, posts, gets, ts, deadAt, [Symbol.asyncDispose]: () => server.close() };
}

/** The rejection of `promise`; fails the test when it resolves. */
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => Promise.reject(new Error('expected a failure')),
    (e: unknown) => e,
  );

/** The service commits the create, and the connection drops before the answer. */
export const dropAfterCommit = (req: Received, res: ServerResponse, service: TestServer['service']) => {
  commitRequest(service, req);
  res.socket?.destroy();
};

/** The connection drops before the service commits anything. */
export const dropBeforeCommit = (_req: unknown, res: ServerResponse) => void res.socket?.destroy();
