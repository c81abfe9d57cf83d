// The README's outage on the embedded PGlite and on a real PostgreSQL: the same result on both,
// at the clock times the service's retry schedule and the reconciler's schedule give, and the
// same result on every one of 100 runs in a row.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, type RunningPostgres, startPostgres } from '@pay/test-support/postgres';
import { type Database, type OutageResult, outage } from './outage.js';

// Worked out from the interface and the design, not from the code: the payin is created at 09:00
// and executed at once; the webhook is tried at once, retried at once, then 15 min, 30 min and
// 1 h after the attempt before (09:00, 09:00, 09:15, 09:45, 10:45), each refused; the
// reconciler's first lookup is 15 min after the first status (09:15), and its pass runs every
// minute from 09:01, so it finds the payment at 09:15.
const REFUSED = /^executed #\d \S+ (?!\d)/;
function expectTheOutage(result: OutageResult): void {
  const executed = result.attempts.filter((a) => a.startsWith('executed '));
  expect(result.attempts.filter((a) => !a.startsWith('executed '))).toEqual(['new #1 09:00:00 200']);
  expect(executed.map((a) => a.split(' ')[2])).toEqual(['09:00:00', '09:00:00', '09:15:00', '09:45:00', '10:45:00']);
  for (const attempt of executed) expect(attempt).toMatch(REFUSED);
  expect(result.order).toEqual({ paid_at: '09:15:00', paid_by: 'reconciler' });
  expect(result.handled.filter((line) => line.includes('executed'))).toEqual(['09:15:00 executed from reconciler']);
  expect(result.now).toBe('2026-03-02T11:00:00.000Z');
}

describe('the two-hour outage', () => {
  let database: PGlite;
  beforeAll(async () => {
    database = new PGlite();
    await database.waitReady;
  });
  afterAll(() => database.close());

  it('on PGlite: the reconciler pays the order at 09:15, while every webhook attempt is refused', async () => {
    expectTheOutage(await outage(database, 'pglite_once'));
  });

  it('fails without the reconciler: the oracle can fail', async () => {
    const result = await outage(database, 'pglite_no_reconciler', false);
    expect(result.order).toEqual({ paid_at: null, paid_by: null });
    expect(() => expectTheOutage(result)).toThrow();
  });

  it('gives the same result on 100 runs in a row', async () => {
    const results: OutageResult[] = [];
    for (let run = 0; run < 100; run++) results.push(await outage(database, `pglite_run_${run}`));
    const first = results[0] as OutageResult;
    expectTheOutage(first);
    const { wallMs: _w, ...expected } = first;
    for (const { wallMs: _ms, ...result } of results) expect(result).toEqual(expected);
    const wall = results.map((r) => r.wallMs).sort((a, b) => a - b);
    console.log(
      `outage on PGlite: median ${Math.round(wall[50] as number)} ms, slowest ${Math.round(wall[99] as number)} ms of wall time per run`,
    );
  }, 600_000);
});

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
