// The outage every example tests, written once: a merchant's own database and handler, the
// receiver down for two hours, the reconciler finding the payment. Each test file runs it from
// its own framework.
import { EXAMPLES } from '@pay/schema';
import { createTestEnvironment } from '@pay/testing';

/** Starts an environment and a shop (database, journal, receiver, reconciler) on its clock. */
export async function openShop() {
  const env = await createTestEnvironment({ start: '2026-03-02T09:00:00Z' });
  // An in-memory PGlite (a `new PGlite()` would do), started from the empty cluster the journal
  // keeps: initdb runs once on this machine, not in every test.
  const database = await env.database();
  await database.exec('CREATE TABLE orders (id text PRIMARY KEY, paid_at timestamptz)');
  const journal = await env.journal({
    database,
    handler: async (event, query) => {
      if (event.status === 'executed')
        await query('UPDATE orders SET paid_at = $2 WHERE id = $1', [event.referenceId, new Date(env.clock.now())]);
    },
  });
  const receiver = await env.receiver(journal.webhook());
  journal.reconciler().start();
  return {
    env,
    receiver,
    async order(id) {
      await database.query('INSERT INTO orders (id) VALUES ($1)', [id]);
      const body = { ...structuredClone(EXAMPLES.createPayin), reference_id: id, webhook_url: receiver.url };
      const { transaction } = await journal.payins.create(body);
      await env.advance(0); // its first webhook (status new) is delivered
      return transaction;
    },
    async paidAt(id) {
      const { rows } = await database.query('SELECT paid_at FROM orders WHERE id = $1', [id]);
      return rows[0]?.paid_at ?? null;
    },
    close: () => env.close(),
  };
}
