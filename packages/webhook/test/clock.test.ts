// The receiver reads time only through its `clock` option: a webhook's age is judged by it, the
// delivery store's claims expire by it, and a delivery being handled is tracked on it, so a test
// clock neither refuses a webhook signed on its own time nor skips past a handler at work.
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as realDelay } from 'node:timers/promises';
import { createTestClock } from '@pay/clock/test-clock';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, verifyWebhook } from '../src/index.js';
import { webhookHandler } from '../src/node/index.js';

const merchantId = 'm_12345';
const secret = 'sk_test_clock';
const START = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const payload = JSON.stringify({ id: 'pi_7', reference_id: 'order-7', status: 'executed' });

// Signed independently of the package, as the interface defines it: HMAC-SHA256 over merchant
// id, timestamp, method, URL and body, in lowercase hex.
function signedAt(url: string, seconds: number, body = payload): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`${merchantId}${seconds}POST${url}${body}`).digest('hex');
  return { 'content-type': 'application/json', 'x-merchant-id': merchantId, 'x-timestamp': String(seconds), 'x-signature': signature };
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('a receiver on a test clock', () => {
  it("judges a webhook's age by its clock, not the machine's", () => {
    const clock = createTestClock({ start: START + 2 * HOUR }); // two hours ahead of the sender below
    const url = 'https://shop.example/webhooks/pay';
    const onClock = verifyWebhook({
      merchantId,
      secret,
      url,
      clock,
      headers: signedAt(url, Math.floor(clock.now() / 1000)),
      body: payload,
    });
    expect(onClock.ok).toBe(true);
    const twoHoursOld = verifyWebhook({ merchantId, secret, url, clock, headers: signedAt(url, START / 1000), body: payload });
    expect(twoHoursOld).toMatchObject({ ok: false, reason: 'expired' });
    // The machine's clock would have judged the other way round: proof the option is what counts.
    const real = Math.floor(Date.now() / 1000);
    expect(verifyWebhook({ merchantId, secret, url, headers: signedAt(url, real), body: payload }).ok).toBe(true);
    expect(verifyWebhook({ merchantId, secret, url, clock, headers: signedAt(url, real), body: payload }).ok).toBe(
      real === Math.floor(clock.now() / 1000),
    );
  });

  it('expires a processing claim on its clock', async () => {
    const clock = createTestClock({ start: START });
    const store = memoryStore({ clock });
    expect(await store.claim('evt', 5 * 60_000, 'a')).toBe('claimed');
    expect(await store.claim('evt', 5 * 60_000, 'b')).toBe('in_progress');
    await clock.advance('4m59s');
    expect(await store.claim('evt', 5 * 60_000, 'b')).toBe('in_progress');
    await clock.advance('1s');
    expect(await store.claim('evt', 5 * 60_000, 'b')).toBe('claimed');
  });

  it('is tracked while it handles a delivery: the clock does not move past a handler at work', async () => {
    const clock = createTestClock({ start: START });
    let started = () => {};
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let finish = () => {};
    const server = createServer();
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/pay`;
    const handledAt: number[] = [];
    server.on(
      'request',
      webhookHandler({
        merchantId,
        secret,
        url,
        clock,
        handler: async () => {
          started();
          await new Promise<void>((resolve) => (finish = resolve)); // the merchant's database, in real time
          handledAt.push(clock.now());
        },
      }),
    );
    // Sent without tracking: only the receiver's own tracking can hold the clock.
    const answer = fetch(url, { method: 'POST', headers: signedAt(url, START / 1000), body: payload });
    await handlerStarted;
    expect(clock.busy).toEqual(['webhook.receive']);
    let advanced = false;
    const advancing = clock.advance('1h').then(() => (advanced = true));
    await realDelay(50);
    expect(advanced).toBe(false); // held while the handler works
    expect(clock.now()).toBe(START);
    finish();
    expect((await answer).status).toBe(200);
    await advancing;
    expect(handledAt).toEqual([START]);
    expect(clock.now()).toBe(START + HOUR);
    expect(clock.busy).toEqual([]);
  });
});
