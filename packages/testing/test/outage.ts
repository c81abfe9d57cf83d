// The README's outage, as a function the tests run on PGlite and PostgreSQL, many times: the
// receiver down for two hours, every webhook attempt refused, the reconciler finds the payment.
import { EXAMPLES } from '@pay/schema';
import { createTestEnvironment } from '../src/index.js';

/** What the tests compare between runs: everything the outage leaves behind, timed on the clock. */
export interface OutageResult {
  attempts: string[];
  order: { paid_at: string | null; paid_by: string | null };
  handled: string[];
  now: string;
  wallMs: number;
}

/** Any database with pg's `query(text, params) → { rows }`: a PGlite, a pg Pool. */
export interface Database {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export async function outage(database: Database, schema: string, withReconciler = true): Promise<OutageResult> {
  const started = performance.now();
  const env = await createTestEnvironment({ start: '2026-03-02T09:00:00Z' });
  try {
    const at = () => new Date(env.clock.now()).toISOString().slice(11, 19);
    const handled: string[] = [];
    await database.query(`CREATE SCHEMA ${schema}`);
    await database.query(`CREATE TABLE ${schema}.orders (id text PRIMARY KEY, paid_at text, paid_by text)`);
    const journal = await env.journal({
      database: database as never,
      schema,
      handler: async (event, query) => {
        handled.push(`${at()} ${event.status} from ${event.source}`);
        if (event.status !== 'executed') return;
        await query(`UPDATE ${schema}.orders SET paid_at = $2, paid_by = $3 WHERE id = $1`, [event.referenceId, at(), event.source]);
      },
    });
    const receiver = await env.receiver(journal.webhook());
    if (withReconciler) journal.reconciler().start();
    await database.query(`INSERT INTO ${schema}.orders (id) VALUES ('order-1001')`);
    const body = { ...structuredClone(EXAMPLES.createPayin), reference_id: 'order-1001', webhook_url: receiver.url };
    const { transaction } = await journal.payins.create(body);
    await env.advance(0); // the payin's first webhook (status new) is delivered
    await receiver.down();
    await env.sandbox.admin.setStatus('payin', transaction.id, 'executed');
    await env.advance('2h');
    await receiver.up();
    const attempts = (await env.sandbox.admin.deliveries(transaction.id)).map(
      (a) => `${a.status} #${a.attempt} ${a.sent_at?.slice(11, 19)} ${a.response_status ?? a.error}`,
    );
    const [order] = (await database.query(`SELECT paid_at, paid_by FROM ${schema}.orders WHERE id = 'order-1001'`)).rows;
    return {
      attempts,
      order: order as OutageResult['order'],
      handled,
      now: new Date(env.clock.now()).toISOString(),
      wallMs: performance.now() - started,
    };
  } finally {
    await env.close();
  }
}
