// The whole retry schedule for 1,000 failing deliveries: 1,000 payins whose receiver answers 500
// to everything. Their first two attempts run at once on wall time; then one `clock/advance` of
// three hours runs the rest of the schedule (attempts 3 to 5 of every `new` webhook, and the
// `expired` webhook each payin gets at 30 minutes, with all five of its attempts), in order.
// Prints the time the advance took, the attempts it ran, and the memory the sandbox holds.
import { EXAMPLES } from '@pay/schema';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { startSandbox } from '../dist/index.js';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 1000);
const merchant = { id: 'm_bench', secret: 'sk_bench_secret' };

// A receiver that refuses every webhook, in its own process; it reports how many it got.
const receiver = spawn(
  process.execPath,
  [
    '-e',
    `let n = 0;
     const server = require('node:http').createServer((req, res) => req.resume().on('end', () => { n++; res.writeHead(500).end(); }));
     server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
     process.on('message', () => process.send(n));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
);
const port = await new Promise((resolve) => receiver.stdout.on('data', (d) => resolve(/port (\d+)/.exec(String(d))[1])));
const received = () =>
  new Promise((resolve) => {
    receiver.send('count');
    receiver.once('message', resolve);
  });

const sandbox = await startSandbox({ merchants: [merchant] });
const { customer } = EXAMPLES.createPayin;
const url = `${sandbox.url}/v2/merchants/payins/`;
async function create(i) {
  const body = JSON.stringify({
    reference_id: `sched-${i}`,
    payment: { amount: 10, currency: 'EUR' },
    customer,
    browser_data: { user_agent: 'bench', ip_address: '203.0.113.7' },
    webhook_url: `http://127.0.0.1:${port}/hooks`,
    redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', merchant.secret).update(`${merchant.id}${ts}POST${url}${body}`).digest('hex');
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-merchant-id': merchant.id, 'x-timestamp': ts, 'x-signature': signature },
  });
  if (response.status !== 200) throw new Error(`create answered ${response.status}`);
}
const admin = async (path, body) =>
  (await fetch(`${sandbox.url}/_sandbox${path}`, { method: body ? 'POST' : 'GET', body: body && JSON.stringify(body) })).json();

for (let i = 0; i < COUNT; i += 50) await Promise.all(Array.from({ length: Math.min(50, COUNT - i) }, (_, j) => create(i + j)));
// Attempts 1 and 2 of each run at once; wait for all of them (the advance would run them too).
for (;;) {
  const log = await admin('/deliveries');
  if (log.filter((a) => a.sent_at !== null && (a.response_status !== null || a.error !== null)).length >= 2 * COUNT) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const before = await received();
const started = performance.now();
await admin('/clock/advance', { seconds: 3 * 3600 });
const took = performance.now() - started;
const attempts = (await received()) - before;
global.gc?.();
const memory = process.memoryUsage();
const log = await admin('/deliveries');

console.log(`\nclock/advance through the whole retry schedule, ${COUNT.toLocaleString('en-US')} payins whose receiver answers 500`);
console.log(
  `  advance of 3 h: ${attempts.toLocaleString('en-US')} attempts (3 to 5 of each "new" webhook, 1 to 5 of each "expired" one) in ${(took / 1000).toFixed(2)} s, ${Math.round(attempts / (took / 1000)).toLocaleString('en-US')} attempts/s`,
);
const outcomes = {};
for (const a of log) {
  const key = a.response_status ?? a.error;
  outcomes[key] = (outcomes[key] ?? 0) + 1;
}
console.log(`  delivery log: ${log.length.toLocaleString('en-US')} attempts, by answer: ${JSON.stringify(outcomes)}`);
console.log(
  `  sandbox process memory: heap ${(memory.heapUsed / 2 ** 20).toFixed(1)} MiB (${((memory.heapUsed - heapBefore) / 2 ** 20).toFixed(1)} MiB more after the advance), rss ${(memory.rss / 2 ** 20).toFixed(1)} MiB`,
);

await sandbox.close();
receiver.kill();
