#!/usr/bin/env node
// What OpenTelemetry costs a payin lookup by id, side by side in one run against the local server
// of the lookup benchmark (its own process, a fixed record):
// 1. @opentelemetry/api installed but no provider registered (an application that has the API
//    through some other library and records nothing) against the same client built without it
//    (a copy of dist/ where the API cannot be resolved). Target: at least 0.98x.
// 2. With the SDK's tracer and meter providers registered, recording every span and metric to
//    memory: the cost of being observed, for information.
// Run `pnpm build` first; ROUNDS=81 runs more rounds (41 of 150 ms each by default).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compare, copyWithoutPeers } from '../../../tools/bench.mjs';
import { createClient } from '../dist/index.js';

const withoutApi = await import(new URL('dist/index.js', copyWithoutPeers(new URL('..', import.meta.url).pathname)).href);

const server = fork(new URL('./fixed-server.mjs', import.meta.url), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const [port] = await once(server.stdout, 'data');
const options = { baseUrl: `http://127.0.0.1:${String(port).trim()}`, merchantId: 'm_bench', secret: 'sk_bench_secret' };
const id = 'pi_bench_1';
const lookupWith = (pay) => async () => {
  const { data } = await pay.payins.get(id);
  if (data.id !== id) throw new Error('wrong record');
};
const instrumented = lookupWith(createClient(options));
const uninstrumented = lookupWith(withoutApi.createClient(options));

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
  const rounds = Number(process.env.ROUNDS ?? 41);
  const idle = await compare(
    'payin lookup by id, @opentelemetry/api installed, no provider registered',
    ['@pay/client without the API', uninstrumented],
    { '@pay/client with the API, no provider': instrumented },
    { rounds, time: 150 },
  );
  const ratio = idle['@pay/client with the API, no provider'];
  console.log(`  target: at least 0.98x; ${ratio.toFixed(3)}x ${ratio >= 0.98 ? 'meets' : 'BELOW'} it`);

  // Each contender must be what it claims (checked after the measurement above: code that has once
  // run with a provider registered is compiled for both paths, which an application without one
  // never is): with providers registered, the client built with the API records its lookup (a call
  // span and a request span), the copy without it records nothing.
  register();
  await uninstrumented();
  const recordedWithout = spans.getFinishedSpans().length;
  await instrumented();
  const recordedWith = spans.getFinishedSpans().length - recordedWithout;
  if (recordedWithout !== 0 || recordedWith !== 2) {
    throw new Error(`expected 0 and 2 spans, got ${recordedWithout} and ${recordedWith} (with NODE_PATH set, the copy may find the API)`);
  }

  await compare(
    'payin lookup by id, the SDK recording every span and metric (for information)',
    ['@pay/client without the API', uninstrumented],
    {
      '@pay/client, spans and metrics recorded': async () => {
        await instrumented();
        spans.reset();
      },
    },
    { rounds: Math.ceil(rounds / 2), time: 150 },
  );
} finally {
  unregister();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  server.disconnect();
  server.kill();
}
