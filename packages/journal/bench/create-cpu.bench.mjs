// Where the CPU of a create goes, one in flight, on PostgreSQL (pg): what concurrent.bench
// measures as a whole (the journal at 0.77 of its floor at 1 in flight), taken apart. The create's
// HTTP call is left out (a client that answers at once), so what remains is the database's part
// and the journal's own, measured as CPU time per create of this process and of the cluster:
//
// - the floor (floor.mjs): its INSERT before the call and its UPDATE after;
// - the journal's two statements (the intent's claim, record_created) sent straight through pg,
//   named as the journal's adapter names them: what the driver and the server cost, no journal code;
// - journal.payins.create: the same statements with everything the journal does around them;
// - and a control for the cost of waiting: `SELECT 1`, whose answer is there at once, and a
//   statement that only holds the server 0.1 ms, with the same bytes to send and to read.
//
// Then the journal's code alone: journal.payins.create on a database and a client that both
// answer at once, against the client's call alone. Rounds alternate their order; each number is
// the median of the rounds, with their range.
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import pg from 'pg';
import { makeFloorTable } from './floor.mjs';
import { clusterSeconds, findPostmaster } from './process-cpu.mjs';
import { quantile } from '../../../tools/bench.mjs';
import { claimIntent } from '../dist/sql/intents.js';
import { callRecordCreated } from '../dist/sql/functions.js';
import { namesFor } from '../dist/names.js';
import { PREPARE } from '../dist/port.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);

if (!postgresAvailable) {
  console.log('@pay/journal create CPU: SKIPPED, PostgreSQL is not installed (PG_BIN)');
  process.exit(0);
}

/** A client whose creates answer at once (its limits and checks are a real client's: the journal sizes its leases from them). */
function instantClient() {
  const real = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_bench', secret: 'sk_test_bench' });
  let n = 0;
  const create = async (body) => ({ data: { id: `pi_${++n}_${body.reference_id}`, status: 'new', payment: body.payment } });
  return { limits: real.limits, payins: { check: real.payins.check, create }, payouts: real.payouts };
}

let n = 0;
/** A payin body with a new reference_id. */
const body = () => ({ reference_id: `cpu-${process.pid}-${++n}`, payment: { amount: '10.50', currency: 'EUR' } });

/**
 * `contenders` (name → one call) run `CALLS` times each, in rounds of alternating order: the median
 * and range of CPU µs per call of this process, and of `cluster()` (seconds so far) when given.
 */
async function measure(title, contenders, cluster = () => 0) {
  const names = Object.keys(contenders);
  for (const call of Object.values(contenders)) for (let i = 0; i < CALLS / 4; i++) await call(); // warm-up
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      const clusterBefore = cluster();
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await contenders[name]();
      const used = process.cpuUsage(before);
      rounds[name].push({ process: (used.user + used.system) / CALLS, cluster: ((cluster() - clusterBefore) * 1e6) / CALLS });
    }
  }
  console.log(`\n${title}: CPU µs per call, median of ${ROUNDS} rounds of ${CALLS} (range)`);
  for (const name of names) {
    const of = (key) => {
      const xs = rounds[name].map((r) => r[key]);
      return `${Math.round(quantile(xs, 0.5))} (${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))})`;
    };
    console.log(`  ${name.padEnd(62)} this process ${of('process').padEnd(14)} PostgreSQL ${of('cluster')}`);
  }
}

const server = await startPostgres();
const postmaster = findPostmaster(server.port);
const pool = new pg.Pool({ connectionString: server.url, max: 4 });
try {
  const journal = await openJournal({ client: instantClient(), database: pool, schema: 'bench' });
  await makeFloorTable((sql) => pool.query(sql));
  const names = namesFor('bench');
  // The journal's statements as its pg adapter sends them: named, so prepared once per connection.
  const named = (s) => pool.query({ name: `bench_${s.text.length}`, text: s.text, values: [...s.params] });
  const statements = async () => {
    const p = { kind: 'payin', referenceId: body().reference_id, amount: '10.50', currency: 'EUR', digest: 'f'.repeat(64) };
    await named(claimIntent(names, p, 'bench', 60_000, Date.now()));
    const outcome = { ...p, id: `pi_${p.referenceId}`, nextAction: null, status: 'new', source: 'create', owner: null };
    await named(callRecordCreated(names, outcome, Date.now()));
  };
  const floor = async () => {
    const b = body();
    await pool.query('INSERT INTO bench.floor (reference_id, amount) VALUES ($1, $2)', [b.reference_id, b.payment.amount]);
    await pool.query('UPDATE bench.floor SET transaction_id = $2, status = $3 WHERE reference_id = $1', [b.reference_id, 'pi_1', 'new']);
  };
  console.log(`@pay/journal: the CPU of a create without its HTTP call, one in flight, PostgreSQL through pg (node ${process.version})`);
  await measure(
    'a create without its HTTP call',
    {
      'floor: INSERT, then UPDATE': floor,
      "the journal's two statements alone (claim, record_created)": statements,
      'journal.payins.create (a client that answers at once)': () => journal.payins.create(body()),
      'control: SELECT 1, twice': async () => {
        await pool.query({ name: 'bench_select', text: 'SELECT 1 AS one', values: [] });
        await pool.query({ name: 'bench_select', text: 'SELECT 1 AS one', values: [] });
      },
      'control: a statement that holds the server 0.1 ms, twice': async () => {
        await pool.query({ name: 'bench_wait', text: 'SELECT 1 AS one FROM pg_sleep(0.0001)', values: [] });
        await pool.query({ name: 'bench_wait', text: 'SELECT 1 AS one FROM pg_sleep(0.0001)', values: [] });
      },
    },
    () => clusterSeconds(postmaster),
  );

  // The journal's code alone: a database that answers each statement at once with the row it
  // would (the intent claimed, the outcome recorded as the transaction's first status).
  const { creates } = await import('../dist/creates.js');
  const { guard } = await import('../dist/guard.js');
  const { reporter } = await import('../dist/reporter.js');
  const { systemClock } = await import('@pay/clock');
  const claimed = [{ attempts: 1 }];
  const recorded = [
    { r_outcome: 'change', r_previous: null, r_kind: 'payin', r_taken: true, r_amount: '10.50', r_currency: 'EUR', r_next_action: null },
  ];
  const instantDatabase = {
    driver: 'pg',
    query: async (text) => (text.startsWith(`${PREPARE}INSERT`) ? claimed : recorded),
    transaction: () => Promise.reject(new Error('no transaction without a handler')),
    close: async () => {},
  };
  const client = instantClient();
  const { create } = creates({
    db: guard(instantDatabase, 10_000),
    names,
    client,
    handler: undefined,
    clock: systemClock,
    owner: 'bench',
    inFlightLeaseMs: 60_000,
    sendQueuedAfterMs: 10_000,
    recoveryLeaseMs: 60_000,
    report: reporter(undefined),
    embedded: false,
  });
  await measure("the journal's code alone (a database and a client that answer at once)", {
    'the client alone': () => client.payins.create(body()),
    'journal.payins.create': () => create('payin', body(), false),
  });
  await journal.close();
} finally {
  await pool.end();
  await server.stop();
}
