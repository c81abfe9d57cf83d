// What a kept payin costs in memory, typical and worst case: payins created through the real HTTP
// endpoint, each with its `new` webhook delivered to a receiver in another process, then the heap
// measured after a full GC. The worst case fills every kept string to the sandbox's limits: four
// URLs of 2,048 characters (webhook_url, distinct per payin, and the three redirect URLs), a
// 64-character reference, method and language, 80-character names and a 255-character e-mail.
// Run with --expose-gc.
import { EXAMPLES } from '@pay/schema';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { startSandbox } from '../dist/index.js';

const COUNT = Number(process.env.BENCH_PAYINS ?? 2000);
const merchant = { id: 'm_bench', secret: 'sk_bench_secret' };
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const receiver = spawn(
  process.execPath,
  [
    '-e',
    `const server = require('node:http').createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
     server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => receiver.kill());
const port = await new Promise((resolve) => receiver.stdout.on('data', (d) => resolve(/port (\d+)/.exec(String(d))[1])));

const fill = (prefix, length) => prefix + 'x'.repeat(length - prefix.length);
const BODIES = {
  typical: (i) => ({
    ...EXAMPLES.createPayin,
    reference_id: `mem-${i}`,
    webhook_url: `http://127.0.0.1:${port}/hooks`,
  }),
  'worst case': (i) => ({
    ...EXAMPLES.createPayin,
    reference_id: fill(`mem-${i}-`, 64),
    method: fill('m', 64),
    language: fill('l', 64),
    customer: {
      ...EXAMPLES.createPayin.customer,
      first_name: fill('F', 80),
      last_name: fill('L', 80),
      email: `${fill(`e${i}`, 64)}@${['a', 'b', 'c'].map((l) => fill(l, 59)).join('.')}.example`,
    },
    webhook_url: fill(`http://127.0.0.1:${port}/hooks/${i}?`, 2048),
    redirect_urls: {
      success: fill(`https://shop.example/ok/${i}?`, 2048),
      fail: fill(`https://shop.example/fail/${i}?`, 2048),
      in_progress: fill(`https://shop.example/wait/${i}?`, 2048),
    },
  }),
};

async function heapAfterGc() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed;
}

for (const [name, bodyOf] of Object.entries(BODIES)) {
  const sandbox = await startSandbox({ merchants: [merchant] });
  const url = `${sandbox.url}/v2/merchants/payins/`;
  const create = async (i) => {
    const body = JSON.stringify(bodyOf(i));
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', merchant.secret).update(`${merchant.id}${ts}POST${url}${body}`).digest('hex');
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-merchant-id': merchant.id, 'x-timestamp': ts, 'x-signature': signature },
    });
    if (response.status !== 200) throw new Error(`create answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  // Warm up (code, pools, the request log's 1,000 entries filled) before the baseline.
  for (let i = 0; i < 1000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => create(-1 - i - j)));
  await sandbox.admin.advance(0);
  await sandbox.admin.reset();
  for (let i = 0; i < 1000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => create(-100_000 - i - j)));
  await sandbox.admin.advance(0);
  const kept = (await sandbox.admin.transactions()).length;
  const before = await heapAfterGc();
  for (let i = 0; i < COUNT; i += 50) await Promise.all(Array.from({ length: Math.min(50, COUNT - i) }, (_, j) => create(i + j)));
  await sandbox.admin.advance(0);
  const after = await heapAfterGc();
  const added = (await sandbox.admin.transactions()).length - kept;
  const perPayin = (after - before) / added;
  console.log(
    `${name}: ${added} payins with their delivered webhook: ${(perPayin / 1024).toFixed(1)} KiB each; ` +
      `at 10,000 kept (MAX_TRANSACTIONS): about ${((perPayin * 10_000) / 1024 / 1024).toFixed(0)} MiB`,
  );
  await sandbox.close();
}
receiver.kill();
