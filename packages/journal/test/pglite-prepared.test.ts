// The journal's hot statements on a PGlite instance you pass in are prepared once on it (see
// adapters/pglite-prepared.ts). The instance is still yours: a DEALLOCATE ALL, a statement that
// fails, or a transaction of your own open on it must not break the journal's next create, nor be
// joined by it.
import { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { freshSchema } from './helpers/backends.js';
import { MERCHANT, payinBody, startShopSandbox } from './helpers/shop.js';

let sandbox: RunningSandbox;
let database: PGlite;
beforeAll(async () => {
  sandbox = await startShopSandbox();
  database = new PGlite();
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const client = () => createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret });
const NO_HOOKS = 'http://127.0.0.1:9/none';
const count = async (schema: string, table: string) =>
  Number((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".${table}`)).rows[0]!.n);

it('keeps creating after the instance drops every prepared statement (DEALLOCATE ALL)', async () => {
  const schema = freshSchema();
  const journal = await openJournal({ client: client(), database, schema });
  await journal.payins.create(payinBody('dealloc-1', '1.00', NO_HOOKS));
  // The journal's statements were prepared on the instance: the server lists them.
  const before = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
  expect(before.rows[0]!.n).toBeGreaterThan(0);
  await database.exec('DEALLOCATE ALL');
  const { transaction } = await journal.payins.create(payinBody('dealloc-2', '2.00', NO_HOOKS));
  expect(transaction.status).toBe('new');
  expect(await count(schema, 'pay_events')).toBe(2);
  expect(await count(schema, 'pay_checks')).toBe(2);
});

it('leaves the instance usable after a prepared statement fails', async () => {
  const schema = freshSchema();
  const journal = await openJournal({ client: client(), database, schema });
  await journal.payins.create(payinBody('fails-1', '1.00', NO_HOOKS));
  // The intents table refuses this reference: the intent's prepared INSERT fails.
  await database.exec(`ALTER TABLE "${schema}".pay_intents ADD CONSTRAINT refuse CHECK (reference_id <> 'fails-2')`);
  await expect(journal.payins.create(payinBody('fails-2', '2.00', NO_HOOKS))).rejects.toMatchObject({
    code: 'database_failed',
    sqlState: '23514',
  });
  // The same instance answers at once, outside any failed transaction.
  expect((await database.query<{ ok: number }>('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
  const { transaction } = await journal.payins.create(payinBody('fails-3', '3.00', NO_HOOKS));
  expect(transaction.status).toBe('new');
  expect(await count(schema, 'pay_intents')).toBe(2);
});

it('waits for a transaction of your own on the instance instead of running inside it', async () => {
  const schema = freshSchema();
  const journal = await openJournal({ client: client(), database, schema });
  let creating: Promise<unknown> | undefined;
  await database
    .transaction(async (tx) => {
      await tx.query(`CREATE TABLE "${schema}".mine (id int)`);
      creating = journal.payins.create(payinBody('waits-1', '1.00', NO_HOOKS));
      await new Promise((r) => setTimeout(r, 300));
      // Had the journal's intent run inside this transaction, it would roll back with it.
      throw new Error('rolled back on purpose');
    })
    .catch(() => {});
  await creating;
  expect(await count(schema, 'pay_intents')).toBe(1);
  expect(await count(schema, 'pay_events')).toBe(1);
});
