// Every attempt's time limit shares one timer: each limit still aborts its own attempt, in order,
// at its own time, and only when it is due; limits that ended never fire; nothing is left behind.
// Over HTTP, calls with different limits in flight at once time out independently.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, TimeoutError } from '../src/index.js';
import { endTimeLimit, runningTimeLimits, startTimeLimit } from '../src/time-limits.js';
import { MERCHANT, SECRET, startServer, type TestServer } from './helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the time (ms since `from`) at which `controller` was aborted. */
function abortedAt(controller: AbortController, from: number): Promise<number> {
  return new Promise((resolve) => controller.signal.addEventListener('abort', () => resolve(Date.now() - from), { once: true }));
}

describe('one timer for every limit', () => {
  it('aborts each controller at its own limit, earliest first, whatever order they started in', async () => {
    const from = Date.now();
    const late = new AbortController();
    const early = new AbortController();
    const middle = new AbortController();
    const limits = [startTimeLimit(late, 300), startTimeLimit(early, 60), startTimeLimit(middle, 150)];
    const order: string[] = [];
    const times = await Promise.all(
      [
        ['late', late],
        ['early', early],
        ['middle', middle],
      ].map(([name, c]) =>
        abortedAt(c as AbortController, from).then((t) => {
          order.push(name as string);
          return t;
        }),
      ),
    );
    expect(order).toEqual(['early', 'middle', 'late']);
    // Never before its own limit.
    expect(times[0]).toBeGreaterThanOrEqual(300);
    expect(times[1]).toBeGreaterThanOrEqual(60);
    expect(times[2]).toBeGreaterThanOrEqual(150);
    expect(limits.every((l) => l.expired)).toBe(true);
    expect(runningTimeLimits()).toBe(0);
  });

  it('a timer that fires late, with several limits past, aborts them earliest first', async () => {
    const from = Date.now();
    const [late, early, middle] = [new AbortController(), new AbortController(), new AbortController()];
    const limits = [startTimeLimit(late, 400), startTimeLimit(early, 20), startTimeLimit(middle, 40)];
    const order: string[] = [];
    for (const [name, c] of [
      ['late', late],
      ['early', early],
      ['middle', middle],
    ] as const) {
      c.signal.addEventListener('abort', () => order.push(name), { once: true });
    }
    // The event loop held past both short limits, as a busy machine holds it: one firing finds both due.
    while (Date.now() - from < 100) {}
    await abortedAt(late, from);
    expect(order).toEqual(['early', 'middle', 'late']);
    expect(limits.every((l) => l.expired)).toBe(true);
    expect(runningTimeLimits()).toBe(0);
  });

  it('a limit that ended first never fires, and does not delay the ones still running', async () => {
    const from = Date.now();
    const ended = new AbortController();
    const running = new AbortController();
    const a = startTimeLimit(ended, 40);
    const b = startTimeLimit(running, 120);
    endTimeLimit(a);
    expect(await abortedAt(running, from)).toBeGreaterThanOrEqual(120);
    expect(ended.signal.aborted).toBe(false);
    expect(a.expired).toBe(false);
    expect(b.expired).toBe(true);
    expect(runningTimeLimits()).toBe(0);
  });

  it('a shorter limit started while a longer one is armed still fires on time', async () => {
    const long = new AbortController();
    const short = new AbortController();
    const l = startTimeLimit(long, 10_000);
    const from = Date.now();
    const s = startTimeLimit(short, 50);
    await abortedAt(short, from);
    expect(long.signal.aborted).toBe(false);
    endTimeLimit(l);
    expect(s.expired).toBe(true);
    expect(runningTimeLimits()).toBe(0);
  });

  it('an abort that starts and ends other limits on the spot loses none of them', async () => {
    const from = Date.now();
    const a = new AbortController();
    const b = new AbortController();
    const c = new AbortController();
    const started = new AbortController();
    const la = startTimeLimit(a, 30);
    const lb = startTimeLimit(b, 30);
    startTimeLimit(c, 90);
    let late: ReturnType<typeof startTimeLimit> | undefined;
    // Both a and b are due together; whichever is aborted first ends the other and starts a new one.
    const onAbort = (other: ReturnType<typeof startTimeLimit>) => () => {
      if (endTimeLimit(other)) late = startTimeLimit(started, 40);
    };
    a.signal.addEventListener('abort', onAbort(lb));
    b.signal.addEventListener('abort', onAbort(la));
    const [cAt, startedAt] = await Promise.all([abortedAt(c, from), abortedAt(started, from)]);
    expect(cAt).toBeGreaterThanOrEqual(90);
    expect(startedAt).toBeGreaterThanOrEqual(70); // 40 ms after the 30 ms limit that started it
    expect(a.signal.aborted !== b.signal.aborted).toBe(true); // exactly one of them
    expect(la.expired !== lb.expired).toBe(true);
    expect(late?.expired).toBe(true);
    expect(endTimeLimit(la) || endTimeLimit(lb)).toBe(false);
    expect(runningTimeLimits()).toBe(0);
  });

  it('many limits at once: each fires once, none early, and the list empties', async () => {
    const from = Date.now();
    const controllers = Array.from({ length: 200 }, () => new AbortController());
    const limits = controllers.map((c, i) => startTimeLimit(c, 20 + (i % 10) * 10));
    const times = await Promise.all(controllers.map((c) => abortedAt(c, from)));
    for (const [i, t] of times.entries()) expect(t).toBeGreaterThanOrEqual(20 + (i % 10) * 10);
    expect(limits.every((l) => l.expired)).toBe(true);
    expect(runningTimeLimits()).toBe(0);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(() => server.close());

  it('calls in flight together time out on their own limits; a finished call leaves nothing behind', async () => {
    server.next.push(
      () => {}, // never answers
      () => {},
    );
    const client = (timeoutMs: number) =>
      createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, retries: 0, timeoutMs });
    const from = Date.now();
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => ({ error: undefined, after: Date.now() - from }),
        (error: unknown) => ({ error, after: Date.now() - from }),
      );
    const slow = outcome(client(600).payins.get('pi_slow'));
    const quick = outcome(client(150).payins.get('pi_quick'));
    const first = await Promise.race([slow.then(() => 'slow'), quick.then(() => 'quick')]);
    expect(first).toBe('quick');
    const [q, s] = await Promise.all([quick, slow]);
    expect(q.error).toBeInstanceOf(TimeoutError);
    expect((q.error as Error).message).toMatch(/timeoutMs \(150 ms\)/);
    expect(s.error).toBeInstanceOf(TimeoutError);
    expect((s.error as Error).message).toMatch(/timeoutMs \(600 ms\)/);
    expect(s.after).toBeGreaterThanOrEqual(600);
    // A call answered in time: its limit is gone once it returns. On a loaded machine the quick
    // call can time out before its request reaches the server: its silent handler is then still
    // queued, and must not swallow this call.
    server.next.length = 0;
    await expect(client(60_000).payins.get('pi_missing')).rejects.toThrow();
    await sleep(0);
    expect(runningTimeLimits()).toBe(0);
  });

  // A limit on each read (a socket's idle timeout) never fires on a body that keeps coming: the
  // limit must bound the whole attempt, the body included, over Node's HTTP stack and over fetch.
  it.each(['node:http', 'fetch'] as const)(
    '%s: headers at once, then a body that trickles in a byte at a time: TimeoutError at timeoutMs, not once the body is whole',
    async (via) => {
      let closed!: Promise<void>;
      server.next.push((_req, res) => {
        closed = new Promise((resolve) => res.once('close', () => resolve()));
        // 400 bytes of JSON white space, one every 40 ms: 16 s in all, no read ever waiting long.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
        res.flushHeaders();
        let sent = 0;
        const timer = setInterval(() => {
          if (++sent >= 400) clearInterval(timer);
          res.write(' ');
        }, 40);
        res.once('close', () => clearInterval(timer));
      });
      const pay = createClient({
        baseUrl: server.base,
        merchantId: MERCHANT,
        secret: SECRET,
        retries: 0,
        timeoutMs: 300,
        ...(via === 'fetch' ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init) } : {}),
      });
      const from = Date.now();
      const error = await pay.payins.get('pi_trickle').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toMatch(/timeoutMs \(300 ms\)/);
      // A bound for a hang, not a speed claim: the whole body takes 16 s to arrive.
      expect(Date.now() - from).toBeLessThan(8000);
      await closed; // the connection was given up, not left to trickle on
    },
    20_000,
  );
});
