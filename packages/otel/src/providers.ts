// A package's tracer and meter on the providers the application registered, looked up at each use
// (so one registered after the package loaded is seen). While none is registered, nothing is
// created, not even a no-op span. Each package's scope keeps its own tracer and meter: the
// client's spans are the client's, the journal's the journal's.
import type * as Api from '@opentelemetry/api';
import type { Otel } from './otel.js';

/** What one scope found last, so a tracer or meter is asked for once per provider. */
interface Found {
  tracer?: { provider: Api.TracerProvider; tracer: Api.Tracer };
  meter?: { provider: Api.MeterProvider; meter: Api.Meter | undefined };
}

// What the providers are when nobody registered one: the no-op ones, never asked for anything.
// One entry per copy of the API (there is one unless an application bundles a second).
const noops = new WeakMap<Otel['api'], { tracerProvider: Api.TracerProvider; meter: Api.Meter }>();
const found = new WeakMap<Otel, Found>();

function noopsOf(api: Otel['api']): { tracerProvider: Api.TracerProvider; meter: Api.Meter } {
  let n = noops.get(api);
  if (n === undefined) {
    n = { tracerProvider: new api.ProxyTracerProvider().getDelegate(), meter: api.createNoopMeter() };
    noops.set(api, n);
  }
  return n;
}

function foundOf(o: Otel): Found {
  let f = found.get(o);
  if (f === undefined) {
    f = {};
    found.set(o, f);
  }
  return f;
}

/** The scope's tracer from the registered tracer provider; undefined while there is none. */
export function tracerNow(o: Otel): Api.Tracer | undefined {
  const { api, name, version } = o;
  // The global one is a proxy; what it delegates to is the application's provider, or the no-op one.
  const global = api.trace.getTracerProvider() as Api.TracerProvider & { getDelegate?: () => Api.TracerProvider };
  const provider = typeof global.getDelegate === 'function' ? global.getDelegate() : global;
  if (provider === noopsOf(api).tracerProvider) return undefined;
  const f = foundOf(o);
  if (f.tracer?.provider !== provider) f.tracer = { provider, tracer: provider.getTracer(name, version) };
  return f.tracer.tracer;
}

/**
 * The scope's meter from the registered meter provider; undefined while there is none. Looked up
 * each time: unlike tracers, the API hands out no proxy meter that would follow a provider
 * registered later.
 */
function meterNow(o: Otel): Api.Meter | undefined {
  const { api, name, version } = o;
  const provider = api.metrics.getMeterProvider();
  const f = foundOf(o);
  if (f.meter?.provider !== provider) {
    const meter = provider.getMeter(name, version);
    f.meter = { provider, meter: meter === noopsOf(api).meter ? undefined : meter };
  }
  return f.meter.meter;
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
