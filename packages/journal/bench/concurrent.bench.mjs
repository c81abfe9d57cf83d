// Creates with many in flight, as a merchant's application makes them: throughput and latency of
// journal.payins.create on PostgreSQL (pg) and on PGlite side by side with client.payins.create
// alone, with 1 and 32 creates in flight. The sandbox runs in a process of its own (as the service
// would, it must not share this process's core), and sends each payin's webhook to a receiver in a
// third process. Rounds alternate their order; each ratio is the median of the per-round ratios
// (a shared machine moves absolute numbers more than ratios), and each latency is the median of
// the per-round p50 and p99.
//
// Targets (issue #40): with 32 in flight, at least 0.6 of the client alone on PostgreSQL and 0.5 on
// PGlite, with a p99 no worse than the client's plus 2 ms; with 1 in flight, 0.9 of the floor
// (floor.mjs) on each database.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import pg from 'pg';
import { floorCreate, floorPGlite, makeFloorTable } from './floor.mjs';
import { payinBodies } from './payin-body.mjs';
import { clusterSeconds, findPostmaster, processStat } from './process-cpu.mjs';
import { quantile, spawnUntil } from '../../../tools/bench.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '1,32').split(',').map(Number);
// Latency is compared at one offered rate that every contender sustains (an open loop: creates
// start on a schedule, not when one ends): with a fixed number in flight, a contender's latency is
// only that number over its rate, so it would say nothing the rate has not said.
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const merchant = { id: 'm_bench', secret: 'sk_test_bench' };
const children = [];

/** CPU seconds used so far by this process, the sandbox, the receiver and the bench cluster's processes. */
function cpuSeconds() {
  return {
    bench: processStat(process.pid).seconds,
    sandbox: processStat(children[1].pid).seconds,
    receiver: processStat(children[0].pid).seconds,
    postgres: clusterSeconds(postmaster),
  };
}

const [, receiverPort] = await spawnUntil(
  [
    '-e',
    `const server = require('node:http').createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
     server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`,
  ],
  /port (\d+)/,
  children,
);
const webhookUrl = `http://127.0.0.1:${receiverPort}/hooks`;
const sandboxBin = join(dirname(createRequire(import.meta.url).resolve('@pay/sandbox/package.json')), 'bin/pay-sandbox.js');
const [, sandboxUrl] = await spawnUntil(
  [sandboxBin, 'serve', '--port', '0', '--quiet', '--max-transactions', '1000000', '--merchant', `${merchant.id}:${merchant.secret}`],
  /(http:\/\/127\.0\.0\.1:\d+)/,
  children,
);

const server = postgresAvailable ? await startPostgres() : undefined;
const postmaster = server ? findPostmaster(server.port) : -1;
// Pool size (BENCH_POOL, 4 by default): with group commit, creates without a handler hold at most
// two connections at once (one group of intents, one of outcomes), so a few cover 32 in flight.
const pool = server && new pg.Pool({ connectionString: server.url, max: Number(process.env.BENCH_POOL ?? 4) });
try {
  const client = createClient({ baseUrl: sandboxUrl, merchantId: merchant.id, secret: merchant.secret });
  const onPostgres = pool && (await openJournal({ client, database: pool, schema: 'bench' }));
  const onPGlite = await openJournal({ client });
  const body = payinBodies(webhookUrl);
  const contenders = {
    'client.payins.create alone': () => client.payins.create(body()),
    ...(onPostgres && { 'journal.payins.create on PostgreSQL (pg)': () => onPostgres.payins.create(body()) }),
    'journal.payins.create on PGlite (embedded)': () => onPGlite.payins.create(body()),
  };
  // Every contender must create what it is given, or the comparison means nothing.
  for (const create of Object.values(contenders)) {
    const answer = await create();
    if ((answer.data?.status ?? answer.transaction?.status) !== 'new') throw new Error('a contender did not create its payin');
  }
  // With 1 in flight the journal is also held against the floor (floor.mjs) on each database, with
  // the sandbox in its own process as here: the target is 0.9 of it. Each floor shares its
  // journal's database: the same pool, and a PGlite of its own in this process.
  if (onPostgres) await makeFloorTable((sql) => pool.query(sql));
  const embedded = await floorPGlite();
  const floors = {
    ...(onPostgres && {
      'floor on PostgreSQL: a row before, one after': [
        floorCreate(client, body, (text, params) => pool.query(text, params)),
        'journal.payins.create on PostgreSQL (pg)',
      ],
    }),
    'floor on PGlite: a row before, one after': [
      floorCreate(client, body, (text, params) => embedded.query(text, params)),
      'journal.payins.create on PGlite (embedded)',
    ],
  };

  // What the bench cluster wrote to its WAL meanwhile: every create's writes (heap tuples, index
  // entries, commits) end up there, so bytes per create compare what two contenders write.
  const walPosition = async () => (pool ? (await pool.query('SELECT pg_current_wal_insert_lsn()::text AS at')).rows[0].at : undefined);
  const walBytesSince = async (at) =>
    pool ? Number((await pool.query('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn) AS d', [at])).rows[0].d) : 0;

  /**
   * `create` kept `inFlight` at once for `seconds`: creates per second, each one's latency (ms), and
   * the CPU time per create (µs) of each process, and the bytes of WAL per create.
   */
  async function load(create, inFlight, seconds) {
    const walBefore = await walPosition();
    const cpuBefore = cpuSeconds();
    const until = performance.now() + seconds * 1000;
    const latencies = [];
    const lane = async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await create();
        latencies.push(performance.now() - started);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: inFlight }, lane));
    const rate = latencies.length / ((performance.now() - started) / 1000);
    const cpuAfter = cpuSeconds();
    const cpu = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, ((cpuAfter[k] - cpuBefore[k]) * 1e6) / latencies.length]));
    const wal = (await walBytesSince(walBefore)) / latencies.length;
    return { rate, latencies, cpu, wal };
  }

  const baseline = Object.keys(contenders)[0];
  for (const inFlight of IN_FLIGHT) {
    const running = {
      ...contenders,
      ...(inFlight === 1 && Object.fromEntries(Object.entries(floors).map(([name, [create]]) => [name, create]))),
    };
    const names = Object.keys(running);
    const rounds = Object.fromEntries(names.map((name) => [name, []]));
    await load(running[baseline], inFlight, 0.5); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 ? [...names].reverse() : names) rounds[name].push(await load(running[name], inFlight, SECONDS));
    }
    console.log(`\n@pay/journal creates with ${inFlight} in flight, ${ROUNDS} rounds of ${SECONDS} s (node ${process.version})`);
    for (const name of names) {
      const perRound = rounds[name].map((r, i) => r.rate / rounds[baseline][i].rate);
      const rate = quantile(
        rounds[name].map((r) => r.rate),
        0.5,
      );
      const p50 = quantile(
        rounds[name].map((r) => quantile(r.latencies, 0.5)),
        0.5,
      );
      const p99 = quantile(
        rounds[name].map((r) => quantile(r.latencies, 0.99)),
        0.5,
      );
      const ratio =
        name === baseline
          ? 'baseline'
          : `${quantile(perRound, 0.5).toFixed(2)}x (middle half ${quantile(perRound, 0.25).toFixed(2)}-${quantile(perRound, 0.75).toFixed(2)})`;
      const cpu = Object.keys(rounds[name][0].cpu)
        .map(
          (k) =>
            `${k} ${Math.round(
              quantile(
                rounds[name].map((r) => r.cpu[k]),
                0.5,
              ),
            )}`,
        )
        .join(', ');
      console.log(
        `  ${name.padEnd(44)} ${Math.round(rate).toLocaleString('en-US').padStart(7)}/s  p50 ${p50.toFixed(2).padStart(6)} ms  p99 ${p99.toFixed(2).padStart(6)} ms  ${ratio}`,
      );
      const wal = Math.round(
        quantile(
          rounds[name].map((r) => r.wal),
          0.5,
        ),
      );
      console.log(`  ${''.padEnd(44)} CPU per create, µs: ${cpu}; PostgreSQL's WAL per create: ${wal} bytes`);
    }
    if (inFlight === 1) {
      for (const [floor, [, journal]] of Object.entries(floors)) {
        const perRound = rounds[journal].map((r, i) => r.rate / rounds[floor][i].rate);
        console.log(
          `  ${journal} against its floor: ${quantile(perRound, 0.5).toFixed(2)}x (middle half ${quantile(perRound, 0.25).toFixed(2)}-${quantile(perRound, 0.75).toFixed(2)}; target 0.9)`,
        );
      }
    }
  }
  /**
   * Creates started `rate` times a second on a schedule for `seconds` (at most 32 in flight; one
   * that would be the 33rd is counted as dropped): each one's latency from its scheduled start, so a
   * contender that falls behind pays for the wait too.
   */
  async function paced(create, rate, seconds) {
    const latencies = [];
    const running = new Set();
    let dropped = 0;
    const start = performance.now();
    for (let i = 0; ; i++) {
      const due = start + (i * 1000) / rate;
      if (due > start + seconds * 1000) break;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      if (running.size >= 32) {
        dropped++;
        continue;
      }
      // From its scheduled start, or from its real one when it starts early (a wait under 1 ms is not taken).
      const from = Math.min(due, performance.now());
      const one = create().then(() => {
        latencies.push(performance.now() - from);
        running.delete(one);
      });
      running.add(one);
    }
    await Promise.all(running);
    return { latencies, dropped };
  }

  const names = Object.keys(contenders);
  const latency = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) latency[name].push(await paced(contenders[name], RATE, SECONDS));
  }
  console.log(
    `\n@pay/journal creates started ${RATE} times a second (open loop), ${ROUNDS} rounds of ${SECONDS} s: latency from each one's scheduled start`,
  );
  for (const name of names) {
    const p = (q) =>
      quantile(
        latency[name].map((r) => quantile(r.latencies, q)),
        0.5,
      )
        .toFixed(2)
        .padStart(6);
    const dropped = latency[name].reduce((sum, r) => sum + r.dropped, 0);
    console.log(`  ${name.padEnd(44)} p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  dropped (33rd in flight) ${dropped}`);
  }
  await onPGlite.close();
  await embedded.close();
  await onPostgres?.close();
} finally {
  await pool?.end();
  await server?.stop();
  for (const child of children) child.kill();
}
