// End to end over real HTTP against @pay/sandbox, the service stand-in: every endpoint, every
// error class the service can cause, the card push moving a payin to executed and the webhook a
// @pay/webhook receiver gets after it, and every fault the sandbox can inject into a create.
// The tests that wait for business time (a proof that a create was not made, back-offs, the
// sandbox's delay and lookup lag) run against a second sandbox on a test clock, with their client
// on the same clock: the HTTP is as real as the rest, the waits take no real time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import type { WebhookEvent } from '@pay/webhook';
import { webhookHandler } from '@pay/webhook/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  OutcomeUnknownError,
  TimeoutError,
} from '../src/index.js';
import type { ClientOptions } from '../src/index.js';
import { sandboxClient, startTestSandbox } from './helpers/sandbox.js';
import * as bodies from './helpers/server.js';
import { CARD } from './helpers/server.js';

// Every body names the test's receiver as its webhook address, so deliveries stay on loopback.
const payinBody = (o: Record<string, unknown> = {}) => bodies.payinBody({ webhook_url: webhookUrl, ...o });
const legacyPayinBody = (o: Record<string, unknown> = {}) => bodies.legacyPayinBody({ webhook_url: webhookUrl, ...o });
const payoutBody = (o: Record<string, unknown> = {}) => bodies.payoutBody({ webhook_url: webhookUrl, ...o });

const MERCHANT = { id: 'm_e2e', secret: 'sk_e2e_secret' };

let sandbox: RunningSandbox;
let receiver: Server;
let webhookUrl: string;
const webhooks: WebhookEvent[] = [];
const waiters: { match: (e: WebhookEvent) => boolean; resolve: (e: WebhookEvent) => void }[] = [];

/** Resolves with the first webhook (received or to come) that matches. */
function webhook(match: (e: WebhookEvent) => boolean): Promise<WebhookEvent> {
  const seen = webhooks.find(match);
  return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
}

// The test clock's sandbox. Its tests' bodies keep the examples' webhook address, under .invalid:
// each delivery fails at once and is retried 15 min later, further than these tests move the clock.
const clock = createTestClock();
let timed: RunningSandbox;

beforeAll(async () => {
  timed = await startTestSandbox(MERCHANT, clock);
  sandbox = await startTestSandbox(MERCHANT);
  receiver = createServer();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pay`;
  receiver.on(
    'request',
    webhookHandler({
      merchantId: MERCHANT.id,
      secret: MERCHANT.secret,
      url: webhookUrl,
      handler: (event) => {
        webhooks.push(event);
        for (const w of waiters.filter((w) => w.match(event))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      },
    }),
  );
});
afterAll(async () => {
  await timed.close();
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const client = (extra: Partial<ClientOptions> = {}) => sandboxClient(sandbox, MERCHANT, extra);
/** A client of the test clock's sandbox, on that clock. */
const timedClient = (extra: Partial<ClientOptions> = {}) => sandboxClient(timed, MERCHANT, { clock, ...extra });
/**
 * `call`'s outcome, the test clock advanced by a minute meanwhile (longer than any call here waits
 * in all: a proof takes 5 + 1 + 2 s). Each exchange takes the real time it takes; the clock stands
 * still meanwhile. Handlers are attached at once, so an early failure is never reported unhandled.
 */
const run = <R>(call: Promise<R>): Promise<R> => Promise.all([call, clock.advance('1m')]).then(([result]) => result);
/** A fault on the test clock's sandbox, on the next request of `method` under `path_prefix`. */
const timedFault = (method: string, path_prefix: string, kind: string, ms?: number) =>
  timed.admin.addFault({ method, path_prefix, kind, count: 1, ...(ms === undefined ? {} : { ms }) } as never);
/** The records of the test clock's sandbox that carry `reference`. */
const timedRecords = async (reference: string) => (await timed.admin.transactions()).filter((t) => t.reference_id === reference);

async function admin<T = unknown>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`admin ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Transaction {
  kind: 'payin' | 'payout';
  id: string;
  reference_id: string | null;
  status: string;
}
const transactions = () => admin<Transaction[]>('transactions');
const records = async (reference: string) => (await transactions()).filter((t) => t.reference_id === reference);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => Promise.reject(new Error('expected a failure')),
    (e: unknown) => e,
  );

describe('every endpoint against the sandbox', () => {
  it('payin v2: create, push the card, executed, and the webhook after it', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody({ reference_id: 'e2e-card', webhook_url: webhookUrl }) as never);
    if (created.reconciled) throw new Error('expected the create answer');
    expect(created.data.status).toBe('new');
    expect(created.data.next_action.type).toBe('card_push');
    expect(created.data.fee).toBeNull();
    expect(created.data.created_at).toBeInstanceOf(Date);
    expect(created.data.next_action.url.startsWith(`${sandbox.cardProxyUrl}/v1/push/`)).toBe(true);

    const pushed = await pay.payins.pushCard({ payinId: created.data.id, url: created.data.next_action.url }, CARD);
    expect(pushed.response.status).toBe(200);
    expect(pushed.data?.status).toBe('executed');

    const byId = await pay.payins.get(created.data.id);
    expect(byId.data.status).toBe('executed');
    expect(byId.data.fee).toEqual({ amount: 0.26, currency: 'EUR' });
    const byRef = await pay.payins.getByReference('e2e-card');
    expect(byRef.data.id).toBe(created.data.id);

    const executed = await webhook((e) => e.id === created.data.id && e.status === 'executed');
    expect(executed.reference_id).toBe('e2e-card');
    expect(webhooks.some((e) => e.id === created.data.id && e.status === 'new')).toBe(true);
  });

  it('payin by token, and a declined card', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody({ webhook_url: webhookUrl }) as never);
    if (created.reconciled) throw new Error('expected the create answer');
    const token = /\/v1\/push\/([^/]+)\/$/.exec(created.data.next_action.url)![1]!;
    await pay.payins.pushCard({ payinId: created.data.id, token }, { ...CARD, pan: '4000000000000002' });
    const found = await pay.payins.get(created.data.id);
    expect(found.data.status).toBe('failed');
    expect(found.data.error_code).toBe('card_declined');
    await webhook((e) => e.id === created.data.id && e.status === 'failed');
  });

  it('legacy create (v1)', async () => {
    const created = await client().payins.createLegacy(legacyPayinBody({ reference_id: 'e2e-legacy' }) as never);
    expect(created.data.status).toBe('new');
    expect('method' in created.data).toBe(false);
    expect((await records('e2e-legacy')).length).toBe(1);
  });

  it('payouts: both integration variants, by id and by reference', async () => {
    const pay = client();
    const direct = await pay.payouts.create(payoutBody({ reference_id: 'e2e-po-direct' }) as never);
    const page = await pay.payouts.create(
      payoutBody({
        reference_id: 'e2e-po-page',
        redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/no' },
      }) as never,
      { paymentPage: true },
    );
    expect(direct.data.status).toBe('new');
    expect(page.data.status).toBe('new');
    expect((await pay.payouts.get(direct.data.id)).data.reference_id).toBe('e2e-po-direct');
    expect((await pay.payouts.getByReference('e2e-po-page')).data.id).toBe(page.data.id);
  });

  it('references with spaces, &, /, ?, %, + and non-ASCII are found again', async () => {
    const pay = client();
    for (const reference of ['order 1 & 2', 'a/b?c=d', '100% +1', 'заказ-ü-🙂']) {
      const created = await pay.payouts.create(payoutBody({ reference_id: reference }) as never);
      const found = await pay.payouts.getByReference(reference);
      expect(found.data.id).toBe(created.data.id);
    }
  });
});

describe('every error class against the sandbox', () => {
  it('InvalidRequestError: nothing sent', async () => {
    const before = (await transactions()).length;
    const error = (await failure(client().payins.create(payinBody({ customer: {} }) as never))) as InvalidRequestError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.errors.map((e) => e.path)).toContain('customer.email');
    expect((await transactions()).length).toBe(before);
  });

  it('AuthenticationError: a wrong secret', async () => {
    const error = (await failure(client({ secret: 'sk_wrong' }).payins.get('pi_x'))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('bad_signature');
  });

  it('NotFoundError: unknown id and reference', async () => {
    expect(await failure(client().payins.get('pi_unknown'))).toBeInstanceOf(NotFoundError);
    expect(await failure(client().payouts.getByReference('never-used'))).toBeInstanceOf(NotFoundError);
  });

  it('ApiError: a reference_id already used for another amount (409), nothing created', async () => {
    await client().payouts.create(payoutBody({ reference_id: 'e2e-conflict' }) as never);
    const error = (await failure(
      client().payouts.create(payoutBody({ reference_id: 'e2e-conflict', payment: { amount: 1, currency: 'EUR' } }) as never),
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.code).toBe('duplicate_reference_id');
    expect((await records('e2e-conflict')).length).toBe(1);
  });

  it('NetworkError: a lookup whose connections are all dropped', async () => {
    await timed.admin.addFault({
      method: 'GET',
      path_prefix: '/v2/merchants/payouts/?reference_id=e2e-net',
      kind: 'drop_before_commit',
      count: 3,
    });
    const error = await failure(run(timedClient({ retries: 2 }).payouts.getByReference('e2e-net')));
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('TimeoutError: a lookup delayed past timeoutMs', async () => {
    await admin('faults', { method: 'GET', path_prefix: '/v2/merchants/payins/pi_slow', kind: 'delay', count: 1, ms: 600 });
    const error = await failure(client({ timeoutMs: 200, retries: 0 }).payins.get('pi_slow'));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('OutcomeUnknownError: a lost create with no time left to prove anything', async () => {
    await timedFault('POST', '/v2/merchants/payouts/', 'drop_before_commit');
    const error = (await failure(
      run(timedClient({ totalTimeoutMs: 1_500 }).payouts.create(bodies.payoutBody({ reference_id: 'e2e-unknown' }) as never)),
    )) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.referenceId).toBe('e2e-unknown');
    // Decidable from decidableAt on: then a lookup misses, so it was never created.
    expect((await timedRecords('e2e-unknown')).length).toBe(0);
  });
});

describe.concurrent('every fault the sandbox injects into a create', { timeout: 60_000 }, () => {
  // Each test faults its own path prefix (payins v2, payins v1, payouts), or runs alone.
  it('drop after commit: found by reference, one record', async () => {
    await timedFault('POST', '/v1/merchants/payins/', 'drop_after_commit');
    const result = await run(timedClient().payins.createLegacy(bodies.legacyPayinBody({ reference_id: 'e2e-f-after' }) as never));
    expect(result.reconciled).toBe(true);
    expect((await timedRecords('e2e-f-after')).map((t) => t.id)).toEqual([result.data.id]);
  });

  it('drop before commit: re-sent once proven, one record', async () => {
    await timedFault('POST', '/v2/merchants/payins/', 'drop_before_commit');
    const result = await run(timedClient().payins.create(bodies.payinBody({ reference_id: 'e2e-f-before' }) as never));
    expect(result.reconciled).toBe(false);
    expect((await timedRecords('e2e-f-before')).map((t) => t.id)).toEqual([result.data.id]);
  });

  it('500 after commit: found by reference, one record', async () => {
    await timedFault('POST', '/v2/merchants/payouts/', 'status_500_after_commit');
    const result = await run(timedClient().payouts.create(bodies.payoutBody({ reference_id: 'e2e-f-500' }) as never));
    expect(result.reconciled).toBe(true);
    expect((await timedRecords('e2e-f-500')).map((t) => t.id)).toEqual([result.data.id]);
  });
});

// One after the other: the lookup lag test looks up between two runs of the clock, and another
// test's run must not move the clock past the lag meanwhile.
describe('faults that take a path prefix each (creates of payins v2, payouts)', { timeout: 60_000 }, () => {
  it('delay past timeoutMs, the create committing after the client gave up: found, not sent again', async () => {
    // The delay is on the test clock, which stands still while the client waits for the answer:
    // the client gives up at its own timeoutMs (real time, it bounds the network), and the clock
    // then moves on to the delay's end, when the sandbox commits the create.
    await timedFault('POST', '/v2/merchants/payins/', 'delay', 1_500);
    const result = await run(timedClient({ timeoutMs: 500 }).payins.create(bodies.payinBody({ reference_id: 'e2e-f-delay' }) as never));
    expect(result.reconciled).toBe(true);
    expect((await timedRecords('e2e-f-delay')).map((t) => t.id)).toEqual([result.data.id]);
  });

  it('lookup lag: a create repeated with its reference_id (409) is found once visible, one record', async () => {
    // The sandbox applies one fault per request, so the lag is put on the first create, and the
    // create is then repeated, as after a crash: the service answers 409 while lookups still miss.
    // 5 s on the test clock, which stands still from the create to the lookup: the lookup misses
    // however long they take in real time. Neither waits, so the clock is not run for them; it is
    // for the repeated create, whose lookups go on until the lag is over.
    await timedFault('POST', '/v2/merchants/payouts/', 'lookup_lag', 5_000);
    const first = await timedClient().payouts.create(bodies.payoutBody({ reference_id: 'e2e-f-lag' }) as never);
    expect(await failure(timedClient().payouts.getByReference('e2e-f-lag'))).toBeInstanceOf(NotFoundError);
    const again = await run(timedClient().payouts.create(bodies.payoutBody({ reference_id: 'e2e-f-lag' }) as never));
    expect(again.reconciled).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    expect((await timedRecords('e2e-f-lag')).map((t) => t.id)).toEqual([first.data.id]);
  });
});
