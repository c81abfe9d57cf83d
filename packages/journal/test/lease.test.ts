// The in-flight lease comes from the client's own limits: a create is not decidable by recover()
// before the client's whole call and the service's acceptance window are over. Read on a test
// clock: the lease ends exactly that long after the clock's time of the claim.
import type { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import { createTestClock } from '@pay/clock/test-clock';
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

// The client's documented defaults: totalTimeoutMs 120 s, toleranceSeconds 60, settleSeconds 10.
it.each([
  ['the client defaults', {}, 120_000 + (60 + 1 + 10) * 1000 + 10_000],
  ['short limits', { totalTimeoutMs: 4_000, toleranceSeconds: 2, settleSeconds: 1 }, 4_000 + (2 + 1 + 1) * 1000 + 10_000],
])('derives the in-flight lease from %s', async (_label, limits, expected) => {
  const real = createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret, ...limits });
  // Its create waits, once the intent is committed, until the test has read the lease.
  let sent = () => {};
  let go = () => {};
  const inFlight = new Promise<void>((resolve) => (sent = resolve));
  const release = new Promise<void>((resolve) => (go = resolve));
  const client = {
    ...real,
    payins: {
      ...real.payins,
      create: async (body: never) => {
        sent();
        await release;
        return real.payins.create(body);
      },
    },
  } as typeof real;
  const schema = freshSchema();
  const clock = createTestClock({ start: '2031-03-01T08:00:00Z' });
  const journal = await openJournal({ client, database, schema, clock });
  const creating = journal.payins.create(payinBody(`lease-${expected}`, '1', 'http://127.0.0.1:9/none'));
  await inFlight;
  const [row] = await journal.transaction((q) =>
    q(`SELECT (extract(epoch FROM lease_until) * 1000)::float8 AS ms FROM "${schema}".pay_intents WHERE state = 'in_flight'`),
  );
  expect(row, 'the intent, read while its create was in flight').toBeDefined();
  expect(Number(row!['ms'])).toBe(clock.now() + expected);
  go();
  await creating;
});

// A copy of @pay/client older than `limits` would leave every lease to a guess: refused at the door.
it('refuses a client that does not say its limits, naming them', async () => {
  const created = createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret });
  const client = { ...created, limits: undefined } as unknown as typeof created;
  await expect(openJournal({ client, database, schema: freshSchema() })).rejects.toThrow(/client\.limits is missing/);
});
