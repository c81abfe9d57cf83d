// A delivery store on Redis (`@pay/webhook/redis`), for receivers that run as several instances:
// they all claim and complete deliveries in one place, so each (id, status) is processed once
// wherever its copies land. It drives the merchant's own client, node-redis (v4 and later) or
// ioredis, recognised by the shape of its methods: this package depends on neither.
import { positiveInteger } from './checks.js';
import type { ClaimResult, DeliveryStore } from './deliveries.js';

/** A node-redis client (v4 and later): `createClient(...)`, connected. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** An ioredis client: `new Redis(...)`. */
export interface IORedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Prefix of every key this store writes (default `pay:webhook:delivery:`). */
  prefix?: string | undefined;
  /**
   * How long a command may take before it counts as a store failure, ms (default 2000). A client
   * that lost its connection queues commands while it reconnects; without this bound a webhook
   * would wait for Redis to come back instead of being answered 503 so the service retries.
   */
  timeoutMs?: number | undefined;
}

// Atomic, in one round trip: a key that is absent (never seen, or its lease or memory expired) is
// claimed with this attempt's token; otherwise its value says which state it is in. A value this
// store did not write is answered as such, and the pipeline takes it for a store failure.
const CLAIM = `local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 'claimed'
end
if v == 'done' then return 'done' end
if string.sub(v, 1, 12) == 'in_progress:' then return 'in_progress' end
return 'unknown value'`;

// Only the claim this attempt holds is given back: once its lease lapsed another attempt may hold
// the key, or have completed it, and that must stay.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// A claim's value: the state, then the token of the attempt that holds it.
const IN_PROGRESS = 'in_progress:';

type Send = (command: string, args: string[]) => Promise<unknown>;

function sender(client: unknown): Send {
  if (client !== null && typeof client === 'object') {
    const c = client as Partial<IORedisLike & NodeRedisLike>;
    // ioredis has both methods, and its sendCommand takes a Command object: look for call first.
    if (typeof c.call === 'function') return (command, args) => c.call!(command, ...args);
    if (typeof c.sendCommand === 'function') return (command, args) => c.sendCommand!([command, ...args]);
  }
  throw new TypeError('redisStore needs a node-redis client (createClient from "redis", v4 or later) or an ioredis client');
}

/**
 * A {@link DeliveryStore} on Redis, shared by every instance of a receiver: give each instance a
 * store on the same Redis and each (id, status) is processed once, however the service's copies
 * and retries are spread across them. `claim` is one atomic script (`SET ... PX` when the key is
 * absent, otherwise its state), `complete` sets the key to done for the delivery TTL, `release`
 * deletes the key only while it still holds the releasing attempt's token. A command that fails or takes
 * longer than `timeoutMs` is a store failure: answered 503 before the handler runs, so the
 * service retries.
 *
 * Pass your own connected client; handle its `error` events as you do elsewhere (node-redis
 * requires a listener).
 *
 * @throws TypeError when `client` is neither a node-redis nor an ioredis client.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisStore } from '@pay/webhook/redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * webhookHandler({ merchantId, secret, url, store: redisStore(redis), handler }); // from @pay/webhook/node, or any adapter
 * ```
 */
export function redisStore(client: NodeRedisLike | IORedisLike, options: RedisStoreOptions = {}): DeliveryStore {
  const send = sender(client);
  const prefix = options.prefix ?? 'pay:webhook:delivery:';
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  const timeoutMs = positiveInteger(options.timeoutMs, 'timeoutMs', 2000);

  const run = (command: string, args: string[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis did not answer ${command} within ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?(): void }).unref?.();
      let sent: Promise<unknown>;
      try {
        sent = Promise.resolve(send(command, args));
      } catch (error) {
        sent = Promise.reject(error);
      }
      sent.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });

  return {
    async claim(key, leaseMs, token) {
      const answer = await run('EVAL', [CLAIM, '1', prefix + key, IN_PROGRESS + token, String(Math.max(1, Math.ceil(leaseMs)))]);
      // Anything but the three values goes back as it is: the pipeline answers it as a store failure.
      return answer as ClaimResult;
    },
    async complete(key, ttlMs) {
      await run('SET', [prefix + key, 'done', 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
    },
    async release(key, token) {
      await run('EVAL', [RELEASE, '1', prefix + key, IN_PROGRESS + token]);
    },
  };
}
