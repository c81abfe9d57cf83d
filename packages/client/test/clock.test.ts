// The client reads time only through its `clock` option: the x-timestamp it signs, the waits
// between attempts, the settle wait of a lost create and the total time limit all follow a test
// clock, and each call is tracked on it. Against a real loopback server whose signatures are
// checked with node:crypto; hours of back-off pass in milliseconds of real time.
import { createTestClock } from '@pay/clock/test-clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, TimeoutError } from '../src/index.js';
import { json, MERCHANT, payinBody, SECRET, startServer, type TestServer } from './helpers/server.js';

const START = Date.UTC(2031, 4, 6, 7, 8, 9); // years from the machine's time: a stray Date.now() shows
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const clientOn = (clock: ReturnType<typeof createTestClock>, options: Record<string, unknown> = {}) =>
  createClient({ baseUrl: server.base, allowHttpHosts: ['127.0.0.1'], merchantId: MERCHANT, secret: SECRET, clock, ...options });
/** When, on the test clock, each request arrived (ms after START). */
const arrivals = (clock: ReturnType<typeof createTestClock>) => {
  const at: number[] = [];
  return { at, mark: () => at.push(clock.now() - START) };
};

describe('a client on a test clock', () => {
  it("signs with the clock's time, and the signature is the one node:crypto computes", async () => {
    const clock = createTestClock({ start: START });
    server.service.now = clock.now;
    const client = clientOn(clock);
    await client.payins.create(payinBody({ reference_id: 'order-clock-1' }) as never);
    await client.payins.getByReference('order-clock-1');
    expect(server.received).toHaveLength(2);
    for (const request of server.received) {
      expect(request.headers['x-timestamp']).toBe(String(Math.floor(START / 1000)));
      expect(request.signatureOk).toBe(true); // recomputed with createHmac over the bytes received
    }
  });

  it('waits a Retry-After between lookups on the clock: a minute, in no real time', async () => {
    const clock = createTestClock({ start: START });
    server.service.now = clock.now;
    const { at, mark } = arrivals(clock);
    const busy = (_req: unknown, res: Parameters<typeof json>[0]) => {
      mark();
      res.writeHead(503, { 'retry-after': '30', 'content-type': 'application/json' });
      res.end('{"error":{"code":"unavailable","message":"busy"}}');
    };
    const client = clientOn(clock);
    const created = await client.payins.create(payinBody({ reference_id: 'order-clock-2' }) as never);
    server.next.push(busy, busy);
    const found = client.payins.get(created.data.id);
    await clock.advance('5m');
    const result = await found;
    expect(result.data.id).toBe(created.data.id);
    expect(at).toEqual([0, 30_000]);
    expect(server.received.map((r) => r.headers['x-timestamp'])).toEqual([0, 0, 30, 60].map((s) => String(Math.floor(START / 1000) + s)));
  });

  it('backs off on the clock: the next attempt arrives exactly the delay the client reported later', async () => {
    const clock = createTestClock({ start: START });
    server.service.now = clock.now;
    const { at, mark } = arrivals(clock);
    const delays: number[] = [];
    server.next.push((_req, res) => {
      mark();
      res.destroy(); // no answer: a lookup may be sent again
    });
    const client = clientOn(clock, { hooks: { onRetry: (event: { delayMs: number }) => delays.push(event.delayMs) } });
    const lookup = client.payins.getByReference('order-missing').catch((error: unknown) => error);
    await clock.advance('10s');
    await lookup;
    expect(delays).toHaveLength(1);
    expect(server.received).toHaveLength(2);
    expect(at).toEqual([0]);
    expect(Number(server.received[1]?.headers['x-timestamp']) * 1000).toBe(Math.floor((START + (delays[0] as number)) / 1000) * 1000);
  });

  it('counts totalTimeoutMs on the clock', async () => {
    const clock = createTestClock({ start: START });
    server.service.now = clock.now;
    const always503 = (_req: unknown, res: Parameters<typeof json>[0]) => {
      res.writeHead(503, { 'retry-after': '60', 'content-type': 'application/json' });
      res.end('{}');
    };
    server.next.push(always503, always503, always503);
    const client = clientOn(clock, { totalTimeoutMs: 90_000, retries: 5 });
    const failed = client.payins.get('pi_1').then(
      () => 'answered',
      (error: unknown) => ({ error, at: clock.now() - START }),
    );
    await clock.advance('10m');
    const outcome = (await failed) as { error: unknown; at: number };
    // Sent at 0 and 60 s; a third at 120 s would be past the 90 s limit, so the call ends at 60 s.
    expect(server.received).toHaveLength(2);
    expect(outcome.at).toBe(60_000);
    expect(outcome.error).toBeInstanceOf(Error);
    expect(outcome.error).not.toBeInstanceOf(TimeoutError);
  });

  it('settles a lost create on the clock: lookups until the service could no longer accept it, then one resend', async () => {
    const clock = createTestClock({ start: START });
    server.service.now = clock.now;
    const { at, mark } = arrivals(clock);
    server.next.push((_req, res) => {
      mark();
      res.destroy(); // the create's answer is lost; nothing was created
    });
    const client = clientOn(clock, { toleranceSeconds: 60, settleSeconds: 10 });
    const created = client.payins.create(payinBody({ reference_id: 'order-clock-3' }) as never);
    await clock.advance('10m');
    const result = await created;
    expect(result.data.reference_id).toBe('order-clock-3');
    expect(server.service.count('order-clock-3')).toBe(1);
    const posts = server.received.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    // The resend waits until the first attempt's timestamp + tolerance + 1 s + settle has passed
    // on the service's clock (the test clock here): never earlier, whatever real time did.
    const first = Number(posts[0]?.headers['x-timestamp']);
    const resend = Number(posts[1]?.headers['x-timestamp']);
    expect(resend).toBeGreaterThanOrEqual(first + 60 + 1 + 10);
    expect(at).toEqual([0]);
  });

  it('is tracked while a call is in flight', async () => {
    const clock = createTestClock({ start: START });
    let answer = () => {};
    server.next.push((_req, res) => {
      answer = () => json(res, 404, { error: { code: 'not_found', message: 'no' } });
    });
    const client = clientOn(clock);
    const lookup = client.payins.get('pi_x').catch(() => 'not found');
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(clock.busy).toEqual(['client.payins.get']);
    answer();
    expect(await lookup).toBe('not found');
    expect(clock.busy).toEqual([]);
  });

  it('refuses a clock that is not one, naming the option', () => {
    expect(() => clientOn(createTestClock(), { clock: Date.now })).toThrow(/clock must be a Clock/);
    expect(() => clientOn(createTestClock(), { clock: {} })).toThrow(/clock\.now must be a function/);
  });
});
