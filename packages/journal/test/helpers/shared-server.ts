// What the multi-process tests share: a database of the file's own on the run's PostgreSQL
// cluster, a pool on it for the test's own reads, and the sandbox, started before a describe
// block's tests and stopped after them.
import type { RunningSandbox } from '@pay/sandbox';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { fileDatabase } from './backends.js';
import { startShopSandbox } from './shop.js';

/** The parts, set once `beforeAll` has run. */
export interface Shared {
  /** The file's database: what the child processes are given as DATABASE_URL. */
  url: string;
  pool: pg.Pool;
  sandbox: RunningSandbox;
}

/** Registers the start and stop of the shared parts in the current describe block; `file` names the database. */
export function sharedServerAndSandbox(file: string, poolSize: number, sandboxOptions: { uniqueReferences?: boolean } = {}): Shared {
  const shared = {} as Shared;
  beforeAll(async () => {
    shared.url = await fileDatabase(file);
    shared.pool = new pg.Pool({ connectionString: shared.url, max: poolSize });
    // A connection the server ends must not crash the test process.
    shared.pool.on('error', () => {});
    shared.sandbox = await startShopSandbox(sandboxOptions);
  });
  afterAll(async () => {
    await shared.pool?.end();
    await shared.sandbox?.close();
  });
  return shared;
}
