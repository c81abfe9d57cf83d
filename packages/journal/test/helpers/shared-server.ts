// What the multi-process tests share: one real PostgreSQL cluster, a pool on it for the test's
// own reads, and the sandbox, started before a describe block's tests and stopped after them.
import type { RunningSandbox } from '@pay/sandbox';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type RunningPostgres, startPostgres } from './postgres-server.mjs';
import { startShopSandbox } from './shop.js';

/** The parts, set once `beforeAll` has run. */
export interface Shared {
  server: RunningPostgres;
  pool: pg.Pool;
  sandbox: RunningSandbox;
}

/** Registers the start and stop of the shared parts in the current describe block. */
export function sharedServerAndSandbox(poolSize: number, sandboxOptions: { uniqueReferences?: boolean } = {}): Shared {
  const shared = {} as Shared;
  beforeAll(async () => {
    shared.server = await startPostgres();
    shared.pool = new pg.Pool({ connectionString: shared.server.url, max: poolSize });
    // A connection the server ends (a test stopping it) must not crash the test process.
    shared.pool.on('error', () => {});
    shared.sandbox = await startShopSandbox(sandboxOptions);
  });
  afterAll(async () => {
    await shared.pool?.end();
    await shared.sandbox?.close();
    await shared.server?.stop();
  });
  return shared;
}
