// OpenTelemetry as an application sets it up, for the tests of @pay/client, @pay/webhook and
// @pay/journal: the SDK's tracer and meter providers, exporting to memory, and the
// AsyncLocalStorage context manager, registered as the global ones. The package under test finds
// them through @opentelemetry/api (whose globals every copy of major version 1 shares); nothing is
// handed to it.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Registers an SDK tracer provider, meter provider and context manager as the global ones. */
export function registerOtel() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  // Delta: each collection holds what happened since the previous one. Collected on demand only.
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 2 ** 31 - 1 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => spanExporter.getFinishedSpans(),
    async points() {
      await reader.forceFlush();
      const collected = metricExporter.getMetrics();
      metricExporter.reset();
      return collected.flatMap((r) =>
        r.scopeMetrics.flatMap((s) =>
          s.metrics.flatMap((m) =>
            m.dataPoints.map((p) => ({
              name: m.descriptor.name,
              attributes: p.attributes,
              value: m.dataPointType === DataPointType.HISTOGRAM ? p.value.count : p.value,
            })),
          ),
        ),
      );
    },
    async close() {
      trace.disable();
      metrics.disable();
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** Every string a span or data point carries: names, attribute values, event names and attributes, status message. */
export function recordedText(spans, points) {
  const values = (attributes) => Object.entries(attributes ?? {}).flatMap(([k, v]) => [k, String(v)]);
  return [
    ...spans.flatMap((s) => [
      s.name,
      s.status.message ?? '',
      ...values(s.attributes),
      ...s.events.flatMap((e) => [e.name, ...values(e.attributes)]),
    ]),
    ...points.flatMap((p) => [p.name, ...values(p.attributes)]),
  ];
}
