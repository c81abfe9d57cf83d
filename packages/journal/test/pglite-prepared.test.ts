// The journal's hot statements on a PGlite instance you pass in are prepared once on it (see
// adapters/pglite-prepared.ts). The instance is still yours: a DEALLOCATE ALL, a statement that
// fails, or a transaction of your own open on it must not break the journal's next create, nor be
// joined by it.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { freshPGlite, freshSchema } from './helpers/backends.js';
import { MERCHANT, payinBody, startShopSandbox } from './helpers/shop.js';

let sandbox: RunningSandbox;
let database: PGlite;
beforeAll(async () => {
  sandbox = await startShopSandbox();
  database = await freshPGlite();
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

it('shares an instance between two copies of @pay/journal in the process: their statements never take each other’s names', async () => {
  // Two copies, as two installs of the package would be: the built files at two paths, so their
  // modules (and whatever each keeps per module) are their own, each new. Bare imports resolve from
  // here to the same dependencies. A fresh instance: nothing on it but what the two prepare.
  const copies = [0, 1].map(() => mkdtempSync(join(import.meta.dirname, '.journal-copy-')));
  const shared = await freshPGlite();
  try {
    const journals = [];
    for (const copy of copies) {
      cpSync(join(import.meta.dirname, '..', 'dist'), join(copy, 'dist'), { recursive: true });
      const journalModule = (await import(pathToFileURL(join(copy, 'dist', 'index.js')).href)) as typeof import('../src/index.js');
      journals.push(await journalModule.openJournal({ client: client(), database: shared, schema: freshSchema() }));
    }
    for (const [i, journal] of journals.entries()) {
      for (const n of [1, 2]) {
        const { transaction } = await journal.payins.create(payinBody(`copy-${i}-${n}`, `${n}.00`, NO_HOOKS));
        expect(transaction.status).toBe('new');
      }
    }
    const prepared = await shared.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
    expect(new Set(prepared.rows.map((r) => r.name)).size).toBeGreaterThan(2); // both copies prepared theirs
  } finally {
    await shared.close();
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
});
