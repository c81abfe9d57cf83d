// Signed create-payin requests per second: the sandbox against Stoplight Prism mocking the same
// OpenAPI document (@pay/schema/openapi.json), side by side in one run, with the same bodies and
// headers, load from autocannon. Rounds alternate their order; the result is the median of the
// per-round ratios (a shared, noisy machine moves absolute numbers more than ratios). Seven rounds
// rather than three: a slow spell of a few seconds, which a shared machine has, then falls on one
// round of one server, and the median leaves it out.
//
// The sandbox does more per request than Prism: it checks the signature (HMAC over the exact URL
// and body), the timestamp and the merchant, validates the body, stores the payin, answers the
// record, and delivers a signed webhook to a receiver. Prism validates the body and answers a
// fixed example. Target: at least 2x Prism's throughput.
//
// Two stand-ins (bench/stand-in.mjs) run in the same rounds and say where a create's CPU time
// goes: node:http reading the request and writing a fixed answer (the floor of any server), and
// the same plus one signed webhook through the sandbox's own sender; the rest is the sandbox's
// own work.
import { EXAMPLES } from '@pay/schema';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { freePort } from '@pay/test-support';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import { spawnUntil } from '../../../tools/bench.mjs';

const require = createRequire(import.meta.url);
const here = import.meta.dirname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const merchant = { id: 'm_bench', secret: 'sk_bench_secret' };
const children = [];
/** The pid of the child started `back` starts ago (1: the last). */
const pidBack = (back) => children.at(-back).pid;
let stopping = false;

/** CPU time a process has used so far, in seconds (Linux /proc; NaN elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return NaN;
  }
}

// The merchant's webhook receiver (the sandbox sends one webhook per created payin), in a process
// of its own so it does not slow the load generator down.
const [, receiverPort] = await spawnUntil(
  [
    '-e',
    `let n = 0;
     const server = require('node:http').createServer((req, res) => req.resume().on('end', () => { n++; res.writeHead(204).end(); }));
     server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
     process.on('SIGTERM', () => { console.error('webhooks ' + n); process.exit(0); });`,
  ],
  /port (\d+)/,
  children,
);
const webhookUrl = `http://127.0.0.1:${receiverPort}/hooks`;

// The stand-ins, before the sandbox and Prism (their processes are found by name below).
const [, floorUrl] = await spawnUntil([join(here, 'stand-in.mjs')], /base URL\s+(\S+)/, children);
const floorPid = pidBack(1);
const [, floorHookUrl] = await spawnUntil([join(here, 'stand-in.mjs'), webhookUrl], /base URL\s+(\S+)/, children);
const floorHookPid = pidBack(1);

const [, sandboxUrl] = await spawnUntil(
  [join(here, '..', 'dist', 'cli.js'), '--port', '0', '--quiet', '--merchant', `${merchant.id}:${merchant.secret}`],
  /base URL\s+(\S+)/,
  children,
);
const prismPort = await freePort();
const documentPath = require.resolve('@pay/schema/openapi.json');
const prismBin = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
// Prism at its fastest: silent (its per-request logging costs it a lot).
spawnUntil([prismBin, 'mock', documentPath, '--port', String(prismPort), '--verboseLevel', 'silent'], /$^/, children).catch((error) => {
  if (stopping) return; // killed at the end, as it should be
  console.error(error.message);
  process.exit(1);
});
// Silent Prism prints nothing: wait until it answers.
const prismUrl = `http://127.0.0.1:${prismPort}`;
for (;;) {
  try {
    await fetch(`${prismUrl}/v2/merchants/payins/?reference_id=x`);
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const { customer } = EXAMPLES.createPayin;
let sequence = 0;

/** A signed create-payin: a unique reference, signed now over the exact URL and bytes. */
function signedCreate(base) {
  const url = `${base}/v2/merchants/payins/`;
  const body = JSON.stringify({
    reference_id: `bench-${sequence++}`,
    payment: { amount: 10.5, currency: 'EUR' },
    customer,
    browser_data: { user_agent: 'autocannon', ip_address: '203.0.113.7' },
    webhook_url: webhookUrl,
    redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', merchant.secret).update(`${merchant.id}${ts}POST${url}${body}`).digest('hex');
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-merchant-id': merchant.id, 'x-timestamp': ts, 'x-signature': signature },
  };
}

// Requests are signed before each round (their timestamps stay well inside the 60 s tolerance), so
// the load generator spends its time sending them, not signing them.
const POOL = 40_000;

function load(base) {
  const pool = Array.from({ length: POOL }, () => signedCreate(base));
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            path: '/v2/merchants/payins/',
            setupRequest: (request) => ({ ...request, ...(next < POOL ? pool[next++] : signedCreate(base)) }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const FLOOR = 'node:http, fixed answer';
const FLOOR_HOOK = '+ one webhook';
const targets = { sandbox: sandboxUrl, prism: prismUrl, [FLOOR]: floorUrl, [FLOOR_HOOK]: floorHookUrl };
const processes = { sandbox: pidBack(2), prism: pidBack(1), [FLOOR]: floorPid, [FLOOR_HOOK]: floorHookPid };
const results = { sandbox: [], prism: [], [FLOOR]: [], [FLOOR_HOOK]: [] };
const NAMES = ['sandbox', 'prism', FLOOR, FLOOR_HOOK];
for (const name of NAMES) await load(targets[name]); // warm-up, each
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...NAMES].reverse() : NAMES;
  for (const name of order) {
    const cpuBefore = cpuSeconds(processes[name]);
    const r = await load(targets[name]);
    // The server's own CPU time per request: what each costs, whatever else the machine runs.
    r.cpuPerRequest = (cpuSeconds(processes[name]) - cpuBefore) / r.requests.total;
    if (r.non2xx > 0 || r.errors > 0)
      throw new Error(`${name}: ${r.non2xx} non-2xx answers and ${r.errors} errors; the bench is not measuring creates`);
    results[name].push(r);
    if (process.env.BENCH_VERBOSE)
      console.log(`  round ${round + 1} ${name}: ${Math.round(r.requests.average)} req/s, ${Math.round(r.cpuPerRequest * 1e6)} µs CPU/req`);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ratio = median(results.sandbox.map((r, i) => r.requests.average / results.prism[i].requests.average));
const cpuRatio = median(results.sandbox.map((r, i) => results.prism[i].cpuPerRequest / r.cpuPerRequest));

console.log(`\nsigned create-payin, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, side by side`);
for (const name of ['prism', 'sandbox', FLOOR, FLOOR_HOOK]) {
  const rs = results[name];
  const rps = median(rs.map((r) => r.requests.average));
  const p50 = median(rs.map((r) => r.latency.p50));
  const p99 = median(rs.map((r) => r.latency.p99));
  const cpu = median(rs.map((r) => r.cpuPerRequest)) * 1e6;
  const ratioOf = median(rs.map((r, i) => r.requests.average / results.prism[i].requests.average));
  const label =
    name === 'prism'
      ? 'baseline'
      : name === 'sandbox'
        ? `${ratio.toFixed(2)}x baseline (server CPU per request: ${cpuRatio.toFixed(2)}x less)`
        : `${ratioOf.toFixed(2)}x baseline (stand-in)`;
  console.log(
    `  ${name.padEnd(24)} ${Math.round(rps).toLocaleString('en-US').padStart(8)} req/s   p50 ${String(p50).padStart(3)} ms   p99 ${String(p99).padStart(3)} ms   ` +
      `${Number.isNaN(cpu) ? '' : `${Math.round(cpu).toLocaleString('en-US').padStart(6)} µs CPU/req   `}${label}`,
  );
}
console.log(`  (the sandbox also stored every payin and sent each one's signed webhook; target: at least 2x Prism)`);

// Where the sandbox's CPU per create goes, from the stand-ins measured in the same rounds.
const cpu = (name) => median(results[name].map((r) => r.cpuPerRequest)) * 1e6;
if (!Number.isNaN(cpu('sandbox'))) {
  const [floor, hook, sandbox] = [cpu(FLOOR), cpu(FLOOR_HOOK), cpu('sandbox')];
  const us = (n) => `${Math.round(n)} µs`.padStart(7);
  console.log(`\nwhere the sandbox's CPU per create goes (stand-ins measured in the same rounds):`);
  console.log(`  ${us(floor)}  node:http receiving the request and writing a fixed answer of the same size`);
  console.log(`  ${us(hook - floor)}  one signed webhook through the sandbox's Node sender (sent, and its answer read)`);
  console.log(`  ${us(sandbox - hook)}  the sandbox's own work (checks, storing, request log, answer, delivery log, schedule, GC)`);
  console.log(`  ${us(sandbox)}  in all (Prism: ${Math.round(cpu('prism'))} µs)`);
}

stopping = true;
for (const child of children) child.kill();
