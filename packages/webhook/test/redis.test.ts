// The Redis delivery store against a real redis-server started here: with node-redis (v4, v5, v6)
// and ioredis (v5, v6) as merchants have them, claims that are atomic and right when a key is
// absent, expired, done or foreign; then two receivers in separate processes sharing one Redis,
// each (id, status) processed once under concurrent duplicates and across the retry schedule; and
// a Redis that dies, answered 503 so the service retries.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis as IORedis } from 'ioredis';
import { Redis as IORedis5 } from 'ioredis-v5';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis-v4';
import { createClient as createClient5 } from 'redis-v5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryStore } from '../src/index.js';
import { webhookHandler } from '../src/fetch/index.js';
import { createTestWebhook, DEFAULT_DELIVERY_TTL_MS, deliveryKey } from '../src/index.js';
import { redisStore } from '../src/redis-store.js';
import { redisAvailable, type RunningRedis, startRedis } from '@pay/test-support/redis';

/** A connected client of one kind, as the store gets it, plus a raw command line for the test's own checks. */
interface Connected {
  store: (options?: Parameters<typeof redisStore>[1]) => DeliveryStore;
  raw(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

// Each client is made with its own package's types, so `redisStore(client)` type-checks against
// every one of them without a cast.
const nodeRedis = async (
  client: {
    connect(): Promise<unknown>;
    quit(): Promise<unknown>;
    on(event: 'error', listener: () => void): unknown;
    sendCommand(args: string[]): Promise<unknown>;
  },
  store: Connected['store'],
): Promise<Connected> => {
  client.on('error', () => {});
  await client.connect();
  return { store, raw: (...args) => client.sendCommand(args), close: async () => void (await client.quit()) };
};
const ioRedis = async (
  client: {
    connect(): Promise<unknown>;
    quit(): Promise<unknown>;
    on(event: 'error', listener: () => void): unknown;
    call(command: string, ...args: string[]): Promise<unknown>;
  },
  store: Connected['store'],
): Promise<Connected> => {
  client.on('error', () => {});
  await client.connect();
  return { store, raw: (command, ...args) => client.call(command!, ...args), close: async () => void (await client.quit()) };
};
const at = (port: number) => ({ socket: { host: '127.0.0.1', port } });
const clients: [string, (port: number) => Promise<Connected>][] = [
  [
    'node-redis 6',
    (port) => {
      const client = createClient(at(port));
      return nodeRedis(client, (options) => redisStore(client, options));
    },
  ],
  [
    'node-redis 5',
    (port) => {
      const client = createClient5(at(port));
      return nodeRedis(client, (options) => redisStore(client, options));
    },
  ],
  [
    'node-redis 4',
    (port) => {
      const client = createClient4(at(port));
      return nodeRedis(client, (options) => redisStore(client, options));
    },
  ],
  [
    'ioredis 6',
    (port) => {
      const client = new IORedis({ host: '127.0.0.1', port, lazyConnect: true });
      return ioRedis(client, (options) => redisStore(client, options));
    },
  ],
  [
    'ioredis 5',
    (port) => {
      const client = new IORedis5({ host: '127.0.0.1', port, lazyConnect: true });
      return ioRedis(client, (options) => redisStore(client, options));
    },
  ],
];

const event = { id: 'pi_redis', status: 'executed' };

describe.skipIf(!redisAvailable)('redisStore on a real redis-server', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('refuses a client of neither kind, when it is made', () => {
    expect(() => redisStore({} as never)).toThrow(/node-redis client .* or an ioredis client/);
    expect(() => redisStore(null as never)).toThrow(TypeError);
  });

  describe.each(clients)('with %s', (name, connect) => {
    let c: Connected;
    let store: DeliveryStore;
    const prefix = `test:${name.replace(/\W/g, '')}:`;
    const key = deliveryKey(event);
    beforeAll(async () => {
      c = await connect(redis.port);
      store = c.store({ prefix });
    });
    afterAll(() => c?.close());

    it('claims a delivery once, says it is in progress, then done once completed, with PX lease and TTL', async () => {
      await c.raw('DEL', prefix + key);
      expect(await store.claim(key, 60_000, 'A')).toBe('claimed');
      const lease = Number(await c.raw('PTTL', prefix + key));
      expect(lease).toBeGreaterThan(0);
      expect(lease).toBeLessThanOrEqual(60_000);
      expect(await store.claim(key, 60_000, 'A')).toBe('in_progress');
      await store.complete(key, DEFAULT_DELIVERY_TTL_MS);
      expect(await c.raw('GET', prefix + key)).toBe('done');
      const ttl = Number(await c.raw('PTTL', prefix + key));
      expect(ttl).toBeGreaterThan(DEFAULT_DELIVERY_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(DEFAULT_DELIVERY_TTL_MS);
      expect(await store.claim(key, 60_000, 'A')).toBe('done');
      await store.release(key, 'A'); // a late release never forgets a delivery already done
      expect(await store.claim(key, 60_000, 'A')).toBe('done');
    });

    it('claims again once a lease has expired', async () => {
      await c.raw('DEL', prefix + key);
      expect(await store.claim(key, 60_000, 'A')).toBe('claimed');
      await c.raw('PEXPIRE', prefix + key, '1');
      while (Number(await c.raw('EXISTS', prefix + key)) === 1); // until Redis has expired it
      expect(await store.claim(key, 60_000, 'A')).toBe('claimed');
    });

    it('gives back only its own claim: not one another attempt took after its lease lapsed', async () => {
      const other = c.store({ prefix }); // another instance
      await c.raw('DEL', prefix + key);
      expect(await store.claim(key, 60_000, 'A')).toBe('claimed');
      await c.raw('DEL', prefix + key); // its lease lapsed
      expect(await other.claim(key, 60_000, 'B')).toBe('claimed');
      await store.release(key, 'A'); // the first attempt fails, late
      expect(await other.claim(key, 60_000, 'C')).toBe('in_progress');
      await other.release(key, 'B');
      expect(await store.claim(key, 60_000, 'C')).toBe('claimed');
    });

    it("gives back only the releasing attempt's claim within one process too (claims are told apart by token)", async () => {
      await c.raw('DEL', prefix + key);
      expect(await store.claim(key, 60_000, 'A')).toBe('claimed');
      await c.raw('DEL', prefix + key); // A's lease lapsed
      expect(await store.claim(key, 60_000, 'B')).toBe('claimed'); // same store, the service's retry
      await store.release(key, 'A'); // A fails, late
      expect(await store.claim(key, 60_000, 'C')).toBe('in_progress'); // B still holds it
      await store.release(key, 'B');
      expect(await store.claim(key, 60_000, 'C')).toBe('claimed');
    });

    it('lets exactly one of many concurrent claims through', async () => {
      const instances = [store, c.store({ prefix }), c.store({ prefix })];
      const k = deliveryKey({ id: `pi_race_${name}`, status: 'new' });
      await c.raw('DEL', prefix + k);
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => instances[i % 3]!.claim(k, 60_000, `T${i}`)));
      expect(answers.filter((a) => a === 'claimed')).toHaveLength(1);
      expect(answers.filter((a) => a === 'in_progress')).toHaveLength(59);
    });

    it('answers a value it did not write as neither of the three, which the handler answers 503', async () => {
      const merchant = { merchantId: 'm_1', secret: 'sk_test_foreign', url: 'https://shop.example/webhooks/pay' };
      await c.raw('SET', prefix + key, 'claimed'); // written by something else
      expect(await store.claim(key, 60_000, 'A')).toBe('unknown value');
      const calls: string[] = [];
      const receive = webhookHandler({ ...merchant, store, onRefused: () => {}, handler: (e) => void calls.push(e.id) });
      const response = await receive(createTestWebhook({ ...merchant, payload: event }).request);
      expect([response.status, await response.json()]).toEqual([503, { error: 'store_failed' }]);
      expect(calls).toEqual([]);
      expect(await c.raw('GET', prefix + key)).toBe('claimed'); // left as it was
    });
  });
});

/** A receiver process: its URL, what it printed, and a way to wait for a line. */
interface Receiver {
  url: string;
  child: ChildProcess;
  lines: Record<string, unknown>[];
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

async function startReceiver(port: number, clientPackage: string, env: Record<string, string> = {}): Promise<Receiver> {
  const script = join(import.meta.dirname, 'fixtures', 'redis-receiver.mjs');
  const child = spawn(process.execPath, [script, String(port), clientPackage], {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const w of waiters.splice(0)) w.match(line) ? w.resolve(line) : waiters.push(w);
  });
  const waitFor = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = lines.find(match);
      if (seen) return resolve(seen);
      waiters.push({ match, resolve });
      child.once('exit', (code) => reject(new Error(`receiver exited (${code}) before printing what was awaited`)));
    });
  const { listening } = (await waitFor((l) => typeof l['listening'] === 'string')) as { listening: string };
  return { url: listening, child, lines, waitFor };
}

const merchantId = 'm_redis';
const secret = 'sk_test_redis';
const publicUrl = 'https://shop.example/webhooks/pay';

/** One attempt of the service: signed anew, now, for the public address, sent to one instance. */
async function deliver(to: Receiver, payload: object): Promise<number> {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${publicUrl}${body}`).digest('hex');
  const response = await fetch(to.url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature },
  });
  await response.arrayBuffer();
  return response.status;
}

describe.skipIf(!redisAvailable)('two receivers in separate processes sharing one Redis', () => {
  let redis: RunningRedis;
  let a: Receiver; // node-redis
  let b: Receiver; // ioredis
  const flaky = ['pi_flaky_1', 'pi_flaky_2'];
  beforeAll(async () => {
    redis = await startRedis();
    // A store time limit that outlasts a loaded machine's burst (the outage test waits for it once).
    const slow = { STORE_TIMEOUT_MS: '8000' };
    [a, b] = await Promise.all([
      startReceiver(redis.port, 'redis', { ...slow, FAIL_ONCE: flaky.join() }),
      startReceiver(redis.port, 'ioredis', slow),
    ]);
  }, 60_000); // two Node processes and a Redis server starting on a loaded two-core machine
  afterAll(async () => {
    for (const r of [a, b]) r?.child.kill('SIGKILL');
    await redis?.stop();
  });
  const processed = () =>
    [...a.lines, ...b.lines].flatMap((l) => (Array.isArray(l['processed']) ? [(l['processed'] as string[]).join(' ')] : []));

  it('processes each (id, status) once under concurrent duplicates and across the retry schedule', async () => {
    const events = [
      ...Array.from({ length: 8 }, (_, i) => ({ id: `pi_dup_${i}`, reference_id: `order-${i}`, status: 'executed' })),
      ...flaky.map((id) => ({ id, reference_id: id, status: 'executed' })),
      { id: 'pi_dup_0', reference_id: 'order-0', status: 'refunded' }, // a later status change of the same payin
    ];
    // The first attempt of the flaky ones reaches A, whose handler fails: 500, and the claim is
    // given back, so the service's immediate retry, landing on B, is processed there.
    for (const e of events.filter((e) => flaky.includes(e.id))) {
      expect(await deliver(a, e)).toBe(500);
      expect(await deliver(b, e)).toBe(200);
    }
    // Then every delivery arrives six times at once, three copies at each instance: one copy is
    // processed, the others wait for it (409) or find it done (200).
    const burst = await Promise.all(events.map((e) => Promise.all(Array.from({ length: 6 }, (_, i) => deliver(i % 2 ? b : a, e)))));
    const refused = () => [...a.lines, ...b.lines].filter((l) => 'refused' in l); // why, if a status is unexpected
    for (const statuses of burst) {
      expect(
        statuses.filter((s) => s !== 200 && s !== 409),
        JSON.stringify(refused()),
      ).toEqual([]);
      expect(statuses).toContain(200);
    }
    // Then the service's retries (immediately, 15 min, 30 min, 1 h), each re-signed and landing on
    // either instance: all acknowledged, whatever happened in the burst.
    for (const [i, e] of events.entries()) {
      for (let attempt = 0; attempt < 4; attempt++) expect(await deliver((i + attempt) % 2 ? a : b, e)).toBe(200);
    }
    const once = events.map((e) => `${e.id} ${e.status}`).sort();
    expect(processed().sort()).toEqual(once);
    const byB = b.lines.flatMap((l) => (Array.isArray(l['processed']) ? [(l['processed'] as string[])[0]] : []));
    for (const id of flaky) expect(byB).toContain(id);
  });

  it('answers 503, so the service retries, once Redis is gone, and processes nothing', async () => {
    const before = processed().length;
    await redis.stop();
    const payload = { id: 'pi_after_outage', reference_id: 'r', status: 'new' };
    // Both at once: each instance waits out its store time limit on its own.
    expect(await Promise.all([deliver(a, payload), deliver(b, payload)])).toEqual([503, 503]);
    expect(processed()).toHaveLength(before);
    await a.waitFor((l) => l['refused'] === 'store_failed' && l['status'] === 503);
    await b.waitFor((l) => l['refused'] === 'store_failed' && l['status'] === 503);
    expect(a.child.exitCode).toBeNull(); // both still running
    expect(b.child.exitCode).toBeNull();
  });
});

describe.skipIf(!redisAvailable)("the README's Redis example", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('runs against a real Redis and prints what its comments say', () => {
    const pkg = join(import.meta.dirname, '..');
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
    // The block after the marker; fenced `javascript`, so the generic README test (which runs
    // `js` blocks without a Redis) leaves it to this one.
    const code = readme.match(/<!-- redis-example[^\n]*-->\n```javascript\n([\s\S]*?)^```$/m)?.[1];
    expect(code).toBeDefined();
    mkdirSync(join(pkg, '.reports'), { recursive: true });
    const file = join(pkg, '.reports', 'readme-redis-example.mjs');
    writeFileSync(file, code!);
    const out = execFileSync(process.execPath, [file], {
      cwd: pkg,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${redis.port}` },
    });
    // Each console.log promises its line in a trailing comment; <...> stands for what changes.
    const promised = code!
      .split('\n')
      .flatMap((line) => (line.includes('console.log(') ? [line.match(/\)[;,]?\s*\/\/ (.+)$/)?.[1]] : []))
      .filter((text): text is string => text !== undefined)
      .map(
        (text) =>
          new RegExp(
            `^${text
              .trim()
              .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
              .replace(/<[^>]+>/g, '.+')}$`,
          ),
      );
    expect(promised).toHaveLength(2);
    const printed = out.trimEnd().split('\n');
    expect(printed).toHaveLength(promised.length);
    for (const [i, pattern] of promised.entries()) expect(printed[i]).toMatch(pattern);
  }, 90_000); // a Node process that connects, serves and closes: seconds on a loaded machine, once 29 s in CI
});
