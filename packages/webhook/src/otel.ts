// OpenTelemetry, when the application has it. `@opentelemetry/api` is an optional peer dependency:
// it is loaded here once, when this module loads, through the runtime's own `require` (Node, Bun
// and Deno reach it through `process.getBuiltinModule`). Synchronously, because a top-level await
// would make the package impossible to load from CommonJS (require(esm) refuses a module graph that
// awaits), and an import() left running would miss the calls made before it settled. Without the
// package, or where there is no `require` (browsers, edge workers), there is no API and nothing is
// recorded.
// The API is used only through the providers the application registered, looked up at each use
// (so one registered after this package loaded is seen): while none is registered, nothing is
// created, not even a no-op span. @pay/client and @pay/webhook hold the same copy of this file.
import type * as Api from '@opentelemetry/api';

/** The API, and this package's name and version (the instrumentation scope of what it records). */
export interface Otel {
  readonly api: typeof Api;
  readonly name: string;
  readonly version: string;
}

/** The API when the application installed it, else undefined. */
export const otel: Otel | undefined = load();

function load(): Otel | undefined {
  type Require = (id: string) => unknown;
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof runtime?.getBuiltinModule !== 'function') return undefined;
  try {
    const { createRequire } = runtime.getBuiltinModule('node:module') as { createRequire(from: string): Require };
    const require = createRequire(import.meta.url);
    const api = require('@opentelemetry/api') as typeof Api;
    // This file sits one level below the package root, in src/ and in dist/ alike.
    const { name, version } = require('../package.json') as { name: string; version: string };
    return { api, name, version };
  } catch {
    return undefined;
  }
}

// What the providers are when nobody registered one: the no-op ones, never asked for anything.
const noopTracerProvider = otel && new otel.api.ProxyTracerProvider().getDelegate();
const noopMeter = otel?.api.createNoopMeter();

let tracerOf: { provider: Api.TracerProvider; tracer: Api.Tracer } | undefined;
let meterOf: { provider: Api.MeterProvider; meter: Api.Meter | undefined } | undefined;

/** This package's tracer from the registered tracer provider; undefined while there is none. */
export function tracerNow({ api, name, version }: Otel): Api.Tracer | undefined {
  // The global one is a proxy; what it delegates to is the application's provider, or the no-op one.
  const global = api.trace.getTracerProvider() as Api.TracerProvider & { getDelegate?: () => Api.TracerProvider };
  const provider = typeof global.getDelegate === 'function' ? global.getDelegate() : global;
  if (provider === noopTracerProvider) return undefined;
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer(name, version) };
  return tracerOf.tracer;
}

/**
 * This package's meter from the registered meter provider; undefined while there is none. Looked
 * up each time: unlike tracers, the API hands out no proxy meter that would follow a provider
 * registered later.
 */
export function meterNow({ api, name, version }: Otel): Api.Meter | undefined {
  const provider = api.metrics.getMeterProvider();
  if (meterOf?.provider !== provider) {
    const meter = provider.getMeter(name, version);
    meterOf = { provider, meter: meter === noopMeter ? undefined : meter };
  }
  return meterOf.meter;
}
