// Fault injection over real HTTP: every kind, its count and matching, and what was (or was not)
// committed behind it. The faults that stand for a slow service (delay, lookup_lag) run on a test
// clock: their seconds pass when the test moves it, not in real time.
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { describe, expect, it } from 'vitest';
import { createSandbox, shouldDropConnection } from '../src/index.js';
import {
  adminCall,
  CARD,
  get,
  M1,
  payinBody,
  post,
  push,
  receiver,
  sandboxForFile,
  signed,
  start,
  type Started,
  until,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const fault = (body: Record<string, unknown>, on: { url: string } = sb) => adminCall(on, 'POST', '/faults', body);
const createUrl = (on: { url: string } = sb) => `${on.url}/v2/merchants/payins/`;
const byRef = (ref: string, on: { url: string } = sb) => get(`${on.url}/v2/merchants/payins/?reference_id=${ref}`);

/** A signed create whose answer may never come: resolves with the answer or the network error. */
async function attempt(ref: string, signal?: AbortSignal, on: { url: string } = sb, timestamp?: number) {
  const body = JSON.stringify(payinBody({ reference_id: ref }));
  try {
    const response = await fetch(createUrl(on), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', createUrl(on), body, timestamp) },
      body,
      ...(signal ? { signal } : {}),
    });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return { error: error as Error };
  }
}

/**
 * Runs `use` with a sandbox of its own on a test clock, closed after. The clock starts at the real
 * now, so requests the helpers sign at real time are fresh while the test moves it a few seconds.
 */
async function onTestClock(use: (on: Started, clock: TestClock) => Promise<void>, options: { toleranceSeconds?: number } = {}) {
  const clock = createTestClock();
  const on = await start({ ...options, clock });
  try {
    await use(on, clock);
  } finally {
    await on.close();
  }
}

/** Waits until the sandbox has used up its faults: the request they were for has arrived. */
const faultsUsed = (on: Started) =>
  until(async () => ((await adminCall(on, 'GET', '/faults')).body.length === 0 ? true : undefined), 'the fault to be used', on);

describe('drop_before_commit', () => {
  it('destroys the connection with no answer, and nothing is created', async () => {
    expect((await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_before_commit', count: 1 })).status).toBe(200);
    const a = await attempt('before-1');
    expect(a.error).toBeInstanceOf(TypeError); // fetch failed: the socket closed without a response
    expect((await byRef('before-1')).status).toBe(404);
    expect((await adminCall(sb, 'GET', '/transactions')).body).toEqual([]);
    expect((await adminCall(sb, 'GET', '/deliveries')).body).toEqual([]);
    // count 1: the next request is handled normally.
    expect((await attempt('before-1')).status).toBe(200);
  });
});

describe('drop_after_commit', () => {
  it('commits the create (and its webhook), then destroys the connection with no answer', async () => {
    const hooks = await receiver();
    try {
      await fault({ method: 'post', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
      const body = JSON.stringify(payinBody({ reference_id: 'after-1', webhook_url: hooks.url() }));
      const lost = await fetch(createUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signed(M1, 'POST', createUrl(), body) },
        body,
      }).catch((e: Error) => e);
      expect(lost).toBeInstanceOf(TypeError);
      const found = await byRef('after-1');
      expect(found.status).toBe(200);
      expect(JSON.parse((await hooks.next()).body)).toEqual({ id: found.body.id, reference_id: 'after-1', status: 'new' });
      // A retry of the lost create is refused as a duplicate, naming the record.
      const retry = await post(createUrl(), body);
      expect(retry.status).toBe(409);
      expect(retry.body.error.id).toBe(found.body.id);
    } finally {
      await hooks.close();
    }
  });

  it('on a lookup: answered, then dropped', async () => {
    const created = await post(createUrl(), payinBody());
    await fault({ method: 'GET', path_prefix: `/v2/merchants/payins/${created.body.id}`, kind: 'drop_after_commit', count: 1 });
    const url = `${sb.url}/v2/merchants/payins/${created.body.id}`;
    await expect(fetch(url, { headers: signed(M1, 'GET', url) })).rejects.toThrow(TypeError);
    expect((await get(url)).status).toBe(200);
  });
});

describe('status_500_after_commit', () => {
  it('commits, then answers 500 internal_error', async () => {
    await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'status_500_after_commit', count: 1 });
    const a = await post(createUrl(), payinBody({ reference_id: 'five-1' }));
    expect(a.status).toBe(500);
    expect(a.body.error.code).toBe('internal_error');
    expect((await byRef('five-1')).status).toBe(200);
  });

  it('a refused request behind it still changes nothing (and uses up the count)', async () => {
    await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'status_500_after_commit', count: 1 });
    const text = JSON.stringify(payinBody({ reference_id: 'five-2' }));
    const forged = await fetch(createUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', createUrl(), '{}') },
      body: text,
    });
    expect(forged.status).toBe(500);
    expect((await adminCall(sb, 'GET', '/transactions')).body).toEqual([]);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([]);
  });
});

describe('delay', () => {
  it('holds the request, commits after the delay, even when the client has gone', async () => {
    await onTestClock(async (on, clock) => {
      await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'delay', count: 1, ms: 5_000 }, on);
      const controller = new AbortController();
      const pending = attempt('delay-1', controller.signal, on);
      // Wait until the request has arrived (its fault is used up), then look: not committed yet.
      await faultsUsed(on);
      expect((await byRef('delay-1', on)).status).toBe(404);
      controller.abort(); // the client gives up
      expect((await pending).error?.name).toBe('AbortError');
      await clock.advance(4_999);
      expect((await byRef('delay-1', on)).status).toBe(404);
      // The create still commits once the delay is over: the advance waits for the request it woke.
      await clock.advance(1);
      const found = await byRef('delay-1', on);
      expect(found.status).toBe(200);
      expect(found.body.status).toBe('new');
    });
  });

  it('judges the timestamp at arrival: a request fresh on arrival passes a delay longer than the tolerance', async () => {
    await onTestClock(
      async (on, clock) => {
        await fault({ method: 'POST', path_prefix: '/v2/', kind: 'delay', count: 1, ms: 10_000 }, on);
        // Signed at the clock's time: fresh on arrival, 10 s old (twice the tolerance) when handled.
        const pending = attempt('late', undefined, on, Math.floor(clock.now() / 1000));
        await faultsUsed(on);
        await clock.advance('10s');
        expect((await pending).status).toBe(200);
        expect(on.lines.some((l) => l.startsWith('POST /v2/merchants/payins/ 200') && l.endsWith('fault=delay'))).toBe(true);
      },
      { toleranceSeconds: 5 },
    );
  });
});

describe('lookup_lag', () => {
  it('hides a new record from lookups by id and by reference for ms, while 409 still guards it', async () => {
    await onTestClock(async (on, clock) => {
      // On the test clock the lag lasts exactly this long, however slow the requests below are.
      const LAG_MS = 6_000;
      await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'lookup_lag', count: 1, ms: LAG_MS }, on);
      const created = await post(createUrl(on), payinBody({ reference_id: 'lag-1' }));
      expect(created.status).toBe(200);
      expect((await get(`${on.url}/v2/merchants/payins/${created.body.id}`)).status).toBe(404);
      expect((await byRef('lag-1', on)).status).toBe(404);
      const dup = await post(createUrl(on), payinBody({ reference_id: 'lag-1' }));
      expect(dup.body.error).toMatchObject({ code: 'duplicate_reference_id', id: created.body.id });
      // Another record, created without the fault, is visible at once.
      expect((await byRef((await post(createUrl(on), payinBody({ reference_id: 'lag-2' }))).body.reference_id, on)).status).toBe(200);
      await clock.advance(LAG_MS - 1);
      expect((await byRef('lag-1', on)).status).toBe(404);
      await clock.advance(1);
      expect((await byRef('lag-1', on)).body.id).toBe(created.body.id);
      expect((await get(`${on.url}/v2/merchants/payins/${created.body.id}`)).status).toBe(200);
    });
  });
});

describe('matching', () => {
  it('applies to the next count matching requests, by method and by prefix of path and query', async () => {
    await post(createUrl(), payinBody({ reference_id: 'm-1' }));
    await fault({ method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 2 });
    const id = (await adminCall(sb, 'GET', '/transactions')).body[0].id;
    // A lookup by id does not match the prefix (no "?"), nor does a POST.
    expect((await get(`${sb.url}/v2/merchants/payins/${id}`)).status).toBe(200);
    expect((await post(createUrl(), payinBody({ reference_id: 'm-2' }))).status).toBe(200);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([
      { method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 2, ms: null },
    ]);
    expect((await byRef('m-1')).status).toBe(500);
    expect((await adminCall(sb, 'GET', '/faults')).body[0].count).toBe(1);
    expect((await byRef('m-1')).status).toBe(500);
    expect((await byRef('m-1')).status).toBe(200);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([]);
  });

  it('oldest first, one fault per request', async () => {
    await fault({ method: 'POST', path_prefix: '/v2/', kind: 'status_500_after_commit', count: 1 });
    await fault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_before_commit', count: 1 });
    expect((await post(createUrl(), payinBody({ reference_id: 'o-1' }))).status).toBe(500);
    expect((await attempt('o-2')).error).toBeInstanceOf(TypeError);
    expect((await attempt('o-3')).status).toBe(200);
    expect((await adminCall(sb, 'GET', '/transactions')).body.map((t: { reference_id: string }) => t.reference_id)).toEqual(['o-1', 'o-3']);
  });

  it('faults the card push too', async () => {
    const created = await post(createUrl(), payinBody({ method: 'card' }));
    await fault({ method: 'POST', path_prefix: '/card-proxy/', kind: 'drop_after_commit', count: 1 });
    const lost = await push(created.body.next_action.url, created.body.id, CARD).catch((e: Error) => e);
    expect(lost).toBeInstanceOf(TypeError);
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
  });
});

describe('in a bare Fetch host', () => {
  it('marks a drop on the response (a 500 connection_dropped) for the host to act on', async () => {
    const core = createSandbox({ merchants: [M1] });
    try {
      await core.fetch(
        new Request('http://sandbox.test/_sandbox/faults', {
          method: 'POST',
          body: JSON.stringify({ method: 'GET', path_prefix: '/', kind: 'drop_before_commit', count: 1 }),
        }),
        { remoteAddress: '127.0.0.1' }, // the host says the caller is on this machine
      );
      const dropped = await core.fetch(new Request('http://sandbox.test/v2/merchants/payins/pi_x'));
      expect(shouldDropConnection(dropped)).toBe(true);
      expect(dropped.status).toBe(500);
      expect((await dropped.json()).error.code).toBe('connection_dropped');
      const normal = await core.fetch(new Request('http://sandbox.test/v2/merchants/payins/pi_x'));
      expect(shouldDropConnection(normal)).toBe(false);
      expect(normal.status).toBe(401);
    } finally {
      core.close();
    }
  });
});
