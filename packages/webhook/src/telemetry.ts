// What a webhook tells OpenTelemetry, derived from the pipeline's verdict (core.ts): a span per
// webhook received, named for its route (`POST /webhooks/pay`), inside which the merchant's
// handler runs (so the handler's own spans nest under it), ending with the verdict (processed,
// duplicate, refused or failed, and why); and a counter of webhooks by verdict and reason. All of
// it only while the application has registered a tracer or meter provider. Nothing from the
// request goes in before its signature is verified, and never a header (the signature), the body
// or the secret: a verified event adds only its transaction id and status.
import type { Attributes, Context, Counter, Span } from '@opentelemetry/api';
import { instrumentsOn, type Otel, otel, tracerNow } from './otel.js';
import type { WebhookEvent } from './parse-payload.js';
import type { Verdict } from './refusals.js';

/** A webhook being recorded. */
export interface WebhookTelemetry {
  /** The merchant's handler, run inside the webhook's span. */
  handler(handler: (event: WebhookEvent) => unknown): (event: WebhookEvent) => unknown;
  /** The signature and payload checked out: this is the event. */
  verified(event: WebhookEvent): void;
  /** The pipeline's verdict, and the status answered. */
  end(verdict: Verdict, status: number): void;
  /** The pipeline failed unexpectedly (a broken connection or a bug); the adapter answers 500. */
  crashed(error: unknown): void;
}

const METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** The webhook counter on the registered meter provider's meter; undefined while there is none. */
const counterNow = instrumentsOn((meter) =>
  meter.createCounter('pay.webhook.received', {
    unit: '{webhook}',
    description: 'Webhooks received, by verdict (processed, duplicate, refused, failed) and reason.',
  }),
);

/**
 * Starts recording a webhook received with `method` on `route` (the route template, when known);
 * undefined when nothing is recorded. The span is a child of the active context (an HTTP server
 * instrumentation's span, when there is one).
 */
export function observeWebhook(method: string, route: string | undefined): WebhookTelemetry | undefined {
  if (otel === undefined) return undefined;
  const tracer = tracerNow(otel);
  const counter = counterNow(otel);
  if (tracer === undefined && counter === undefined) return undefined;
  let span: Span | undefined;
  if (tracer !== undefined) {
    const known = method.toUpperCase();
    const name = METHODS.has(known) ? known : '_OTHER';
    const attributes: Attributes = { 'http.request.method': name };
    if (route !== undefined) attributes['http.route'] = route;
    span = tracer.startSpan(route === undefined ? name : `${name} ${route}`, { kind: otel.api.SpanKind.INTERNAL, attributes });
    if (!span.isRecording()) span = undefined;
  }
  if (span === undefined && counter === undefined) return undefined;
  return new WebhookObserver(otel, span, counter, route);
}

class WebhookObserver implements WebhookTelemetry {
  private readonly context: Context | undefined;

  constructor(
    private readonly o: Otel,
    private readonly span: Span | undefined,
    private readonly counter: Counter | undefined,
    private readonly route: string | undefined,
  ) {
    this.context = span && o.api.trace.setSpan(o.api.context.active(), span);
  }

  handler(handler: (event: WebhookEvent) => unknown): (event: WebhookEvent) => unknown {
    const { context } = this;
    if (context === undefined) return handler;
    return (event) => this.o.api.context.with(context, handler, undefined, event);
  }

  verified(event: WebhookEvent): void {
    this.span?.setAttributes({ 'pay.transaction.id': event.id, 'pay.transaction.status': event.status });
  }

  end(verdict: Verdict, status: number): void {
    const reason = verdict.kind === 'refused' || verdict.kind === 'failed' ? verdict.reason : undefined;
    const { span, counter } = this;
    if (span !== undefined) {
      span.setAttributes({ 'pay.webhook.verdict': verdict.kind, 'http.response.status_code': status });
      if (reason !== undefined) span.setAttributes({ 'pay.webhook.reason': reason, 'error.type': reason });
      // As for HTTP servers: a 5xx is the receiver's error; a 4xx is the caller's.
      if (status >= 500) span.setStatus({ code: this.o.api.SpanStatusCode.ERROR });
      span.end();
    }
    if (counter !== undefined) {
      const attributes: Attributes = { 'pay.webhook.verdict': verdict.kind, 'http.response.status_code': status };
      if (reason !== undefined) attributes['pay.webhook.reason'] = reason;
      if (this.route !== undefined) attributes['http.route'] = this.route;
      counter.add(1, attributes);
    }
  }

  crashed(error: unknown): void {
    const type = error instanceof Error ? error.name : 'Error';
    if (this.span !== undefined) {
      this.span.setAttributes({ 'pay.webhook.verdict': 'failed', 'error.type': type });
      this.span.setStatus({ code: this.o.api.SpanStatusCode.ERROR });
      this.span.end();
    }
    const attributes: Attributes = { 'pay.webhook.verdict': 'failed', 'error.type': type };
    if (this.route !== undefined) attributes['http.route'] = this.route;
    this.counter?.add(1, attributes);
  }
}
