// The in-flight lease comes from the client's own limits: a create is not decidable by recover()
// before the client's whole call and the service's acceptance window are over.
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

// The client's documented defaults: totalTimeoutMs 120 s, toleranceSeconds 60, settleSeconds 10.
it.each([
  ['the client defaults', {}, 120_000 + (60 + 1 + 10) * 1000 + 10_000],
  ['short limits', { totalTimeoutMs: 4_000, toleranceSeconds: 2, settleSeconds: 1 }, 4_000 + (2 + 1 + 1) * 1000 + 10_000],
])('derives the in-flight lease from %s', async (_label, limits, expected) => {
  const client = createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret, ...limits });
  const schema = freshSchema();
  const journal = await openJournal({ client, database, schema });
  // The request is held 1.5 s by the fault (well inside the short limits' 4 s for the whole call):
  // the intent is read while it is in flight, as soon as it is committed (looked for every 20 ms,
  // not after a fixed pause a loaded machine could outlast).
  await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'delay', count: 1, ms: 1_500 });
  const creating = journal.payins.create(payinBody(`lease-${expected}`, '1', 'http://127.0.0.1:9/none'));
  let settled = false;
  const over = () => {
    settled = true;
  };
  creating.then(over, over);
  let row: Record<string, unknown> | undefined;
  while (row === undefined && !settled) {
    await new Promise((r) => setTimeout(r, 20));
    [row] = await journal.transaction((q) =>
      // The lease from the intent's own insert (updated_at is that statement's now()): exact, whatever the load.
      q(`SELECT extract(epoch FROM lease_until - updated_at) * 1000 AS ms FROM "${schema}".pay_intents WHERE state = 'in_flight'`),
    );
  }
  expect(row, 'the intent, read while its create was in flight').toBeDefined();
  expect(Number(row!['ms'])).toBe(expected);
  await creating;
});

// A copy of @pay/client older than `limits` would leave every lease to a guess: refused at the door.
it('refuses a client that does not say its limits, naming them', async () => {
  const created = createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret });
  const client = { ...created, limits: undefined } as unknown as typeof created;
  await expect(openJournal({ client, database, schema: freshSchema() })).rejects.toThrow(/client\.limits is missing/);
});
