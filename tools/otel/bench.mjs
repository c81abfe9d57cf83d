// What OpenTelemetry costs a package's hot path, measured side by side in one run (tools/bench.mjs):
// 1. @opentelemetry/api installed but no provider registered (an application that has the API
//    through some other library and records nothing) against the same package built without it
//    (a copy of its dist/ where the API cannot be resolved). Target: at least 0.98x.
// 2. With the SDK's tracer and meter providers registered, recording every span and metric to
//    memory: the cost of being observed, for information.
// Between the two, each contender is checked to be what it claims: with providers registered, the
// package built with the API records `spans` spans per run, the copy without it none. (Checked
// after the first measurement: code that has once run with a provider registered is compiled for
// both paths, which an application without one never is.)
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compare } from '../bench.mjs';

/**
 * Runs both comparisons for `name` (`@pay/client`) doing `what` (`payin lookup by id`): `with` is
 * one run through the package built with the API, `without` through the copy without it.
 */
export async function telemetryCost({ name, what, with: instrumented, without: uninstrumented, spans: expected, rounds, time }) {
  // The SDK, exporting to memory (emptied as it goes, so memory stays flat).
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
    exportIntervalMillis: 2 ** 31 - 1,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const baseline = [`${name} without the API`, uninstrumented];
  try {
    const idleName = `${name} with the API, no provider`;
    const idle = await compare(
      `${what}, @opentelemetry/api installed, no provider registered`,
      baseline,
      { [idleName]: instrumented },
      { rounds, time },
    );
    const ratio = idle[idleName];
    console.log(`  target: at least 0.98x; ${ratio.toFixed(3)}x ${ratio >= 0.98 ? 'meets' : 'BELOW'} it`);

    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    await uninstrumented();
    const recordedWithout = spans.getFinishedSpans().length;
    await instrumented();
    const recordedWith = spans.getFinishedSpans().length - recordedWithout;
    if (recordedWithout !== 0 || recordedWith !== expected) {
      throw new Error(
        `expected 0 and ${expected} spans, got ${recordedWithout} and ${recordedWith} (with NODE_PATH set, the copy may find the API)`,
      );
    }

    await compare(
      `${what}, the SDK recording every span and metric (for information)`,
      baseline,
      {
        [`${name}, spans and metrics recorded`]: async () => {
          await instrumented();
          spans.reset();
        },
      },
      { rounds: Math.ceil(rounds / 2), time },
    );
  } finally {
    trace.disable();
    metrics.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  }
}
