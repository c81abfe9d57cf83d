// The README's outage on a real PostgreSQL (a cluster this file starts): the result it gives on
// PGlite (outage.test.ts). A file of its own, so that the cluster's start and this run go beside
// the hundred runs on PGlite.
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { postgresAvailable, type RunningPostgres, startPostgres } from '@pay/test-support/postgres';
import { expectTheOutage } from './expect-outage.js';
import { type Database, outage } from './outage.js';

describe.skipIf(!postgresAvailable)('the two-hour outage on PostgreSQL', () => {
  let server: RunningPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  it('pays the order at 09:15 from the reconciler, as on PGlite', async () => {
    expectTheOutage(await outage(pool as unknown as Database, 'postgres_once'));
  });
});
