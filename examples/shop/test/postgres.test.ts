// The shop on PostgreSQL: DATABASE_URL names a throwaway cluster (started by @pay/journal's own
// test helper: this example is private, so its tests may reach into the package it shows), and
// two shop processes start on it at once, as two instances behind a load balancer would. Their
// orders and the journal share the database: a card payment taken by one is paid by its webhook,
// the other shows it, and the test reads both tables back with its own pg client. Skipped when
// PostgreSQL's binaries are not installed, unless PAY_REQUIRE_POSTGRES=1.
import { startSandbox } from '@pay/sandbox';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import { MAIN, postForm, referenceIn, spawnScript, waitFor } from './helpers.js';

/** A shop process's banner within: both instances migrate the same fresh database. */
const STARTUP_MS = 60_000;
/** Trust authentication ignores it; it is there to prove the URL is never printed. */
const PASSWORD = 'pw-never-printed-7c1e';

describe.skipIf(!postgresAvailable)(`the shop on PostgreSQL (DATABASE_URL)${postgresAvailable ? '' : ' (SKIPPED: no PostgreSQL)'}`, () => {
  it('two instances start at once on one database; a payment taken by one is paid by webhook and shown by both', async () => {
    const server = await startPostgres();
    const sandbox = await startSandbox();
    const pool = new pg.Pool({ connectionString: server.url });
    const env = {
      PAY_BASE_URL: sandbox.url,
      PAY_CARD_PROXY_URL: sandbox.cardProxyUrl,
      SHOP_PORT: '0',
      DATABASE_URL: server.url.replace('postgres@', `postgres:${PASSWORD}@`),
    };
    const shops = [spawnScript(env, MAIN), spawnScript(env, MAIN)];
    try {
      const urls = await Promise.all(
        shops.map(async (shop) => {
          const banner = await waitFor('the shop to start', () => shop.output().includes('Press Ctrl-C') && shop.output(), STARTUP_MS);
          expect(banner).toContain('database         PostgreSQL (DATABASE_URL)\n');
          return /shop\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)![1]!;
        }),
      );
      const tables = await pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop' ORDER BY 1");
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'orders',
        'pay_checks',
        'pay_events',
        'pay_intents',
        'pay_migrations',
        'pay_transactions',
      ]);

      const answer = await postForm({ url: urls[0]! }, '/checkout/card', { product: 'mug', card: 'visa-ok' });
      expect(answer.status).toBe(303);
      const reference = referenceIn(answer.headers.get('location')!);
      const order = await waitFor('the order paid in the database', async () => {
        const { rows } = await pool.query('SELECT status, transaction_id, amount FROM shop.orders WHERE reference = $1', [reference]);
        return rows[0]?.status === 'paid' && rows[0];
      });
      expect(order).toMatchObject({ amount: '12.50', transaction_id: expect.stringMatching(/^pi_/) });
      const events = await pool.query(
        'SELECT status, source, outcome FROM shop.pay_events WHERE transaction_id = $1 ORDER BY recorded_at',
        [order.transaction_id],
      );
      expect(events.rows).toEqual([
        // From the create's answer or its webhook, whichever was recorded first.
        { status: 'new', source: expect.stringMatching(/^(create|webhook)$/), outcome: 'change' },
        { status: 'executed', source: 'webhook', outcome: 'change' },
      ]);
      // The other instance reads the same order.
      const page = await (await fetch(`${urls[1]}/orders/${reference}`)).text();
      expect(page).toContain('data-status="paid"');
      expect(page).toContain('data-event="executed" data-source="webhook"');

      for (const shop of shops) shop.child.kill('SIGTERM');
      expect(await Promise.all(shops.map((shop) => shop.exited))).toEqual([0, 0]);
      for (const shop of shops) expect(shop.output()).not.toContain(PASSWORD);
    } finally {
      for (const shop of shops) shop.child.kill('SIGKILL');
      await pool.end();
      await sandbox.close();
      await server.stop();
    }
  });
});
