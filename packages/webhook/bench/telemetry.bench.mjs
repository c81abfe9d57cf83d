// What OpenTelemetry costs a webhook through the pipeline every adapter calls (read, verify,
// parse, hand to the handler); tools/otel/bench.mjs says how it is measured. Run `pnpm build`
// first; ROUNDS=41 runs more rounds (21 by default).
import { createHmac } from 'node:crypto';
import { copyWithoutPeers } from '../../../tools/bench.mjs';
import { telemetryCost } from '../../../tools/otel/bench.mjs';
import { createWebhookCore } from '../dist/core.js';

const withoutApi = await import(new URL('dist/core.js', copyWithoutPeers(new URL('..', import.meta.url).pathname)).href);

const merchantId = 'm_12345';
const secret = 'sk_test_51Hc9f8e7d6c5b4a3';
const url = 'https://shop.example/webhooks/pay';
const body = Buffer.from(
  JSON.stringify({ id: 'pi_3Q8x7YkLmN2pQr4sT6uV8wX0', reference_id: 'order-2026-11-22-000123', status: 'executed' }),
);
const timestamp = String(Math.floor(Date.now() / 1000));
const headers = {
  'content-type': 'application/json',
  'x-merchant-id': merchantId,
  'x-timestamp': timestamp,
  'x-signature': createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}`).update(body).digest('hex'),
};
// No delivery store: every request reaches the handler, as a new delivery does.
const options = { merchantId, secret, url, store: false, handler: () => {} };
const incoming = { method: 'POST', path: '/webhooks/pay', headers, readBody: () => Promise.resolve({ ok: true, body }) };
const handleWith = (core) => async () => {
  const reply = await core.handle(incoming);
  if (reply.status !== 200) throw new Error(`answered ${reply.status}`);
};
const instrumented = handleWith(createWebhookCore(options));
const uninstrumented = handleWith(withoutApi.createWebhookCore(options));

await telemetryCost({
  name: '@pay/webhook',
  what: 'a webhook through the pipeline',
  with: instrumented,
  without: uninstrumented,
  spans: 1, // the webhook's
  rounds: Number(process.env.ROUNDS ?? 21),
  time: 200,
});
