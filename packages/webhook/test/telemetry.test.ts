// OpenTelemetry end to end: webhooks sent over real HTTP to each adapter in its real framework,
// recorded through the providers the application registered (the SDK, exporting to memory). A
// processed webhook whose handler's own span nests under the webhook's, a duplicate, a refused
// one with its reason, a handler that throws; the span under an HTTP server's span; and nothing
// secret (the secret, a signature, the body) anywhere in what was recorded.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent, WebhookHandlerOptions } from '../src/index.js';
import * as onNode from '../src/node/index.js';
import { harnesses } from './harnesses.js';
import { type Point, type ReadableSpan, type Recorded, recordedText, registerOtel } from '@pay/test-otel';

const merchantId = 'm_otel';
const secret = 'sk_otel_webhook-s3cr3t';
const url = 'https://shop.example/webhooks/pay';
const note = 'private note in the body';
/** Every signature sent, for the secrets scan. */
const signatures: string[] = [];

function signed(payload: Record<string, unknown>, key = secret) {
  const body = JSON.stringify({ ...payload, note });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', key).update(`${merchantId}${timestamp}POST${url}${body}`).digest('hex');
  signatures.push(signature);
  const headers = { 'content-type': 'application/json', 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature };
  return { method: 'POST', headers, body };
}

let otel: Recorded;
const collected: Point[] = [];
beforeAll(() => {
  otel = registerOtel();
});
afterAll(() => otel.close());

async function points(): Promise<Point[]> {
  const got = await otel.points();
  collected.push(...got);
  return got;
}
const webhookSpans = (id: string) => otel.spans().filter((s) => s.attributes['pay.transaction.id'] === id);
const childrenOf = (span: ReadableSpan) => otel.spans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);

describe.each(harnesses)('$name', (harness) => {
  const id = `pi_otel_${harness.name.replace(/\W/g, '_')}`;
  const shop = trace.getTracer('shop');
  let failNext = false;
  const handler = async (event: WebhookEvent) => {
    // The merchant's own span, made the usual way: it is a child of whatever is active.
    await shop.startActiveSpan('orders.update', async (span) => {
      span.setAttribute('order.status', event.status);
      span.end();
    });
    if (failNext) {
      failNext = false;
      throw new Error('database unavailable');
    }
  };
  const options: WebhookHandlerOptions = { merchantId, secret, url, handler, onRefused: () => {} };
  let server: { base: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await harness.start(new Map([['/webhooks/pay', options]]));
  });
  afterAll(() => server.close());
  const post = (request: ReturnType<typeof signed>) => fetch(`${server.base}/webhooks/pay`, request);

  it("processed: a span named for the route, the verdict and the event's id and status; the handler's span is its child", async () => {
    await points();
    const response = await post(signed({ id, status: 'executed' }));
    expect(response.status).toBe(200);
    const [span, ...more] = webhookSpans(id);
    expect(more).toEqual([]);
    expect(span!.name).toBe('POST /webhooks/pay');
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/webhooks/pay',
      'pay.transaction.id': id,
      'pay.transaction.status': 'executed',
      'pay.webhook.verdict': 'processed',
      'http.response.status_code': 200,
    });
    expect(childrenOf(span!).map((s) => [s.name, s.attributes['order.status'], s.spanContext().traceId])).toEqual([
      ['orders.update', 'executed', span!.spanContext().traceId],
    ]);
    expect(await points()).toEqual([
      {
        name: 'pay.webhook.received',
        attributes: { 'pay.webhook.verdict': 'processed', 'http.response.status_code': 200, 'http.route': '/webhooks/pay' },
        value: 1,
      },
    ]);
  });

  it('the same delivery again: duplicate, the handler not run', async () => {
    const response = await post(signed({ id, status: 'executed' }));
    expect(response.status).toBe(200);
    const spans = webhookSpans(id);
    expect(spans.map((s) => s.attributes['pay.webhook.verdict'])).toEqual(['processed', 'duplicate']);
    expect(childrenOf(spans[1]!)).toEqual([]);
  });

  it('refused: its reason, the status answered, nothing from the unverified request', async () => {
    await points();
    const before = otel.spans().length;
    const response = await post(signed({ id: `${id}_forged`, status: 'executed' }, 'sk_guessed'));
    expect(response.status).toBe(401);
    const spans = otel.spans().slice(before);
    expect(spans.map((s) => [s.name, s.attributes, s.status.code])).toEqual([
      [
        'POST /webhooks/pay',
        {
          'http.request.method': 'POST',
          'http.route': '/webhooks/pay',
          'pay.webhook.verdict': 'refused',
          'http.response.status_code': 401,
          'pay.webhook.reason': 'bad_signature',
          'error.type': 'bad_signature',
        },
        SpanStatusCode.UNSET, // the caller's error, not the receiver's
      ],
    ]);
    expect((await points()).map((p) => [p.name, p.attributes['pay.webhook.verdict'], p.attributes['pay.webhook.reason'], p.value])).toEqual(
      [['pay.webhook.received', 'refused', 'bad_signature', 1]],
    );
  });

  it("the handler throws: failed, handler_failed, an error on the receiver's side", async () => {
    failNext = true;
    const response = await post(signed({ id, status: 'failed' }));
    expect(response.status).toBe(500);
    const span = webhookSpans(id).find((s) => s.attributes['pay.transaction.status'] === 'failed')!;
    expect(span.attributes).toMatchObject({
      'pay.webhook.verdict': 'failed',
      'pay.webhook.reason': 'handler_failed',
      'error.type': 'handler_failed',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(childrenOf(span).map((s) => s.name)).toEqual(['orders.update']);
  });
});

describe.each(harnesses.filter((h) => h.name === 'express' || h.name === 'fastify'))('$name route templates', (harness) => {
  it("the framework's route template names the span, never the path with its values", async () => {
    const options: WebhookHandlerOptions = { merchantId, secret, url, handler: () => {}, onRefused: () => {} };
    const server = await harness.start(new Map([['/hooks/:shop/pay', options]]));
    try {
      const id = `pi_otel_route_${harness.name}`;
      expect((await fetch(`${server.base}/hooks/shop-77/pay`, signed({ id, status: 'new' }))).status).toBe(200);
      expect(webhookSpans(id).map((s) => [s.name, s.attributes['http.route']])).toEqual([['POST /hooks/:shop/pay', '/hooks/:shop/pay']]);
    } finally {
      await server.close();
    }
  });
});

describe('inside an HTTP server', () => {
  let server: Server;
  let base: string;
  const http = trace.getTracer('http-server');
  beforeAll(async () => {
    const onWebhook = onNode.webhookHandler({ merchantId, secret, url, handler: () => {}, onRefused: () => {} });
    // What an HTTP server instrumentation does: a span per request, active while it is handled.
    server = createServer((req, res) => {
      const span = http.startSpan('POST', { kind: SpanKind.SERVER });
      res.on('finish', () => span.end());
      context.with(trace.setSpan(context.active(), span), () => void onWebhook(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("the webhook's span is a child of the server's", async () => {
    expect((await fetch(`${base}/webhooks/pay`, signed({ id: 'pi_otel_nested', status: 'new' }))).status).toBe(200);
    const [span] = webhookSpans('pi_otel_nested');
    const parent = otel.spans().find((s) => s.spanContext().spanId === span!.parentSpanContext?.spanId);
    expect(parent?.kind).toBe(SpanKind.SERVER);
  });
});

it('records nothing secret: no secret, signature or body value in any span, event or data point', async () => {
  collected.push(...(await otel.points()));
  const text = recordedText(otel.spans(), collected);
  expect(otel.spans().length).toBeGreaterThan(10);
  expect(signatures.length).toBeGreaterThan(10);
  for (const value of [secret, note, ...signatures]) expect(text.filter((t) => t.includes(value))).toEqual([]);
});
