// OpenTelemetry, when the application has it: this package's tracer and meter on the providers the
// application registered, looked up at each use (so one registered after this package loaded is
// seen). While none is registered, nothing is created, not even a no-op span. `@opentelemetry/api`
// itself is an optional peer dependency, loaded by `#otel`: on Node by otel-node.ts, elsewhere not
// at all (otel-none.ts). @pay/client, @pay/webhook and @pay/journal hold the same copy of these
// three files.
import type * as Api from '@opentelemetry/api';
import { otel as loaded } from '#otel';

/** The API, and this package's name and version (the instrumentation scope of what it records). */
export interface Otel {
  readonly api: typeof Api;
  readonly name: string;
  readonly version: string;
}

/** The API when the application installed it (on Node), else undefined. */
export const otel: Otel | undefined = loaded;

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
function meterNow({ api, name, version }: Otel): Api.Meter | undefined {
  const provider = api.metrics.getMeterProvider();
  if (meterOf?.provider !== provider) {
    const meter = provider.getMeter(name, version);
    meterOf = { provider, meter: meter === noopMeter ? undefined : meter };
  }
  return meterOf.meter;
}

/**
 * A function giving the instruments `create` makes on the registered meter provider's meter, made
 * once per meter (a provider registered later gets its own); undefined while there is none.
 */
export function instrumentsOn<T>(create: (meter: Api.Meter) => T): (o: Otel) => T | undefined {
  let made: { meter: Api.Meter; instruments: T } | undefined;
  return (o) => {
    const meter = meterNow(o);
    if (meter === undefined) return undefined;
    if (made?.meter !== meter) made = { meter, instruments: create(meter) };
    return made.instruments;
  };
}
