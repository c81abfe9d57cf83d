// The environment's database: an in-memory PGlite for the test's own tables, which a journal shares,
// started from the empty cluster the journal keeps in the cache directory (not by initdb each
// time), and closed with the environment.
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { PGliteLike } from '@pay/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnvironment, type TestEnvironment } from '../src/index.js';

/** The system identifiers of the clusters kept in the cache directory (the journal names each file by it). */
function keptClusterIds(): string[] {
  const xdg = process.env['XDG_CACHE_HOME'];
  const dir = join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'pay-journal');
  return readdirSync(dir).flatMap((file) => /^pglite-.+-fresh-cluster-(\d+)\.tar\.gz$/.exec(file)?.[1] ?? []);
}

describe('env.database()', () => {
  // One environment: the second test closes it.
  let env: TestEnvironment;
  let database: PGliteLike;
  beforeAll(async () => {
    env = await createTestEnvironment({ start: '2026-03-02T09:00:00Z' });
    database = await env.database();
  });
  afterAll(() => env.close());

  it("holds the test's tables beside a journal's, started as a copy of the kept empty cluster", async () => {
    await database.exec('CREATE TABLE orders (id text PRIMARY KEY)');
    const journal = await env.journal({ database, handler: async () => {} });
    await database.query("INSERT INTO orders (id) VALUES ('order-1')");
    expect((await database.query('SELECT id FROM orders')).rows).toEqual([{ id: 'order-1' }]);
    // The journal's tables are in the same database.
    const { rows } = await database.query("SELECT count(*)::int AS n FROM pg_catalog.pg_tables WHERE tablename = 'pay_intents'");
    expect(rows).toEqual([{ n: 1 }]);
    await journal.close();
    // initdb draws a new identifier for every cluster: a copy of the kept one reports the kept one's.
    const [system] = (await database.query('SELECT system_identifier::text AS id FROM pg_control_system()')).rows;
    expect(keptClusterIds()).toContain((system as { id: string }).id);
  });

  it('is closed with the environment, and none is started after', async () => {
    await env.close();
    await expect(database.query('SELECT 1')).rejects.toThrow();
    await expect(env.database()).rejects.toThrow('database: the test environment is closed');
  });
});
