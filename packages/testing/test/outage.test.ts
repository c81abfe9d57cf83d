// The README's outage on the embedded PGlite, at the clock times the service's retry schedule and
// the reconciler's schedule give, and the same result on every one of 100 runs in a row (on a
// real PostgreSQL: outage-postgres.test.ts).
import { type PGliteLike, startEmbeddedDatabase } from '@pay/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectTheOutage } from './expect-outage.js';
import { type OutageResult, outage } from './outage.js';

describe('the two-hour outage', () => {
  let database: PGliteLike;
  beforeAll(async () => {
    // A PGlite as env.database() starts one: from the kept empty cluster, not by initdb.
    database = await startEmbeddedDatabase();
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
