// One reconciler pass over a backlog of pending transactions (10 000, 30 000, 100 000; or the
// counts given as arguments): its wall time and the process's memory while it runs, on the
// embedded PGlite and on PostgreSQL (pg), so that the memory a pass needs is seen not to grow with
// the backlog.
//
// The backlog is written straight into the journal's own tables once openJournal has migrated
// them (one INSERT ... SELECT generate_series each: seconds, not the hours of creating them), as
// the event path leaves a transaction whose first status was recorded an hour ago: its row, status
// `new`, and its row in the checks table with no lookup yet. The lookups go to a real sandbox over
// loopback HTTP that knows every one of them (backlog-sandbox.mjs, in a child process so its
// records are not counted here): one in ten has become `executed` there, so a pass records a
// change (and runs the handler) for those and finds nothing new for the rest.
//
// Pacing: at the default `lookupsPerSecond` (5) a pass over 100 000 takes 5 h 33 min by its pacing
// alone, whatever the database does. The bench runs at 1000 a second, the most the option takes,
// so what is measured is the pass's own work; the README says what a backlog needs of the option.
//
// Memory is sampled every 5 ms (rss and heapUsed) from a collected heap just before the pass.
// The embedded PGlite keeps its database in this process's memory, so there rss grows with the
// data: before the pass with the backlog, and during it with the row versions the pass writes.
// heapUsed is the JavaScript heap alone: the journal's, the client's and the pass's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import pg from 'pg';
import { BENCH_MERCHANT, sandboxStatus } from './backlog-sandbox.mjs';

const COUNTS = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [10_000, 30_000, 100_000];
const MB = 1024 * 1024;
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const child = spawn(process.execPath, [new URL('./backlog-sandbox.mjs', import.meta.url).pathname, String(Math.max(...COUNTS))], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const [url] = await once(createInterface({ input: child.stdout }), 'line');
const client = createClient({ baseUrl: url, merchantId: BENCH_MERCHANT.id, secret: BENCH_MERCHANT.secret });
const server = postgresAvailable ? await startPostgres() : undefined;
const pool = server && new pg.Pool({ connectionString: server.url, max: 4 });

/** The backlog: `count` payins recorded `new` an hour ago on the journal's clock, none looked up yet. */
const backlog = (schema, count) => `
  INSERT INTO "${schema}".pay_transactions (kind, id, reference_id, amount, currency, status, statuses, created_at, updated_at)
    SELECT 'payin', 'pi_b' || n, 'bench-' || n, 10.00, 'EUR', 'new', ARRAY['new'], now() - interval '1 hour', now() - interval '1 hour'
      FROM generate_series(1, ${count}) n;
  INSERT INTO "${schema}".pay_checks (kind, id, since) SELECT 'payin', 'pi_b' || n, now() - interval '1 hour' FROM generate_series(1, ${count}) n`;

/** Runs `work`, sampling memory every 5 ms; its result, wall time and the peaks. */
async function measured(work) {
  gc();
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  };
  const sampler = setInterval(sample, 5);
  const started = performance.now();
  try {
    const result = await work();
    sample();
    return { result, ms: performance.now() - started, before, peak };
  } finally {
    clearInterval(sampler);
  }
}

const backends = {
  pglite: { database: undefined, schema: 'public' },
  ...(pool && { pg: { database: pool, schema: 'backlog' } }),
};
console.log(`@pay/journal: one reconciler pass over a backlog (node ${process.version}, lookupsPerSecond 1000, batch 10)`);
try {
  for (const [name, { database, schema: base }] of Object.entries(backends)) {
    for (const count of COUNTS) {
      const schema = database === undefined ? base : `${base}_${count}`;
      const journal = await openJournal({ client, database, schema, timeoutMs: 60_000, handler: async () => {} });
      await journal.transaction((query) => query(backlog(schema, count)));
      const { result, ms, before, peak } = await measured(() => journal.reconciler({ lookupsPerSecond: 1000 }).runOnce());
      const paid = Array.from({ length: count }, (_, i) => sandboxStatus(i + 1)).filter((s) => s !== 'new').length;
      if (result.checked !== count || result.changed !== paid || result.failed !== 0 || result.rateLimited) {
        throw new Error(`the pass did not look every transaction up: ${JSON.stringify(result)}`);
      }
      const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
      console.log(
        `${name.padEnd(7)} ${String(count).padStart(7)} pending: ${(ms / 1000).toFixed(1).padStart(6)} s (${Math.round(count / (ms / 1000))}/s), ` +
          `rss ${mb(before.rss)} before, peak ${mb(peak.rss)} (+${mb(peak.rss - before.rss)}), ` +
          `heapUsed ${mb(before.heapUsed)} before, peak ${mb(peak.heapUsed)} (+${mb(peak.heapUsed - before.heapUsed)})`,
      );
      await journal.close();
    }
  }
} finally {
  await pool?.end();
  await server?.stop();
  child.stdin.end();
  await once(child, 'exit');
}
