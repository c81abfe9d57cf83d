// The time-skipping test environment: a sandbox, a client, journals and webhook receivers that all
// read one test clock, so a test moves them together. The sandbox schedules its webhook retries,
// expiries and payout executions on the clock; the client signs and backs off on it; a journal's
// reconciler, leases and outbox run on it; a receiver judges a webhook's age by it. Each tracks
// its work in flight on the clock, so `advance` never moves past a delivery, a lookup or a
// handler still at work.
import { randomBytes } from 'node:crypto';
import { type Client, createClient } from '@pay/client';
import type { Duration } from '@pay/clock';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { type Journal, type JournalOptions, openJournal, type PGliteLike, startEmbeddedDatabase } from '@pay/journal';
import { type RunningSandbox, startSandbox } from '@pay/sandbox';
import { type ReceiverOptions, startReceiver, type TestReceiver } from './receiver.js';

/** Options of {@link createTestEnvironment}. */
export interface TestEnvironmentOptions {
  /** Where the clock starts: a Date, unix milliseconds or an ISO string. Default: the real time now. */
  start?: Date | number | string | undefined;
  /** The merchant the sandbox accepts and the client signs as. Default: `m_test` with a random secret. */
  merchant?: { id: string; secret: string } | undefined;
  /**
   * How long, in real time, a step of the clock waits for work in flight (a handler, a lookup)
   * before it fails, naming that work. Default 30 s.
   */
  idleTimeoutMs?: number | undefined;
}

/** A sandbox, a client, journals and receivers on one test clock. */
export interface TestEnvironment {
  /** The clock every part reads. It stands still until advanced. */
  readonly clock: TestClock;
  /** The sandbox, on loopback: `url`, `admin`, the dashboard. */
  readonly sandbox: RunningSandbox;
  /** The merchant the sandbox accepts and `client` signs as. */
  readonly merchant: { readonly id: string; readonly secret: string };
  /** A client of the sandbox, on the clock. */
  readonly client: Client;
  /**
   * Opens a journal on the environment's client and clock: pass your own `database` (a PGlite, a
   * `pg` Pool, postgres.js) and `handler`, as to `openJournal`. Closed with the environment.
   */
  journal(options?: Omit<JournalOptions, 'client' | 'clock'>): Promise<Journal>;
  /**
   * Starts an in-memory PGlite (`@electric-sql/pglite`, installed beside) for your own tables, to
   * give a journal as its `database` too. It starts as the journal's embedded database does, from
   * a copy of the empty cluster kept in the cache directory: initdb, most of a start's CPU, runs
   * once per machine, not once per test. Closed with the environment.
   */
  database(): Promise<PGliteLike>;
  /**
   * Starts a webhook receiver on loopback for the merchant, on the clock, with your handler
   * options (`{ handler }`, or `journal.webhook()`). Give its `url` as `webhook_url`.
   */
  receiver(options: ReceiverOptions): Promise<TestReceiver>;
  /**
   * Moves the clock forward by `duration` (`'2h'`, `'15m'`, milliseconds), running in order
   * everything that falls due on the way (webhook attempts, expiries, payout executions,
   * reconciler passes, leases running out), and resolves with the new time once all of it is done.
   */
  advance(duration: Duration): Promise<Date>;
  /** Advances until nothing is due but loops (a reconciler's schedule), at most `limit` (default a day) ahead. */
  runUntilIdle(limit?: Duration): Promise<Date>;
  /** Stops every receiver and journal it started, then its databases and the sandbox. */
  close(): Promise<void>;
}

const MERCHANT_ID = 'm_test';

/**
 * Starts a sandbox on loopback with one merchant and returns it with a client, both on a new
 * test clock.
 * @example
 * ```ts
 * const env = await createTestEnvironment({ start: '2026-01-01T09:00:00Z' });
 * const receiver = await env.receiver({ handler: async (event) => markPaid(event) });
 * await env.client.payins.create({ ...body, webhook_url: receiver.url });
 * await env.advance('2h');
 * await env.close();
 * ```
 */
export async function createTestEnvironment(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const clock = createTestClock({ start: options.start, idleTimeoutMs: options.idleTimeoutMs });
  const merchant = options.merchant ?? { id: MERCHANT_ID, secret: `sk_test_${randomBytes(16).toString('hex')}` };
  const sandbox = await startSandbox({ merchants: [merchant], clock });
  const client = createClient({ baseUrl: sandbox.url, merchantId: merchant.id, secret: merchant.secret, clock });
  const receivers: TestReceiver[] = [];
  const journals: Journal[] = [];
  const databases: PGliteLike[] = [];
  let closed = false;
  const open = (what: string) => {
    if (closed) throw new Error(`${what}: the test environment is closed`);
  };
  return {
    clock,
    sandbox,
    merchant: Object.freeze({ ...merchant }),
    client,
    journal: async (journalOptions = {}) => {
      open('journal');
      const journal = await openJournal({ ...journalOptions, client, clock });
      journals.push(journal);
      return journal;
    },
    database: async () => {
      open('database');
      const database = await startEmbeddedDatabase();
      databases.push(database);
      return database;
    },
    receiver: async (receiverOptions) => {
      open('receiver');
      const receiver = await startReceiver(merchant, clock, receiverOptions);
      receivers.push(receiver);
      return receiver;
    },
    advance: async (duration) => new Date(await clock.advance(duration)),
    runUntilIdle: async (limit) => new Date(await clock.runUntilIdle(limit)),
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.allSettled(receivers.map((receiver) => receiver.close()));
      await Promise.allSettled(journals.map((journal) => journal.close()));
      await Promise.allSettled(databases.map((database) => database.close()));
      await sandbox.close();
    },
  };
}
