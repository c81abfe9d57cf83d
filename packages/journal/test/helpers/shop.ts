// The shop around a journal in tests: a sandbox on loopback, a client with short limits (so lost
// answers are decided in seconds, not minutes), a webhook receiver on the journal's inbox, and
// the merchant's own table the handler writes to.
import { createServer, type Server } from 'node:http';
import type { Clock } from '@pay/clock';
import { createClient, type Client } from '@pay/client';
import { type RunningSandbox, startSandbox } from '@pay/sandbox';
import { payinBody as validPayin, payoutBody as validPayout } from '@pay/test-support';
import { webhookHandler } from '@pay/webhook/node';
import type { Journal } from '../../src/index.js';

export const MERCHANT = { id: 'm_journal', secret: 'sk_test_journal' };
/** The sandbox's tolerance in tests (s): short, so a lost create is decidable in a few seconds. */
export const TOLERANCE_S = 2;
export const SETTLE_S = 1;
export const TOTAL_TIMEOUT_MS = 4_000;
/** Must outlast the client's whole call, the tolerance and the settle margin. */
export const IN_FLIGHT_LEASE_MS = TOTAL_TIMEOUT_MS + (TOLERANCE_S + 1 + SETTLE_S) * 1000 + 500;

/**
 * The tests' sandbox. `uniqueReferences: false` makes it a service that accepts a second create
 * with a used reference_id as a new transaction, so a create sent twice leaves two records.
 * `clock`: a test clock shared with the client and the journal, so that `admin.advance` moves
 * them all (the real clock by default).
 */
export function startShopSandbox(options: { uniqueReferences?: boolean; clock?: Clock } = {}): Promise<RunningSandbox> {
  return startSandbox({ merchants: [MERCHANT], toleranceSeconds: TOLERANCE_S, ...options });
}

/**
 * Whether the sandbox refuses a used reference_id (409) in the run of a file on `backend`, for the
 * files that run once per backend: on PGlite (which always runs) it accepts it as a new
 * transaction, so a create sent twice is a second record; on the PostgreSQL drivers it refuses
 * it, and the request log must hold no such refusal. Each exactly-once test so meets both modes
 * without running its file once more (CI time).
 */
export const uniqueReferencesOn = (backend: string): boolean => backend !== 'pglite';

/**
 * The shop's client. `totalTimeoutMs`: longer where a test's creates are set-up, not what it judges,
 * so that a loaded machine's slow answer is not an outcome unknown. `clock`: the test clock the
 * sandbox and the journal read too (the real clock by default); its back-offs, settle waits and
 * `totalTimeoutMs` then pass in no real time, while one attempt's `timeoutMs` stays real.
 */
export function shopClient(baseUrl: string, totalTimeoutMs = TOTAL_TIMEOUT_MS, clock?: Clock): Client {
  return createClient(shopClientOptions(baseUrl, totalTimeoutMs, clock));
}

/** The options of {@link shopClient}, for a test that adds one of its own. */
export function shopClientOptions(baseUrl: string, totalTimeoutMs = TOTAL_TIMEOUT_MS, clock?: Clock) {
  return {
    clock,
    baseUrl,
    merchantId: MERCHANT.id,
    secret: MERCHANT.secret,
    toleranceSeconds: TOLERANCE_S,
    settleSeconds: SETTLE_S,
    totalTimeoutMs,
    timeoutMs: 2_000,
  };
}

/** A payin body for `reference`, its webhooks to `webhookUrl`. */
export function payinBody(reference: string, amount: number | string, webhookUrl: string, currency = 'EUR') {
  return validPayin({ reference_id: reference, payment: { amount, currency }, webhook_url: webhookUrl }) as any;
}

/** A payout body for `reference`. */
export function payoutBody(reference: string, amount: number | string, webhookUrl: string) {
  return validPayout({ reference_id: reference, payment: { amount, currency: 'EUR' }, webhook_url: webhookUrl }) as any;
}

/**
 * A webhook receiver on the journal's inbox; `url` is the address to give as webhook_url. While
 * `down()` says so, it drops each connection unanswered, as a receiver that is down does.
 * `clock()`: the clock the sandbox signs by (a test's test clock), read whenever the journal
 * changes; the real clock by default.
 */
export async function startReceiver(
  journal: () => Journal,
  down: () => boolean = () => false,
  clock: () => Clock | undefined = () => undefined,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/pay`;
  let handle: ReturnType<typeof webhookHandler> | undefined;
  let last: Journal | undefined;
  server.on('request', (req, res) => {
    if (down()) return void req.socket.destroy();
    const current = journal();
    if (current !== last) {
      last = current;
      handle = webhookHandler({
        merchantId: MERCHANT.id,
        secret: MERCHANT.secret,
        url,
        clock: clock(),
        onRefused: (f) => {
          if (process.env['JOURNAL_DEBUG']) console.error('refused', f.reason, (f as any).error);
        },
        ...current.webhook(),
      });
    }
    void handle!(req, res);
  });
  return { url, server, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The merchant's own table: one row per handler call, written with the handler's query function. */
export const HANDLED_TABLE = (schema: string) => `"${schema}".handled`;
