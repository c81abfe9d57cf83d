// PGlite has no autovacuum (no background workers), so the journal vacuums its own tables there,
// after each reconciler pass, by a server's autovacuum thresholds; on a server it sends nothing of
// the kind. A reconciler that reschedules the same rows pass after pass (every row due every
// second, on the test clock) would otherwise leave every rewritten checks row dead for ever. The
// dead rows are counted by the database's own statistics, flushed before they are read.
import { createClient } from '@pay/client';
import { createTestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { type Counter, counted } from './helpers/counted.js';
import { payinBody, shopClientOptions, startShopSandbox } from './helpers/shop.js';

const PAYINS = 40;
const PASSES = 12;
/**
 * On a server, passes enough to show that none sends a VACUUM or ANALYZE: by PGlite's thresholds
 * the checks table is due by the second pass (40 rows rewritten each), and a journal that ran its
 * upkeep on a server too sent one in these three.
 */
const SERVER_PASSES = 3;

describe.each(BACKENDS)('the journal’s upkeep on %s', (backendName) => {
  let backend: Backend;
  let counter: Counter;
  let sandbox: RunningSandbox;
  let journal: Journal;
  let schema: string;
  const clock = createTestClock({ start: '2031-06-01T09:00:00Z' });

  beforeAll(async () => {
    backend = await openBackend(backendName, 'embedded_upkeep');
    counter = counted(backend);
    sandbox = await startShopSandbox();
    schema = freshSchema();
    journal = await openJournal({ client: createClient(shopClientOptions(sandbox.url)), clock, database: counter.database, schema });
    for (let i = 0; i < PAYINS; i++) await journal.payins.create(payinBody(`upkeep-${i}`, '3.00', 'http://127.0.0.1:9/hooks'));
  });
  afterAll(async () => {
    await journal?.close();
    await sandbox?.close();
    await backend?.close();
  });

  /** The statistics of the journal's tables, as the database counts them (flushed first). */
  const statistics = async () => {
    await journal.transaction((q) => q('SELECT pg_catalog.pg_stat_force_next_flush()'));
    const rows = await journal.transaction((q) =>
      q(`SELECT relname, n_live_tup::int AS live, n_dead_tup::int AS dead FROM pg_catalog.pg_stat_user_tables WHERE schemaname = $1`, [
        schema,
      ]),
    );
    return Object.fromEntries(rows.map((r) => [String(r['relname']), { live: Number(r['live']), dead: Number(r['dead']) }]));
  };

  it(
    backendName === 'pglite'
      ? 'vacuums its tables after the passes that left enough dead rows: the dead rows never pile up'
      : 'leaves vacuuming to the server: no VACUUM or ANALYZE is sent',
    async () => {
      const reconciler = journal.reconciler({ firstCheckMs: 1_000, maxIntervalMs: 1_000, lookupsPerSecond: 1_000 });
      counter.counting = true;
      for (let i = 0; i < (backendName === 'pglite' ? PASSES : SERVER_PASSES); i++) {
        await clock.advance('2s');
        expect((await whileClockSteps(clock, reconciler.runOnce(), 5)).checked).toBe(PAYINS); // every row looked up, and rescheduled
      }
      counter.counting = false;
      const upkeep = counter.statements.map((s) => s.text).filter((t) => /^(VACUUM|ANALYZE)\b/.test(t));
      if (backendName !== 'pglite') {
        expect(upkeep).toEqual([]);
        return;
      }
      // 40 rows rewritten a pass: past 50 + 20% dead every other pass.
      expect(upkeep.filter((t) => t === `VACUUM (ANALYZE) "${schema}"."pay_checks"`).length).toBeGreaterThanOrEqual(PASSES / 3);
      const checks = (await statistics())['pay_checks']!;
      expect(checks.live).toBe(PAYINS);
      expect(checks.dead).toBeLessThanOrEqual(50 + 0.2 * checks.live);
    },
  );
});
