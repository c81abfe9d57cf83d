// Webhooks against real receivers on loopback: one per status change, signed over the exact URL
// (checked here with node:crypto), the whole retry schedule driven by the clock, the stop at the
// first 2xx, the delivery log, and a dead or slow receiver never holding anything up. The attempt's
// own 10 s deadline against a receiver that never answers is wall-deadlines.test.ts's.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  adminCall,
  attemptsSettled,
  CARD,
  get,
  M1,
  payinBody,
  post,
  push,
  receiver,
  sandboxForFile,
  start,
  type Started,
  webhookSignatureOk,
} from './helpers.js';
import { describeFailure, fetchSender, type DeliveryAttempt } from '../src/deliveries.js';
import { nodeSender } from '../src/sender-node.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const MIN = 60_000;
const time = (datetime: string) => Date.parse(`${datetime}Z`);

type Attempt = DeliveryAttempt;

async function deliveries(transactionId?: string, status?: string): Promise<Attempt[]> {
  const log: Attempt[] = (await adminCall(sb, 'GET', `/deliveries${transactionId ? `?transaction_id=${transactionId}` : ''}`)).body;
  return status === undefined ? log : log.filter((a) => a.status === status);
}

const statusOf = (r: { body: string }) => JSON.parse(r.body).status as string;

/**
 * Answers the webhooks announcing `new` with `answers(n)` for the n-th of them; every other
 * webhook (the expiry the clock causes when it passes 30 minutes) gets a 200.
 */
function answeringNew(answers: (n: number) => number) {
  let n = 0;
  return (_i: number, r: { body: string }) => (statusOf(r) === 'new' ? answers(++n) : 200);
}

/** Waits until the log holds `count` finished attempts for a transaction. */
const settled = (transactionId: string, count: number) => attemptsSettled(sb, transactionId, count);

describe('the retry schedule', () => {
  it('fails four times, then succeeds on attempt 5: at once, at once, +15 min, +30 min, +1 h', async () => {
    const hooks = await receiver(answeringNew((n) => (n <= 4 ? 500 : 200)));
    const ofNew = () => hooks.all.filter((r) => statusOf(r) === 'new');
    try {
      const webhookUrl = hooks.url('/hooks/pay?shop=42');
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'sched-1', webhook_url: webhookUrl }));
      const id = created.body.id;
      // Attempts 1 and 2 run at once, on wall time.
      await hooks.next();
      await hooks.next();
      let log = await settled(id, 2);
      expect(log.map((a) => a.attempt)).toEqual([1, 2, 3]);
      expect(log[2]!.sent_at).toBeNull();
      const due3 = time(log[2]!.due_at) - time(log[1]!.sent_at!);
      expect(due3).toBeGreaterThanOrEqual(15 * MIN);
      expect(due3).toBeLessThan(15 * MIN + 10_000); // the delay counts from the end of attempt 2

      // 14 minutes: nothing is due yet.
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 14 * 60 });
      expect(hooks.all).toHaveLength(2);
      // Then attempt 3, and the rest of the schedule in one step.
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 60 });
      expect(hooks.all).toHaveLength(3);
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 3 * 3600 });
      expect(ofNew()).toHaveLength(5);

      log = await deliveries(id, 'new');
      expect(log.map((a) => [a.attempt, a.response_status, a.error])).toEqual([
        [1, 500, null],
        [2, 500, null],
        [3, 500, null],
        [4, 500, null],
        [5, 200, null],
      ]);
      // Under the driven clock, each attempt runs exactly when due, and each delay counts from it.
      expect(time(log[3]!.due_at) - time(log[2]!.sent_at!)).toBe(30 * MIN);
      expect(time(log[4]!.due_at) - time(log[3]!.sent_at!)).toBe(60 * MIN);
      for (const a of log.slice(2)) expect(a.sent_at).toBe(a.due_at);
      for (const a of log) expect(a).toMatchObject({ transaction_id: id, status: 'new', url: webhookUrl });

      // Every attempt: the same body, signed afresh over the exact URL with the merchant's secret.
      for (const r of ofNew()) {
        expect(r.url).toBe('/hooks/pay?shop=42');
        expect(JSON.parse(r.body)).toEqual({ id, reference_id: 'sched-1', status: 'new' });
        expect(r.headers['content-type']).toBe('application/json');
        expect(webhookSignatureOk(M1, webhookUrl, r)).toBe(true);
        expect(webhookSignatureOk(M1, webhookUrl.replace('?shop=42', ''), r)).toBe(false);
      }

      // Stopped at the 2xx: a day later, still five.
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 24 * 3600 });
      expect(ofNew()).toHaveLength(5);
      expect(await deliveries(id, 'new')).toHaveLength(5);
      // The clock also passed expires_at: one more status change, one more webhook, delivered once.
      expect(hooks.all.filter((r) => statusOf(r) === 'expired')).toHaveLength(1);
    } finally {
      await hooks.close();
    }
  });

  it('stops at the first 2xx (attempt 3 here)', async () => {
    const hooks = await receiver(answeringNew((n) => (n <= 2 ? 503 : 204)));
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await settled(created.body.id, 2);
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 10 * 3600 });
      expect(hooks.all.filter((r) => statusOf(r) === 'new').map((r) => r.answered)).toEqual([503, 503, 204]);
      expect((await deliveries(created.body.id, 'new')).map((a) => a.response_status)).toEqual([503, 503, 204]);
    } finally {
      await hooks.close();
    }
  });

  it('gives up after five attempts when every one fails', async () => {
    const hooks = await receiver(() => 500);
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await settled(created.body.id, 2);
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 2 * 3600 });
      const ofNew = () => hooks.all.filter((r) => statusOf(r) === 'new');
      expect(ofNew()).toHaveLength(5);
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 30 * 24 * 3600 });
      expect(ofNew()).toHaveLength(5);
      // expired (at 30 min) failed five times too.
      expect(hooks.all).toHaveLength(10);
      const log = await deliveries(created.body.id, 'new');
      expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
      expect(log.every((a) => a.sent_at !== null)).toBe(true);
    } finally {
      await hooks.close();
    }
  });

  it('counts a redirect as a failure (never followed)', async () => {
    const hooks = await receiver((n) => (n === 1 ? 302 : 200));
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      const log = await settled(created.body.id, 2);
      expect(log.map((a) => a.response_status)).toEqual([302, 200]);
    } finally {
      await hooks.close();
    }
  });

  it('records a refused connection as the error, and keeps retrying on schedule', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: `http://127.0.0.1:${port}/hooks` }));
    const log = await settled(created.body.id, 2);
    expect(log.slice(0, 2).map((a) => [a.response_status, a.error])).toEqual([
      [null, 'connection refused'],
      [null, 'connection refused'],
    ]);
    expect(log[2]).toMatchObject({ attempt: 3, sent_at: null });
  });

  it.each([
    ['the Node sender', () => nodeSender()],
    ['the fetch sender', () => ({ send: fetchSender, close: () => {} })],
  ])('%s gives up on a receiver that never answers, as a timeout', async (_name, make) => {
    // The real senders with a short timeout (the sandbox uses 10 s) against a receiver that reads
    // the webhook and never answers.
    const { createServer: createHttp } = await import('node:http');
    let arrived = () => {};
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const silent = createHttp((req) => req.resume().on('end', () => arrived()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const sender = make();
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hooks`;
      const attempt = sender.send(url, {
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: new AbortController().signal,
        timeoutMs: 300,
      });
      await reached;
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(describeFailure(error)).toBe('timeout after 10 s');
    } finally {
      sender.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('the Node sender gives each attempt its own deadline, whatever the deadlines of the attempts under way beside it', async () => {
    // One timer serves every attempt under way: an attempt with a shorter deadline than one already
    // waiting, and one started after an earlier attempt ended, must each still time out on their own.
    const { createServer: createHttp } = await import('node:http');
    const silent = createHttp((req) => req.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const hooks = await receiver(() => 204);
    const sender = nodeSender();
    const outcome = (attempt: Promise<number>) =>
      attempt.then(
        (status) => `answered ${status}`,
        (e: unknown) => describeFailure(e),
      );
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hooks`;
      const signal = new AbortController().signal;
      const long = outcome(sender.send(url, { headers: {}, body: '{}', signal, timeoutMs: 60_000 }));
      expect(await outcome(sender.send(hooks.url(), { headers: {}, body: '{}', signal, timeoutMs: 60_000 }))).toBe('answered 204');
      // Two under way at once, the later deadline first; then one started after both ended.
      const both = [600, 300].map((timeoutMs) => outcome(sender.send(url, { headers: {}, body: '{}', signal, timeoutMs })));
      expect(await Promise.all(both)).toEqual(['timeout after 10 s', 'timeout after 10 s']);
      expect(await outcome(sender.send(url, { headers: {}, body: '{}', signal, timeoutMs: 200 }))).toBe('timeout after 10 s');
      // The first attempt, with its own long deadline, is still under way.
      expect(await Promise.race([long, new Promise((resolve) => setTimeout(() => resolve('still under way'), 300))])).toBe(
        'still under way',
      );
    } finally {
      sender.close();
      silent.closeAllConnections();
      silent.close();
      await hooks.close();
    }
  });

  it('the Node sender sends to the exact path and query, and reports the status', async () => {
    const hooks = await receiver(() => 418);
    const sender = nodeSender();
    try {
      const status = await sender.send(hooks.url('/a/b/?x=1&y=%20'), {
        headers: { 'x-test': '1' },
        body: '{"a":1}',
        signal: new AbortController().signal,
        timeoutMs: 5000,
      });
      expect(status).toBe(418);
      const got = await hooks.next();
      expect(got.url).toBe('/a/b/?x=1&y=%20');
      expect(got.body).toBe('{"a":1}');
      expect(got.headers['x-test']).toBe('1');
    } finally {
      sender.close();
      await hooks.close();
    }
  });
  it('the Node sender reports the status of an answer with a huge body, reads at most 64 KiB of it and drops its connection', async () => {
    const { createServer: createHttp } = await import('node:http');
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(16 * 1024, 'x');
    // A receiver that answers 200 and then streams a body without end, as long as it is read.
    const huge = createHttp((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const more = () => {
          while (!closed && written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      });
      res.on('close', () => (closed = true));
    });
    await new Promise<void>((resolve) => huge.listen(0, '127.0.0.1', resolve));
    const sender = nodeSender();
    try {
      const url = `http://127.0.0.1:${(huge.address() as { port: number }).port}/hooks`;
      const status = await sender.send(url, { headers: {}, body: '{}', signal: new AbortController().signal, timeoutMs: 10_000 });
      expect(status).toBe(200);
      for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(true); // the sandbox hung up rather than reading on
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      sender.close();
      huge.closeAllConnections();
      huge.close();
    }
  });

  it("the Node sender stops an attempt under way when the sandbox's generation ends (a reset), and not another generation's", async () => {
    const { createServer: createHttp } = await import('node:http');
    const arrived: (() => void)[] = [];
    const silent = createHttp((req) => req.resume().on('end', () => arrived.shift()?.()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const sender = nodeSender();
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hooks`;
      const old = new AbortController();
      const current = new AbortController();
      const reached = Promise.all([0, 1].map(() => new Promise<void>((resolve) => arrived.push(resolve))));
      const first = sender.send(url, { headers: {}, body: '{}', signal: old.signal, timeoutMs: 60_000 }).then(
        () => 'answered',
        (e: unknown) => e,
      );
      const second = sender.send(url, { headers: {}, body: '{}', signal: current.signal, timeoutMs: 60_000 }).then(
        () => 'answered',
        (e: unknown) => e,
      );
      await reached;
      old.abort(new Error('reset'));
      expect(((await first) as Error).message).toBe('reset');
      const late = await Promise.race([second, new Promise((resolve) => setTimeout(() => resolve('still under way'), 300))]);
      expect(late).toBe('still under way');
      current.abort(new Error('closed'));
      expect(((await second) as Error).message).toBe('closed');
      // A signal already aborted starts nothing.
      await expect(sender.send(url, { headers: {}, body: '{}', signal: old.signal, timeoutMs: 1000 })).rejects.toThrow('reset');
    } finally {
      sender.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('one webhook per status change', () => {
  it('new at creation, then executed after the card push, each its own delivery', async () => {
    const hooks = await receiver();
    try {
      const created = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({ method: 'card', reference_id: 'per-change', webhook_url: hooks.url() }),
      );
      const first = await hooks.next();
      expect(JSON.parse(first.body)).toEqual({ id: created.body.id, reference_id: 'per-change', status: 'new' });
      await push(created.body.next_action.url, created.body.id, CARD);
      const second = await hooks.next();
      expect(JSON.parse(second.body)).toEqual({ id: created.body.id, reference_id: 'per-change', status: 'executed' });
      expect(webhookSignatureOk(M1, hooks.url(), second)).toBe(true);
      const log = await settled(created.body.id, 2);
      expect(log.map((a) => [a.status, a.attempt, a.response_status])).toEqual([
        ['new', 1, 200],
        ['executed', 1, 200],
      ]);
    } finally {
      await hooks.close();
    }
  });

  it('a payin created without a reference sends reference_id null', async () => {
    const hooks = await receiver();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      expect(JSON.parse((await hooks.next()).body)).toEqual({ id: created.body.id, reference_id: null, status: 'new' });
    } finally {
      await hooks.close();
    }
  });

  it('resend starts a new delivery of the current status', async () => {
    const hooks = await receiver();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await hooks.next();
      await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'failed', error_code: 'risk', error_message: 'Blocked.' });
      expect(JSON.parse((await hooks.next()).body).status).toBe('failed');
      await adminCall(sb, 'POST', `/payins/${created.body.id}/resend`);
      expect(JSON.parse((await hooks.next()).body).status).toBe('failed');
      expect(hooks.all).toHaveLength(3);
    } finally {
      await hooks.close();
    }
  });
});

describe('destinations', () => {
  it("a merchant's static address wins over webhook_url, signed over the static URL", async () => {
    const hooks = await receiver();
    const staticUrl = hooks.url('/static/endpoint/');
    const own = await start({ merchants: [{ ...M1, webhookUrl: staticUrl }] });
    try {
      const created = await post(`${own.url}/v2/merchants/payins/`, payinBody({ webhook_url: 'http://127.0.0.1:9/never' }));
      const r = await hooks.next();
      expect(r.url).toBe('/static/endpoint/');
      expect(JSON.parse(r.body).id).toBe(created.body.id);
      expect(webhookSignatureOk(M1, staticUrl, r)).toBe(true);
    } finally {
      await own.close();
      await hooks.close();
    }
  });

  it('a legacy payin with no webhook_url and no static address sends none', async () => {
    const { payinV1Body } = await import('./helpers.js');
    const { webhook_url: _w, ...body } = payinV1Body();
    const created = await post(`${sb.url}/v1/merchants/payins/`, body);
    expect(created.status).toBe(200);
    expect(await deliveries(created.body.id)).toEqual([]);
  });
});

describe('deliveries never block', () => {
  it('a receiver that does not answer holds up neither requests nor other deliveries', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { createServer: createHttp } = await import('node:http');
    let arrivedHeld = () => {};
    const heldArrived = new Promise<void>((resolve) => (arrivedHeld = resolve));
    const slow = createHttp((_req, res) => {
      arrivedHeld();
      void held.then(() => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const fast = await receiver();
    try {
      const slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/hooks`;
      await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: slowUrl }));
      await heldArrived; // its webhook is in flight, unanswered
      const other = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'meanwhile', webhook_url: fast.url() }));
      expect(other.status).toBe(200);
      expect((await get(`${sb.url}/v2/merchants/payins/${other.body.id}`)).status).toBe(200);
      expect(JSON.parse((await fast.next()).body).reference_id).toBe('meanwhile');
    } finally {
      release();
      await fast.close();
      await new Promise<void>((resolve) => {
        slow.close(() => resolve());
        slow.closeAllConnections();
      });
    }
  });
});
