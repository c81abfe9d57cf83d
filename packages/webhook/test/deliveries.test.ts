// Duplicate handling across the service's retry schedule (at once, 15 min, 30 min, 1 h), with the
// store's clock and the verifier's clock driven by the test.
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../src/index.js';
import type { DeliveryStore } from '../src/index.js';
import { webhookHandler } from '../src/fetch/index.js';
import { createTestWebhook, DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS, deliveryKey, memoryStore } from '../src/index.js';
import { clockAt } from './clock-at.js';

const merchantId = 'm_12345';
const secret = 'sk_test_dedupe';
const url = 'https://shop.example/webhooks/pay';
const MIN = 60_000;

function setup() {
  let clock = Date.UTC(2026, 10, 22, 12, 0, 0);
  const seen: WebhookEvent[] = [];
  let failures = 0;
  const store = memoryStore({ clock: clockAt(() => clock) });
  const receive = webhookHandler({
    merchantId,
    secret,
    url,
    store,
    clock: clockAt(() => clock),
    onRefused: () => {},
    handler: (event) => {
      if (failures > 0) {
        failures--;
        throw new Error('down');
      }
      seen.push(event);
    },
  });
  // Each attempt is signed anew at the time it is sent, as the service does.
  const attempt = (payload: object) =>
    receive(createTestWebhook({ merchantId, secret, url, payload, timestamp: Math.floor(clock / 1000) }).request);
  return { seen, attempt, store, advance: (ms: number) => (clock += ms), failNext: (n: number) => (failures = n) };
}

describe('duplicate deliveries', () => {
  const event = { id: 'pi_77', reference_id: 'order-77', status: 'executed' };

  it('processes once across the whole retry schedule when the 2xx is lost each time', async () => {
    const { seen, attempt, advance } = setup();
    const statuses = [];
    for (const wait of [0, 0, 15 * MIN, 30 * MIN, 60 * MIN]) {
      advance(wait);
      statuses.push((await attempt(event)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(seen).toEqual([event]);
  });

  it('processes the retry after a handler failure, then acknowledges later copies', async () => {
    const { seen, attempt, advance, failNext } = setup();
    failNext(2);
    expect((await attempt(event)).status).toBe(500);
    expect((await attempt(event)).status).toBe(500); // the immediate retry fails too
    advance(15 * MIN);
    expect((await attempt(event)).status).toBe(200);
    advance(30 * MIN);
    const late = await attempt(event);
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ ok: true, duplicate: true });
    expect(seen).toEqual([event]);
  });

  it('treats each status change as its own delivery', async () => {
    const { seen, attempt } = setup();
    await attempt({ ...event, status: 'new' });
    await attempt(event);
    await attempt({ ...event, status: 'new' });
    expect(seen.map((e) => e.status)).toEqual(['new', 'executed']);
  });

  it('answers 409 to a copy that arrives while the first is still being processed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    const calls: string[] = [];
    const receive = webhookHandler({
      merchantId,
      secret,
      url,
      onRefused: () => {},
      handler: async (e) => {
        calls.push(e.id);
        entered();
        await gate;
      },
    });
    const first = receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
    await inHandler; // the first attempt is being processed
    const second = await receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
    expect(second.status).toBe(409);
    release();
    expect((await first).status).toBe(200);
    expect(calls).toEqual(['pi_77']);
  });

  it('processes a delivery again after a receiver died while processing it (the claim is a lease)', async () => {
    const { seen, attempt, store, advance } = setup();
    // An attempt claimed the delivery, then its process died: no complete, no release.
    expect(await store.claim(deliveryKey(event), DEFAULT_PROCESSING_LEASE_MS, 'dead')).toBe('claimed');
    expect((await attempt(event)).status).toBe(409); // the service's immediate retry
    expect(seen).toEqual([]);
    advance(15 * MIN); // its next retry, after the lease lapsed
    expect((await attempt(event)).status).toBe(200);
    expect(seen).toEqual([event]);
    expect(DEFAULT_PROCESSING_LEASE_MS).toBeLessThan(15 * MIN);
  });

  describe('a store that fails', () => {
    const failing = (step: keyof DeliveryStore): DeliveryStore => {
      const inner = memoryStore();
      return {
        claim: (k, ms, t) => (step === 'claim' ? Promise.reject(new Error('redis down')) : inner.claim(k, ms, t)),
        complete: (k, ms) => (step === 'complete' ? Promise.reject(new Error('redis down')) : inner.complete(k, ms)),
        release: (k, t) => (step === 'release' ? Promise.reject(new Error('redis down')) : inner.release(k, t)),
      };
    };
    const receiver = (step: keyof DeliveryStore, handlerFails = false) => {
      const calls: string[] = [];
      const reports: string[] = [];
      const receive = webhookHandler({
        merchantId,
        secret,
        url,
        store: failing(step),
        onRefused: (f) => reports.push(`${f.status} ${f.reason}`),
        handler: (e) => {
          calls.push(e.id);
          if (handlerFails) throw new Error('down');
        },
      });
      const send = () => receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
      return { calls, reports, send };
    };

    it('to claim: 503, so the service retries, and the handler is not called', async () => {
      const { calls, reports, send } = receiver('claim');
      const response = await send();
      expect([response.status, await response.json()]).toEqual([503, { error: 'store_failed' }]);
      expect(calls).toEqual([]);
      expect(reports).toEqual(['503 store_failed']);
    });

    it('to complete: still 200, since the handler processed the event', async () => {
      const { calls, reports, send } = receiver('complete');
      expect((await send()).status).toBe(200);
      expect(calls).toEqual(['pi_77']);
      expect(reports).toEqual(['200 store_failed']);
    });

    it('to release after a handler failure: 500, and the lease lets a later attempt through', async () => {
      const { calls, reports, send } = receiver('release', true);
      expect((await send()).status).toBe(500);
      expect(calls).toEqual(['pi_77']);
      expect(reports).toEqual(['500 handler_failed', '500 store_failed']);
    });
  });

  describe('a failure report that throws', () => {
    it('still releases the claim after a handler failure, so the retry is processed rather than answered 409', async () => {
      const calls: string[] = [];
      let fail = true;
      const receive = webhookHandler({
        merchantId,
        secret,
        url,
        onRefused: () => {
          throw new Error('the log pipeline is down');
        },
        handler: (e) => {
          calls.push(e.id);
          if (fail) throw new Error('down');
        },
      });
      const send = () => receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
      const failed = await send();
      expect([failed.status, await failed.json()]).toEqual([500, { error: 'handler_failed' }]);
      fail = false;
      expect((await send()).status).toBe(200); // not 409: the claim was given back
      expect(calls).toEqual(['pi_77', 'pi_77']);
    });

    it('leaves a refusal answered as it was', async () => {
      const receive = webhookHandler({
        merchantId,
        secret,
        url,
        handler: () => {},
        onRefused: () => {
          throw new Error('the log pipeline is down');
        },
      });
      const request = createTestWebhook({ merchantId, secret: 'another', url, payload: event }).request;
      const response = await receive(request);
      expect([response.status, await response.json()]).toEqual([401, { error: 'bad_signature' }]);
    });
  });

  describe('a store that answers a claim with anything but the three values', () => {
    const answers: [string, unknown][] = [
      ['undefined', undefined],
      ['true', true],
      ['"CLAIMED"', 'CLAIMED'],
      ['"ok"', 'ok'],
      ['an object', { state: 'claimed' }],
      ['a promise of null', Promise.resolve(null)],
    ];
    it.each(answers)('is a store failure when it answers %s: 503, and the handler is not called', async (_name, answer) => {
      const calls: string[] = [];
      const reports: string[] = [];
      const store: DeliveryStore = {
        claim: () => answer as never,
        complete: () => {},
        release: () => {},
      };
      const receive = webhookHandler({
        merchantId,
        secret,
        url,
        store,
        onRefused: (f) => reports.push(`${f.status} ${f.reason}`),
        handler: (e) => void calls.push(e.id),
      });
      const response = await receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
      expect([response.status, await response.json()]).toEqual([503, { error: 'store_failed' }]);
      expect(calls).toEqual([]);
      expect(reports).toEqual(['503 store_failed']);
    });

    it('is a store failure when claim throws synchronously', async () => {
      const receive = webhookHandler({
        merchantId,
        secret,
        url,
        onRefused: () => {},
        handler: () => {},
        store: {
          claim: () => {
            throw new Error('no connection');
          },
          complete: () => {},
          release: () => {},
        },
      });
      expect((await receive(createTestWebhook({ merchantId, secret, url, payload: event }).request)).status).toBe(503);
    });
  });

  it('gives back only a claim in progress: a release never forgets a delivery already done', () => {
    const store = memoryStore();
    const key = deliveryKey(event);
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'A')).toBe('claimed');
    store.complete(key, DEFAULT_DELIVERY_TTL_MS);
    store.release(key, 'A'); // a late release from an attempt whose lease had lapsed
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'B')).toBe('done');
  });

  it("gives back only the releasing attempt's claim: a late release leaves the claim a retry took after the lease lapsed", () => {
    let clock = 0;
    const store = memoryStore({ clock: clockAt(() => clock) });
    const key = deliveryKey(event);
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'A')).toBe('claimed');
    clock = DEFAULT_PROCESSING_LEASE_MS + 1; // A is still running, its lease lapsed
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'B')).toBe('claimed'); // the service's retry
    store.release(key, 'A'); // A fails, late
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'C')).toBe('in_progress'); // B still holds it
    store.release(key, 'B');
    expect(store.claim(key, DEFAULT_PROCESSING_LEASE_MS, 'C')).toBe('claimed');
  });

  it('makes a new token for every attempt, so a failing attempt gives back only its own claim', async () => {
    const tokens: string[] = [];
    const inner = memoryStore();
    const store: DeliveryStore = {
      claim: (k, ms, t) => {
        tokens.push(t);
        return inner.claim(k, ms, t);
      },
      complete: (k, ms) => inner.complete(k, ms),
      release: (k, t) => {
        tokens.push(`release ${t}`);
        return inner.release(k, t);
      },
    };
    let fail = true;
    const receive = webhookHandler({
      merchantId,
      secret,
      url,
      store,
      onRefused: () => {},
      handler: () => {
        if (fail) throw new Error('down');
      },
    });
    const send = () => receive(createTestWebhook({ merchantId, secret, url, payload: event }).request);
    expect((await send()).status).toBe(500);
    fail = false;
    expect((await send()).status).toBe(200);
    expect(tokens).toHaveLength(3);
    expect(tokens[1]).toBe(`release ${tokens[0]}`);
    expect(tokens[2]).not.toBe(tokens[0]);
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('forgets a delivery after its TTL, which outlasts the retry schedule', () => {
    let clock = 0;
    const store = memoryStore({ clock: clockAt(() => clock) });
    const key = deliveryKey(event);
    expect(store.claim(key, DEFAULT_DELIVERY_TTL_MS, 'A')).toBe('claimed');
    store.complete(key, DEFAULT_DELIVERY_TTL_MS);
    clock = (15 + 30 + 60) * MIN;
    expect(store.claim(key, DEFAULT_DELIVERY_TTL_MS, 'A')).toBe('done');
    clock = DEFAULT_DELIVERY_TTL_MS + 1;
    expect(store.claim(key, DEFAULT_DELIVERY_TTL_MS, 'A')).toBe('claimed');
  });

  it('keys cannot collide through the characters of id and status', () => {
    expect(deliveryKey({ id: 'a|b', status: 'c' })).not.toBe(deliveryKey({ id: 'a', status: 'b|c' }));
  });
});
