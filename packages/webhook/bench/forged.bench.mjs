// What a forged webhook costs the receiver, relative to a valid one with the same body, for the
// bodies of a denial-of-service attempt: deep nesting (the review's 64 KB body), many keys, long
// strings, binary, and bodies at the near-miss hint's size limit (16 KB), where the hint does all of its
// work. Signed for a URL with a query string, so the hint tries all three URL variants.
//
// 1. Through the core pipeline every adapter calls, with a log sink that reads the hint on every
//    refusal (as the default one does): the cost of a flood of forged requests. Target: at most 3x.
// 2. verifyWebhook by hand, reading `.hint` on every forged request: the cost of one near-miss
//    check, which the pipeline works out at most once a second. Bounded, not targeted.
import { createHmac, randomBytes } from 'node:crypto';
import { createWebhookCore } from '../dist/core.js';
import { verifyWebhook } from '../dist/index.js';
import { compare } from '../../../tools/bench.mjs';

const merchantId = 'm_12345';
const secret = 'sk_test_51Hc9f8e7d6c5b4a3';
const url = 'https://shop.example/webhooks/pay?shop=7';
const KB = 1024;

const many = (n) => `{"id":"pi_1","status":"new",${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
const bodies = {
  'webhook payload (212 B)': JSON.stringify({
    id: 'pi_3Q8x7YkLmN2pQr4sT6uV8wX0',
    reference_id: 'order-2026-11-22-000123',
    status: 'executed',
    updated_at: '2026-11-22T12:00:00.123456',
    note: 'x'.repeat(40),
  }),
  "nested 64 KB (the review's body)": `${'['.repeat(4000)}${Array(28000).fill(0).join()}${']'.repeat(4000)}`,
  'nested 4 KB': `${'['.repeat(1000)}${Array(1000).fill(0).join()}${']'.repeat(1000)}`,
  'many keys 64 KB': many(6400),
  'many keys 4 KB (re-serialised by the hint)': many(400),
  'long string 64 KB': `{"id":"pi_1","status":"new","note":"${'x'.repeat(64 * KB)}"}`,
  'long string 16 KB (at the hint limit)': `{"id":"pi_1","status":"new","note":"${'x'.repeat(16 * KB - 40)}"}`,
  '16 KB of random bytes (at the hint limit)': randomBytes(16 * KB),
  '64 KB of random bytes': randomBytes(64 * KB),
};

const timestamp = String(Math.floor(Date.now() / 1000));
const sign = (body) => createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}`).update(body).digest('hex');
const headersFor = (signature) => ({
  'content-type': 'application/json',
  'x-merchant-id': merchantId,
  'x-timestamp': timestamp,
  'x-signature': signature,
});
let hints = 0;
const core = createWebhookCore({
  merchantId,
  secret,
  url,
  store: false,
  handler: () => {},
  maxBodyBytes: 128 * KB,
  onRefused: (failure) => void (hints += failure.hint === undefined ? 0 : 1), // reads the hint, as a log line does
});
const viaCore = (bytes, signature) => {
  const headers = headersFor(signature);
  const read = Promise.resolve({ ok: true, body: bytes });
  return () => core.handle({ method: 'POST', path: '/webhooks/pay?shop=7', headers, readBody: () => read });
};

console.log(`@pay/webhook: a forged request's cost relative to a valid one with the same body (node ${process.version})`);
const flood = {};
const single = {};
for (const [name, body] of Object.entries(bodies)) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const [good, forgedSignature] = [sign(bytes), randomBytes(32).toString('hex')];
  const valid = viaCore(bytes, good);
  const forged = viaCore(bytes, forgedSignature);
  const [v, f] = [await valid(), await forged()];
  if (v.status === 401 || f.status !== 401)
    throw new Error(`${name}: expected a verified and a refused request, got ${v.status} and ${f.status}`);
  const pipeline = await compare(
    `${name}, ${bytes.length} bytes, through the pipeline: valid (${v.status}) vs forged (401)`,
    ['valid', valid],
    { forged },
    { rounds: 5, time: 120 },
  );
  flood[name] = 1 / pipeline.forged;
  const options = { merchantId, secret, url };
  const byHand = await compare(
    `${name}, verifyWebhook: valid vs forged with its hint read`,
    ['valid', () => verifyWebhook({ ...options, headers: headersFor(good), body: bytes })],
    { 'forged + hint': () => verifyWebhook({ ...options, headers: headersFor(forgedSignature), body: bytes }).hint },
    { rounds: 5, time: 120 },
  );
  single[name] = 1 / byHand['forged + hint'];
}
if (hints === 0) throw new Error('no hint was ever read: the sink did not see the refusals');

const table = (title, costs) => {
  console.log(`\n${title}`);
  for (const [name, cost] of Object.entries(costs)) console.log(`  ${name.padEnd(44)} ${cost.toFixed(2)}x`);
};
const worst = Math.max(...Object.values(flood));
table('forged / valid cost through the pipeline, hints at most once a second (target: at most 3x)', flood);
console.log(`  worst: ${worst.toFixed(2)}x ${worst <= 3 ? 'meets' : 'ABOVE'} the target`);
table('for information: forged / valid cost of verifyWebhook when the hint is worked out for that request', single);
console.log(
  `  worst: ${Math.max(...Object.values(single)).toFixed(2)}x (one near-miss check: at most 8 HMACs a secret over at most 16 KB, @pay/sign's DIAGNOSIS_BODY_LIMIT)`,
);
