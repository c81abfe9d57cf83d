// What a call tells OpenTelemetry, derived from the same events as the hooks (observe.ts hands
// each event to both): a span per call named for its endpoint (`POST /v2/merchants/payins/`), a
// child span per HTTP request, events for retries and reconciliation steps, and the outcome; the
// duration of each HTTP request, and counters of retries and of reconciliations. All of it only
// while the application has registered a tracer or meter provider: otherwise a call runs exactly as
// it would without this file. Nothing secret goes in: no header (the signature), no body (personal
// and card data), never the secret, and a card-push address only with its token masked.
import type { Attributes, Context, Counter, Histogram, Span, Tracer } from '@opentelemetry/api';
import type { Endpoint } from '@pay/schema';
import type { AttemptTelemetry, Call, CallTelemetry } from './call-types.js';
import { OutcomeUnknownError, PayError } from './errors.js';
import type { Request } from './exchange.js';
import type { ReconcileEvent, RetryEvent } from './hooks.js';
import { instrumentsOn, type Otel, otel, tracerNow } from './otel.js';
import { pushTemplate } from './urls.js';

interface Instruments {
  readonly duration: Histogram;
  readonly retries: Counter;
  readonly reconciliations: Counter;
}

// The semantic conventions' boundaries for HTTP durations, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const ENDED_RECONCILIATION = new Set<ReconcileEvent['step']>(['found', 'resend', 'unknown']);

/** The client's instruments on the registered meter provider's meter; undefined while there is none. */
const instrumentsNow = instrumentsOn<Instruments>((meter) => ({
  duration: meter.createHistogram('http.client.request.duration', {
    unit: 's',
    description: 'Duration of HTTP client requests.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  }),
  retries: meter.createCounter('pay.client.retries', {
    unit: '{retry}',
    description: 'Requests about to be sent again after a failure that allows it, by reason.',
  }),
  reconciliations: meter.createCounter('pay.client.reconciliations', {
    unit: '{reconciliation}',
    description:
      'Creates whose answer was lost or refused, by how settling them ended: found, resend (proven not created, sent again) or unknown (OutcomeUnknownError).',
  }),
}));

/** Host and port of an absolute URL, as `server.address` and `server.port`. */
function serverOf(url: string): { address: string; port: number } {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return { address: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * The path template of a request (`url.template`): the interface's, under the path of the address
 * it is called on; a card push's from its address, the token as `{token}`.
 */
function templateOf(call: Call, endpoint: Endpoint, url: string): string | undefined {
  if (endpoint.base === 'card_proxy_url') return pushTemplate(url);
  const base = call.settings.baseUrl;
  const path = base.indexOf('/', base.indexOf('//') + 2);
  return (path < 0 ? '' : base.slice(path)) + endpoint.path;
}

/**
 * Runs a call, recorded when a provider is registered: its span is a child of the caller's active
 * context and is the active one while the call runs (the hooks' logs correlate with it).
 */
export function observeCall<T>(call: Call, endpoint: Endpoint, url: string, run: () => Promise<T>): Promise<T> {
  if (otel === undefined) return run();
  const tracer = tracerNow(otel);
  const instruments = instrumentsNow(otel);
  if (tracer === undefined && instruments === undefined) return run();
  const observer = new CallObserver(otel, tracer, instruments, call, endpoint, url);
  if (observer.span === undefined && instruments === undefined) return run(); // sampled out, no metrics
  call.telemetry = observer;
  if (observer.span === undefined) return run();
  return otel.api.context.with(observer.context, run).then(
    (result) => {
      observer.succeeded(result);
      return result;
    },
    (error: unknown) => {
      observer.failed(error);
      throw error;
    },
  );
}

class CallObserver implements CallTelemetry {
  /** The call's span, when it is recorded. */
  readonly span: Span | undefined;
  /** Where the call's requests are parented: its span's context, or the caller's. */
  readonly context: Context;
  private readonly server: { address: string; port: number };

  constructor(
    private readonly o: Otel,
    private readonly tracer: Tracer | undefined,
    private readonly instruments: Instruments | undefined,
    private readonly call: Call,
    endpoint: Endpoint,
    url: string,
  ) {
    const { api } = o;
    const caller = api.context.active();
    this.server = serverOf(url);
    let span: Span | undefined;
    if (tracer !== undefined) {
      const template = templateOf(call, endpoint, url);
      const attributes: Attributes = {
        'pay.operation': call.operation,
        'http.request.method': endpoint.method,
        'server.address': this.server.address,
        'server.port': this.server.port,
      };
      if (template !== undefined) attributes['url.template'] = template;
      if (call.referenceId !== undefined) attributes['pay.reference_id'] = call.referenceId;
      span = tracer.startSpan(spanName(endpoint.method, template), { kind: api.SpanKind.INTERNAL, attributes }, caller);
      if (!span.isRecording()) span = undefined;
    }
    this.span = span;
    this.context = span === undefined ? caller : api.trace.setSpan(caller, span);
  }

  attempt(request: Request, attempt: number): AttemptTelemetry {
    const template = templateOf(this.call, request.endpoint, request.url);
    let span: Span | undefined;
    if (this.span !== undefined && this.tracer !== undefined) {
      const attributes: Attributes = {
        'http.request.method': request.method,
        'server.address': this.server.address,
        'server.port': this.server.port,
        // The address as the hooks show it: a card push's token masked.
        'url.full': request.shownUrl ?? request.url,
        'pay.attempt': attempt,
      };
      if (template !== undefined) attributes['url.template'] = template;
      span = this.tracer.startSpan(spanName(request.method, template), { kind: this.o.api.SpanKind.CLIENT, attributes }, this.context);
    }
    return new AttemptObserver(this.o, span, this.context, this.instruments, request.method, this.server, template);
  }

  retry(event: RetryEvent): void {
    this.span?.addEvent('pay.retry', {
      'pay.attempt': event.attempt,
      'pay.retry.reason': event.reason,
      'pay.retry.delay_ms': event.delayMs,
    });
    this.instruments?.retries.add(1, { 'pay.operation': event.operation, 'pay.retry.reason': event.reason });
  }

  reconcile(event: ReconcileEvent): void {
    if (this.span !== undefined) {
      const attributes: Attributes = { 'pay.reconcile.step': event.step, 'pay.reconcile.reason': event.reason };
      if (event.delayMs !== undefined) attributes['pay.reconcile.delay_ms'] = event.delayMs;
      this.span.addEvent('pay.reconcile', attributes);
    }
    if (ENDED_RECONCILIATION.has(event.step)) {
      this.instruments?.reconciliations.add(1, { 'pay.operation': event.operation, 'pay.reconcile.step': event.step });
    }
  }

  /** The call resolved: a create's result (created or reconciled), a lookup's or a push's. */
  succeeded(result: unknown): void {
    const span = this.span!;
    const { reconciled, response } = result as { reconciled?: boolean; response: { status: number } };
    const outcome =
      reconciled === undefined ? (this.call.operation === 'payins.pushCard' ? 'accepted' : 'found') : reconciled ? 'reconciled' : 'created';
    span.setAttributes({ 'pay.outcome': outcome, 'http.response.status_code': response.status, 'pay.attempts': this.call.attempts });
    span.end();
  }

  /** The call threw: an OutcomeUnknownError (outcome `unknown`), another error, or the caller's abort. */
  failed(error: unknown): void {
    const span = this.span!;
    const aborted = !(error instanceof PayError) && this.call.signal?.aborted === true;
    const type = error instanceof PayError ? error.name : aborted ? 'aborted' : error instanceof Error ? error.name : 'Error';
    const outcome = error instanceof OutcomeUnknownError ? 'unknown' : aborted ? 'aborted' : 'failed';
    span.setAttributes({ 'pay.outcome': outcome, 'error.type': type, 'pay.attempts': this.call.attempts });
    if (error instanceof PayError && error.response !== undefined) span.setAttribute('http.response.status_code', error.response.status);
    if (error instanceof OutcomeUnknownError) span.setAttribute('pay.decidable_at', error.decidableAt.toISOString());
    span.setStatus({ code: this.o.api.SpanStatusCode.ERROR });
    span.end();
  }
}

class AttemptObserver implements AttemptTelemetry {
  constructor(
    private readonly o: Otel,
    private readonly span: Span | undefined,
    private readonly parent: Context,
    private readonly instruments: Instruments | undefined,
    private readonly method: string,
    private readonly server: { address: string; port: number },
    private readonly template: string | undefined,
  ) {}

  send<T>(exchange: (request: Request) => T, request: Request): T {
    if (this.span === undefined) return exchange(request);
    const { context, trace } = this.o.api;
    return context.with(trace.setSpan(this.parent, this.span), exchange, undefined, request);
  }

  end(status: number | undefined, failure: string | undefined, durationMs: number): void {
    // As the semantic conventions have it: an answer of 400 or more is an error of the request,
    // its status as the type.
    const errorType = failure ?? (status !== undefined && status >= 400 ? String(status) : undefined);
    const { span, instruments } = this;
    if (span !== undefined) {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: this.o.api.SpanStatusCode.ERROR });
      }
      span.end();
    }
    if (instruments !== undefined) {
      const attributes: Attributes = {
        'http.request.method': this.method,
        'server.address': this.server.address,
        'server.port': this.server.port,
      };
      if (this.template !== undefined) attributes['url.template'] = this.template;
      if (status !== undefined) attributes['http.response.status_code'] = status;
      if (errorType !== undefined) attributes['error.type'] = errorType;
      instruments.duration.record(durationMs / 1000, attributes);
    }
  }
}

/** `{method} {url.template}`, or the method alone when the template is not known. */
function spanName(method: string, template: string | undefined): string {
  return template === undefined ? method : `${method} ${template}`;
}
