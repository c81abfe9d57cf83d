// What the reconciliation tests share: a client against the scripted stand-in with the tolerance
// shortened on both sides (1 s, settle 0 s), so a proof takes about two seconds, and the two ways a
// create's answer is lost on the wire.
import type { ServerResponse } from 'node:http';
import { createClient, type ReconcileEvent } from '../../src/index.js';
import { commitRequest, MERCHANT, type Received, SECRET, startServer, type TestServer } from './server.js';

/** The tolerance both sides use, in seconds. */
export const T = 1;
/** The settle margin the client uses, in seconds. */
export const SETTLE = 0;

/** A client and its server; `await using` closes the server. */
export async function setup(extra: Record<string, unknown> = {}) {
  const server = await startServer();
  const events: ReconcileEvent[] = [];
  const pay = createClient({
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
  return { server, pay, events, posts, gets, ts, deadAt, [Symbol.asyncDispose]: () => server.close() };
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
