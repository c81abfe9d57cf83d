// Bad input from the database: a database that is slow, refuses a statement or goes down gives a
// typed DatabaseError and, on the webhook path, a 500 (the service retries); nothing is half
// recorded, and a transaction whose caller got the timeout can never commit afterwards. On PGlite
// and on a real PostgreSQL of this file's own (it is crashed and restarted) through pg and
// postgres.js. After each test the exactly-once oracle reads the sandbox (helpers/oracle.ts).
import { inspect } from 'node:util';
import type { RunningSandbox } from '@pay/sandbox';
import { until } from '@pay/test-support';
import { createTestWebhook } from '@pay/webhook';
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseError, type DatabaseLike, type Journal, openJournal } from '../src/index.js';
import { freshPGlite, freshSchema } from './helpers/backends.js';
import { postgresAvailable, type RunningPostgres, startPostgres } from '@pay/test-support/postgres';
import { judgedExactlyOnce } from './helpers/oracle.js';
import { MERCHANT, payinBody, shopClient, startReceiver, startShopSandbox, uniqueReferencesOn } from './helpers/shop.js';

// The journal's limit in these tests, a real-time bound on one database call: short, so a slow
// statement is quick to provoke, yet long enough for one small transaction (the handler's own
// insert and the event) on a loaded two-core machine. Migrating a fresh schema takes longer (500 ms
// did not fit in CI), so each schema is migrated first by a journal with the default limit.
const TIMEOUT_MS = 1_000;
const DEAD_URL = 'http://127.0.0.1:9/none';
/** In the connection string of the server backends: it must never show in an error. */
const PASSWORD = 'hunter2-never-in-errors';

/** A step the test itself lets go on: `wait` resolves once `open()` is called. */
function gate(): { wait: Promise<void>; open(): void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

type Name = 'pglite' | 'pg' | 'postgres.js';
const NAMES: Name[] = postgresAvailable ? ['pglite', 'pg', 'postgres.js'] : ['pglite'];

describe.each(NAMES)('database failures on %s', (name) => {
  const server = name !== 'pglite';
  let cluster: RunningPostgres | undefined;
  let database: DatabaseLike;
  let admin: { query(text: string): Promise<{ rows: Record<string, unknown>[] }> };
  let closeDatabase: () => Promise<void>;
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let journal: Journal;
  let schema: string;
  /** What the next handler call does before writing its row. */
  let slowNext: ((query: (text: string) => Promise<unknown>) => Promise<unknown>) | undefined;
  /** Resolves once the handler call under way has ended (written its row, or failed to). */
  let handlerEnded: Promise<void>;

  beforeAll(async () => {
    if (server) {
      cluster = await startPostgres();
      const url = cluster.url.replace('postgres@', `postgres:${PASSWORD}@`);
      const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
      pool.on('error', () => {});
      admin = pool;
      if (name === 'pg') {
        const mine = new pg.Pool({ connectionString: url, max: 3 });
        mine.on('error', () => {}); // the crashed server in a test must not crash the runner
        database = mine;
        closeDatabase = async () => {
          await mine.end();
          await pool.end();
        };
      } else {
        const sql = postgres(url, { max: 3, onnotice: () => {} });
        database = sql;
        closeDatabase = async () => {
          await sql.end({ timeout: 1 });
          await pool.end();
        };
      }
    } else {
      const db = await freshPGlite();
      database = db;
      admin = { query: async (text) => ({ rows: (await db.exec(text)).at(-1)?.rows ?? [] }) }; // several statements
      closeDatabase = () => db.close();
    }
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(name) });
    receiver = await startReceiver(() => journal);
  });
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.close();
    await closeDatabase?.();
    await cluster?.stop();
  });
  beforeEach(async () => {
    await sandbox.admin.reset();
    schema = freshSchema();
    slowNext = undefined;
    handlerEnded = Promise.resolve();
    // The schema and the merchant's table, under the default limit (see TIMEOUT_MS).
    const migrating = await openJournal({ client: shopClient(sandbox.url), database, schema, handler: async () => {} });
    await migrating.transaction((q) => q(`CREATE TABLE "${schema}".handled (id text, status text)`));
    await migrating.close();
    journal = await openJournal({
      client: shopClient(sandbox.url),
      database,
      schema,
      timeoutMs: TIMEOUT_MS,
      handler: async (event, query) => {
        const slow = slowNext;
        slowNext = undefined;
        let ended = () => {};
        handlerEnded = new Promise((resolve) => (ended = resolve));
        try {
          if (slow) await slow(query);
          await query(`INSERT INTO "${schema}".handled (id, status) VALUES ($1, $2)`, [event.id, event.status]);
        } finally {
          ended();
        }
      },
    });
  });
  judgedExactlyOnce(() => sandbox);

  const count = async (table: string, status: string) =>
    Number((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".${table} WHERE status = '${status}'`)).rows[0]!['n']);
  const webhook = async (id: string, status: string) => {
    const hook = createTestWebhook({
      merchantId: MERCHANT.id,
      secret: MERCHANT.secret,
      url: receiver.url,
      payload: { id, reference_id: 'ref', status },
    });
    return (await fetch(hook.request)).status;
  };

  it('answers a handler slower than timeoutMs with timed_out and a 500; its writes never commit, even once it finishes', async () => {
    const { transaction } = await journal.payins.create(payinBody('slow-1', '5', DEAD_URL));
    // The handler goes on only once the test lets it, after the answer: the 500 came at the limit,
    // not when the handler finished.
    const held = gate();
    slowNext = () => held.wait;
    expect(await webhook(transaction.id, 'executed')).toBe(500);
    held.open();
    await handlerEnded; // the handler has finished and tried to write its row: rolled back, not committed
    expect(await count('handled', 'executed')).toBe(0);
    expect(await count('pay_events', 'executed')).toBe(0);
    expect((await journal.payins.get('slow-1'))?.status).toBe('new');
    expect(await webhook(transaction.id, 'executed')).toBe(200); // the service's retry
    expect(await count('handled', 'executed')).toBe(1);

    // The same through journal.transaction: a typed error naming the step and why.
    const lateGate = gate();
    let lateEnded!: Promise<unknown>;
    const late = await journal
      .transaction((q) => {
        lateEnded = lateGate.wait.then(() => q(`INSERT INTO "${schema}".handled (id, status) VALUES ('late', 'late')`));
        return lateEnded;
      })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DatabaseError);
    expect(late).toMatchObject({ code: 'database_failed', reason: 'timed_out', step: 'your transaction' });
    lateGate.open();
    await lateEnded.catch(() => {}); // its insert was sent after the limit: refused or rolled back
    expect(await count('handled', 'late')).toBe(0);
  });

  it('ends the transaction of a handler that never settles: a 500 at the limit, the database usable by the very next call, the retry handled', async () => {
    const { transaction } = await journal.payins.create(payinBody('hang-1', '5', DEAD_URL));
    let kept: ((text: string) => Promise<unknown>) | undefined;
    // More hung handlers than the pool has connections (3): each one's connection must come back.
    for (let i = 0; i < 4; i++) {
      slowNext = (query) => {
        kept = query;
        return new Promise(() => {}); // never settles
      };
      const started = Date.now();
      expect(await webhook(transaction.id, 'executed')).toBe(500);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 10); // answered at the limit, not hung (a loaded machine's margin)
      // The very next call works, on PGlite's one connection too.
      expect((await journal.payins.get('hang-1'))?.status).toBe('new');
    }
    // The hung handler's query is dead: nothing it sends now can write, in or out of a transaction.
    await expect(kept!(`INSERT INTO "${schema}".handled (id, status) VALUES ('ghost', 'ghost')`)).rejects.toThrow();
    expect(await count('handled', 'ghost')).toBe(0);
    const typed = await journal
      .transaction(async () => {
        await new Promise(() => {});
      })
      .catch((e: unknown) => e);
    expect(typed).toMatchObject({ name: 'DatabaseError', reason: 'timed_out', step: 'your transaction' });
    expect(await count('pay_events', 'executed')).toBe(0);
    expect(await webhook(transaction.id, 'executed')).toBe(200); // the service's retry
    expect(await count('handled', 'executed')).toBe(1);
    expect(await count('pay_events', 'executed')).toBe(1);
  }, 120_000);

  it('names a handler past the limit in its error: HandlerFailedError, reason timed_out', async () => {
    const { transaction } = await journal.payins.create(payinBody('hang-2', '5', DEAD_URL));
    slowNext = () => new Promise(() => {});
    const failed = await Promise.resolve(
      journal.webhook().handler({ id: transaction.id, reference_id: 'hang-2', status: 'executed' } as never),
    ).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'HandlerFailedError', code: 'handler_failed', reason: 'timed_out' });
    expect((failed as Error).message).toContain(`within ${TIMEOUT_MS} ms`);
    expect(await count('pay_events', 'executed')).toBe(0);
  });

  it("refuses a handler's COMMIT, ROLLBACK or BEGIN: it cannot end the journal's transaction early", async () => {
    const { transaction } = await journal.payins.create(payinBody('control-1', '5', DEAD_URL));
    // COMMIT, then a throw: the event must not be saved, the retry must run the handler again.
    let refused: unknown;
    slowNext = async (query) => {
      refused = await query('/* shop */ commit').catch((e: unknown) => e);
      throw new Error('the shop failed after trying to commit');
    };
    expect(await webhook(transaction.id, 'executed')).toBe(500);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toContain('COMMIT');
    expect(await count('pay_events', 'executed')).toBe(0);
    expect(await count('handled', 'executed')).toBe(0);
    // ROLLBACK, caught, then a normal return: the event and the handler's row commit together.
    slowNext = async (query) => {
      refused = await query(`SELECT 1; ROLLBACK`).catch((e: unknown) => e);
    };
    expect(await webhook(transaction.id, 'executed')).toBe(200);
    expect((refused as Error).message).toContain('ROLLBACK');
    expect(await count('pay_events', 'executed')).toBe(1);
    expect(await count('handled', 'executed')).toBe(1);
    expect(await webhook(transaction.id, 'executed')).toBe(200); // a duplicate now
    expect(await count('handled', 'executed')).toBe(1);
  });

  it('lets a handler use savepoints of its own', async () => {
    const { transaction } = await journal.payins.create(payinBody('savepoint-1', '5', DEAD_URL));
    slowNext = async (query) => {
      await query('SAVEPOINT shop_try');
      await query(`INSERT INTO "${schema}".handled (id, status) VALUES ('undone', 'undone')`);
      await query('ROLLBACK TO SAVEPOINT shop_try');
      await query('RELEASE SAVEPOINT shop_try');
    };
    expect(await webhook(transaction.id, 'executed')).toBe(200);
    expect(await count('handled', 'undone')).toBe(0);
    expect(await count('handled', 'executed')).toBe(1);
  });

  it('rolls back a statement refused by a trigger: a typed error with its SQLSTATE, a 500, nothing half recorded', async () => {
    const { transaction } = await journal.payins.create(payinBody('refused-1', '5', DEAD_URL));
    await admin.query(`CREATE FUNCTION "${schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the shop''s policy' USING ERRCODE = 'P0001'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".pay_events FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse();
      CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".pay_intents FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse();`);
    expect(await webhook(transaction.id, 'executed')).toBe(500);
    expect(await count('handled', 'executed')).toBe(0);
    expect(await count('pay_transactions', 'executed')).toBe(0);
    const refused = await journal.payins.create(payinBody('refused-2', '5', DEAD_URL)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseError);
    expect(refused).toMatchObject({ step: 'record intent', reason: 'failed', sqlState: 'P0001' });
    expect((refused as Error).message).toContain("refused by the shop's policy");
    expect((await sandbox.admin.transactions()).filter((t) => t.reference_id === 'refused-2')).toEqual([]); // nothing sent

    await admin.query(`DROP TRIGGER refuse ON "${schema}".pay_events; DROP TRIGGER refuse ON "${schema}".pay_intents`);
    expect(await webhook(transaction.id, 'executed')).toBe(200);
    expect(await count('handled', 'executed')).toBe(1);
    expect((await journal.payins.create(payinBody('refused-2', '5', DEAD_URL))).replayed).toBe(false);
  });

  it.skipIf(!server)(
    'has the server cancel a statement slower than timeoutMs (pg_sleep in the handler): the connection is freed',
    async () => {
      const { transaction } = await journal.payins.create(payinBody('sleep-1', '5', DEAD_URL));
      slowNext = (query) => query('SELECT pg_sleep(30)');
      const started = Date.now();
      expect(await webhook(transaction.id, 'executed')).toBe(500);
      expect(Date.now() - started).toBeLessThan(15_000); // at the limit, not after the statement's 30 s
      const sleeping = async () =>
        Number(
          (
            await admin.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%' AND state = 'active'`,
            )
          ).rows[0]!['n'],
        );
      await until(async () => (await sleeping()) === 0, { what: 'the server to cancel pg_sleep(30)', timeoutMs: 10_000 });
      expect(await sleeping()).toBe(0); // cancelled by statement_timeout, not left running for 30 s
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await count('pay_events', 'executed')).toBe(0);
      expect(await webhook(transaction.id, 'executed')).toBe(200);
      expect(await count('handled', 'executed')).toBe(1);
    },
  );

  it.skipIf(name !== 'pg')('says commit_unknown, not timed_out, when the COMMIT was sent and its answer never came', async () => {
    // The COMMIT runs a deferred trigger that sleeps; the backend is frozen (SIGSTOP) in the middle.
    await admin.query(`CREATE FUNCTION "${schema}".slow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.45); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON "${schema}".handled DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION "${schema}".slow();`);
    let backend = 0;
    const started = Date.now();
    const outcome = await journal
      .transaction(async (q) => {
        backend = Number((await q('SELECT pg_backend_pid() AS pid'))[0]!['pid']);
        await q(`INSERT INTO "${schema}".handled (id, status) VALUES ('commit', 'unknown')`);
        setTimeout(() => process.kill(backend, 'SIGSTOP'), 100); // COMMIT is running its trigger by then
      })
      .catch((e: unknown) => e);
    const waited = Date.now() - started;
    process.kill(backend, 'SIGCONT');
    expect(outcome).toBeInstanceOf(DatabaseError);
    expect(outcome).toMatchObject({ reason: 'commit_unknown', step: 'your transaction' });
    // Past the limit the caller waited one more limit for the COMMIT's answer, then was answered.
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS * 2 - 50);
    expect(waited).toBeLessThan(TIMEOUT_MS * 8); // answered while the backend is still frozen (a loaded machine's margin)
  });

  it.skipIf(!server)(
    'answers while the server is down: typed errors without the connection string, a 500, nothing sent; after a restart the retry is handled once',
    async () => {
      const { transaction } = await journal.payins.create(payinBody('down-1', '5', DEAD_URL));
      if (name === 'pg') {
        // Down in the middle of a transaction: the handler is running when the server goes.
        // (Not on postgres.js 3.4.9: a session closed inside `begin` crashes the process, porsager/postgres#1154.)
        let crashed!: Promise<void>;
        slowNext = async () => {
          crashed = cluster!.crash();
          await crashed;
        };
        expect(await webhook(transaction.id, 'executed')).toBe(500);
        await crashed;
      } else {
        await cluster!.crash();
      }
      expect(await webhook(transaction.id, 'executed')).toBe(500);
      const down = await journal.payins.create(payinBody('down-2', '5', DEAD_URL)).catch((e: unknown) => e);
      expect(down).toBeInstanceOf(DatabaseError);
      expect(down).toMatchObject({ step: 'record intent' });
      expect(inspect(down, { depth: 10 })).not.toContain(PASSWORD);
      expect((await sandbox.admin.transactions()).filter((t) => t.reference_id === 'down-2')).toEqual([]);

      await cluster!.restart();
      // The pool's connections died with the server: the first attempts may still meet one.
      let status = 0;
      for (let i = 0; i < 5 && status !== 200; i++) status = await webhook(transaction.id, 'executed');
      expect(status).toBe(200);
      expect(await webhook(transaction.id, 'executed')).toBe(200); // a duplicate now
      expect(await count('handled', 'executed')).toBe(1);
      expect(await count('pay_events', 'executed')).toBe(1);
    },
  );
});
