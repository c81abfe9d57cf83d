// What OpenTelemetry costs a webhook through the pipeline every adapter calls (read, verify,
// parse, hand to the handler), side by side in one run:
// 1. @opentelemetry/api installed but no provider registered (an application that has the API
//    through some other library and records nothing) against the same package built without it
//    (a copy of dist/ where the API cannot be resolved). Target: at least 0.98x.
// 2. With the SDK's tracer and meter providers registered, recording every span and metric to
//    memory: the cost of being observed, for information.
// Run `pnpm build` first; ROUNDS=41 runs more rounds (21 by default).
import { createHmac } from 'node:crypto';
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compare, copyWithoutPeers } from '../../../tools/bench.mjs';
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

// The SDK, exporting to memory (emptied as it goes, so memory stays flat).
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
  exportIntervalMillis: 2 ** 31 - 1,
});
const meterProvider = new MeterProvider({ readers: [reader] });
const register = () => {
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
};
const unregister = () => {
  trace.disable();
  metrics.disable();
};

try {
  const rounds = Number(process.env.ROUNDS ?? 21);
  const idle = await compare(
    'a webhook through the pipeline, @opentelemetry/api installed, no provider registered',
    ['@pay/webhook without the API', uninstrumented],
    { '@pay/webhook with the API, no provider': instrumented },
    { rounds },
  );
  const ratio = idle['@pay/webhook with the API, no provider'];
  console.log(`  target: at least 0.98x; ${ratio.toFixed(3)}x ${ratio >= 0.98 ? 'meets' : 'BELOW'} it`);

  // Each contender must be what it claims (checked after the measurement above: code that has once
  // run with a provider registered is compiled for both paths, which an application without one
  // never is): with providers registered, the package built with the API records the webhook's
  // span, the copy without it records nothing.
  register();
  await uninstrumented();
  const recordedWithout = spans.getFinishedSpans().length;
  await instrumented();
  const recordedWith = spans.getFinishedSpans().length - recordedWithout;
  if (recordedWithout !== 0 || recordedWith !== 1)
    throw new Error(`expected 0 and 1 spans, got ${recordedWithout} and ${recordedWith} (with NODE_PATH set, the copy may find the API)`);

  await compare(
    'a webhook through the pipeline, the SDK recording every span and metric (for information)',
    ['@pay/webhook without the API', uninstrumented],
    {
      '@pay/webhook, span and metric recorded': async () => {
        await instrumented();
        spans.reset();
      },
    },
    { rounds: Math.ceil(rounds / 2) },
  );
} finally {
  unregister();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
}
