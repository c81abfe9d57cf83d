// OpenTelemetry end to end over real HTTP against @pay/sandbox: what the client records through
// the providers the application registered (the SDK, exporting to memory), derived from the same
// events as the hooks. A lost create answer reconciled, a lookup retried after a 500, a create
// whose outcome stays unknown, a card push; the caller's context as the parent; providers
// registered after the client was made, or none; and nothing secret anywhere in what was recorded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOptions, OutcomeUnknownError, type ReconcileEvent, type RequestEvent, type RetryEvent } from '../src/index.js';
import { type Point, type ReadableSpan, type Recorded, recordedText, registerOtel } from '@pay/test-otel';
import { sandboxClient, startTestSandbox } from './helpers/sandbox.js';
import * as bodies from './helpers/server.js';
import { CARD } from './helpers/server.js';

const MERCHANT = { id: 'm_otel', secret: 'sk_otel_s3cr3t-value' };

let sandbox: RunningSandbox;
let receiver: Server;
let webhookUrl: string;
let otel: Recorded;
/** Every data point collected in this file, for the secrets scan. */
const collected: Point[] = [];
/** Every push token and body value the tests sent, for the secrets scan. */
const secrets: string[] = [MERCHANT.secret, CARD.pan];

beforeAll(async () => {
  otel = registerOtel();
  sandbox = await startTestSandbox(MERCHANT);
  // Webhooks go to this receiver, so every delivery stays on loopback.
  receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pay`;
});
afterAll(async () => {
  await otel.close();
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const client = (extra: Partial<ClientOptions> = {}) => sandboxClient(sandbox, MERCHANT, extra);
const fault = async (method: string, path_prefix: string, kind: string) => {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ method, path_prefix, kind, count: 1 }),
  });
  expect(response.status).toBe(200);
};
const payinBody = (o: Record<string, unknown>) => bodies.payinBody({ webhook_url: webhookUrl, ...o });
const payoutBody = (o: Record<string, unknown>) => bodies.payoutBody({ webhook_url: webhookUrl, ...o });

/** The sandbox's host and port, as the URL parser reads them. */
const server = () => ({ 'server.address': '127.0.0.1', 'server.port': Number(new URL(sandbox.url).port) });
/** The call span of `referenceId` (or of the operation), and its request spans in order. */
function callSpan(match: (s: ReadableSpan) => boolean) {
  const calls = otel.spans().filter((s) => s.attributes['pay.operation'] !== undefined && match(s));
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  const requests = otel.spans().filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId);
  return { call, requests, events: call.events.map((e): Record<string, unknown> => ({ name: e.name, ...e.attributes })) };
}
async function points(): Promise<Point[]> {
  const got = await otel.points();
  collected.push(...got);
  return got;
}
const sum = (all: Point[], name: string, attributes: Record<string, unknown>) =>
  all
    .filter((p) => p.name === name && Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
    .reduce((n, p) => n + p.value, 0);

describe('the client records its calls through the registered providers', () => {
  it('a create whose answer is lost and then found: its requests, its reconciliation steps, reconciled; hooks see the same', async () => {
    await points(); // what earlier calls measured is not this test's
    await fault('POST', '/v2/merchants/payouts/', 'drop_after_commit');
    const hooked = { requests: [] as RequestEvent[], reconciles: [] as ReconcileEvent[] };
    const pay = client({ hooks: { onRequest: (e) => hooked.requests.push(e), onReconcile: (e) => hooked.reconciles.push(e) } });
    const result = await pay.payouts.create(payoutBody({ reference_id: 'otel-lost' }) as never);
    expect(result.reconciled).toBe(true);

    const { call, requests, events } = callSpan((s) => s.attributes['pay.reference_id'] === 'otel-lost');
    expect(call.name).toBe('POST /v2/merchants/payouts/');
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes).toEqual({
      'pay.operation': 'payouts.create',
      'http.request.method': 'POST',
      ...server(),
      'url.template': '/v2/merchants/payouts/',
      'pay.reference_id': 'otel-lost',
      'pay.outcome': 'reconciled',
      'http.response.status_code': 200,
      'pay.attempts': 2,
    });
    expect(call.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(
      requests.map((s) => [s.name, s.kind, s.attributes['http.response.status_code'], s.attributes['error.type'], s.status.code]),
    ).toEqual([
      ['POST /v2/merchants/payouts/', SpanKind.CLIENT, undefined, 'network error', SpanStatusCode.ERROR],
      ['GET /v2/merchants/payouts/?reference_id={reference_id}', SpanKind.CLIENT, 200, undefined, SpanStatusCode.UNSET],
    ]);
    expect(events).toEqual([
      { name: 'pay.reconcile', 'pay.reconcile.step': 'lookup', 'pay.reconcile.reason': 'network error' },
      { name: 'pay.reconcile', 'pay.reconcile.step': 'found', 'pay.reconcile.reason': 'network error' },
    ]);
    // One source: the hooks were told of the same requests and steps.
    expect(requests.map((s) => [s.attributes['http.request.method'], s.attributes['url.full'], s.attributes['pay.attempt']])).toEqual(
      hooked.requests.map((e) => [e.method, e.url, e.attempt]),
    );
    expect(events.map((e) => e['pay.reconcile.step'])).toEqual(hooked.reconciles.map((e) => e.step));

    const measured = await points();
    const durations = (attributes: Record<string, unknown>) =>
      sum(measured, 'http.client.request.duration', { ...server(), ...attributes });
    expect(durations({ 'http.request.method': 'POST', 'url.template': '/v2/merchants/payouts/', 'error.type': 'network error' })).toBe(1);
    expect(
      durations({
        'http.request.method': 'GET',
        'url.template': '/v2/merchants/payouts/?reference_id={reference_id}',
        'http.response.status_code': 200,
      }),
    ).toBe(1);
    expect(sum(measured, 'pay.client.reconciliations', { 'pay.operation': 'payouts.create', 'pay.reconcile.step': 'found' })).toBe(1);
    expect(sum(measured, 'pay.client.retries', {})).toBe(0);
  });

  it('a lookup retried after a 500: the retry with its reason and delay (as the hook saw it), both requests, the counter', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody({ reference_id: 'otel-retried' }) as never);
    await points();
    await fault('GET', `/v2/merchants/payins/${created.data.id}`, 'status_500_after_commit');
    const retries: RetryEvent[] = [];
    const found = await client({ hooks: { onRetry: (e) => retries.push(e) } }).payins.get(created.data.id);
    expect(found.data.id).toBe(created.data.id);

    const { call, requests, events } = callSpan((s) => s.name === 'GET /v2/merchants/payins/{id}');
    expect(call.attributes).toMatchObject({ 'pay.operation': 'payins.get', 'pay.outcome': 'found', 'http.response.status_code': 200 });
    expect(call.attributes['pay.reference_id']).toBeUndefined();
    expect(requests.map((s) => [s.attributes['http.response.status_code'], s.attributes['error.type']])).toEqual([
      [500, '500'],
      [200, undefined],
    ]);
    expect(retries).toHaveLength(1);
    expect(events).toEqual([
      { name: 'pay.retry', 'pay.attempt': 2, 'pay.retry.reason': 'status 500', 'pay.retry.delay_ms': retries[0]!.delayMs },
    ]);
    // The first backoff: between half and all of 250 ms.
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(125);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(250);
    const measured = await points();
    expect(sum(measured, 'pay.client.retries', { 'pay.operation': 'payins.get', 'pay.retry.reason': 'status 500' })).toBe(1);
    expect(sum(measured, 'http.client.request.duration', { 'url.template': '/v2/merchants/payins/{id}', 'error.type': '500' })).toBe(1);
  });

  it('a create whose outcome stays unknown: OutcomeUnknownError on the span, with the time it becomes decidable', async () => {
    await points();
    await fault('POST', '/v2/merchants/payins/', 'drop_before_commit');
    const error = await client({ totalTimeoutMs: 1_500 })
      .payins.create(payinBody({ reference_id: 'otel-unknown' }) as never)
      .then(
        () => expect.fail('expected OutcomeUnknownError'),
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OutcomeUnknownError);

    const { call, events } = callSpan((s) => s.attributes['pay.reference_id'] === 'otel-unknown');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({
      'pay.outcome': 'unknown',
      'error.type': 'OutcomeUnknownError',
      'pay.decidable_at': (error as OutcomeUnknownError).decidableAt.toISOString(),
    });
    expect(events[0]).toEqual({ name: 'pay.reconcile', 'pay.reconcile.step': 'lookup', 'pay.reconcile.reason': 'network error' });
    expect(events.at(-1)).toMatchObject({ name: 'pay.reconcile', 'pay.reconcile.step': 'unknown' });
    const measured = await points();
    expect(sum(measured, 'pay.client.reconciliations', { 'pay.operation': 'payins.create', 'pay.reconcile.step': 'unknown' })).toBe(1);
  });

  it('a card push: named by its template, the token masked in the address, accepted', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody({ reference_id: 'otel-push' }) as never);
    if (created.reconciled) throw new Error('expected the create answer');
    const url = created.data.next_action.url;
    const token = /\/v1\/push\/([^/]+)\//.exec(url)![1]!;
    secrets.push(token);
    await pay.payins.pushCard({ payinId: created.data.id, url }, CARD);

    const cardProxyPath = new URL(sandbox.cardProxyUrl).pathname;
    const { call, requests } = callSpan((s) => s.attributes['pay.operation'] === 'payins.pushCard');
    expect(call.name).toBe(`POST ${cardProxyPath}/v1/push/{token}/`);
    expect(call.attributes).toMatchObject({ 'pay.outcome': 'accepted', 'url.template': `${cardProxyPath}/v1/push/{token}/` });
    expect(requests.map((s) => s.attributes['url.full'])).toEqual([`${sandbox.cardProxyUrl}/v1/push/***/`]);
  });

  it("runs inside the caller's context: the call span is the caller's child, and each request is sent inside its own span", async () => {
    const activeWhenSent: (string | undefined)[] = [];
    const pay = client({
      fetch: (input, init) => {
        activeWhenSent.push(trace.getActiveSpan()?.spanContext().spanId);
        return globalThis.fetch(input, init);
      },
    });
    const checkout = trace.getTracer('shop').startSpan('checkout');
    await context.with(trace.setSpan(context.active(), checkout), () => pay.payouts.getByReference('otel-lost'));
    checkout.end();

    const { call, requests } = callSpan((s) => s.name === 'GET /v2/merchants/payouts/?reference_id={reference_id}');
    expect(call.parentSpanContext?.spanId).toBe(checkout.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(checkout.spanContext().traceId);
    expect(requests).toHaveLength(1);
    expect(activeWhenSent).toEqual([requests[0]!.spanContext().spanId]);
  });

  it('records nothing secret: no secret, card number, push token, signature or body value in any span, event or data point', async () => {
    collected.push(...(await otel.points()));
    const text = recordedText(otel.spans(), collected);
    expect(otel.spans().length).toBeGreaterThan(10);
    const body = payinBody({}) as { customer: { email: string; last_name: string } };
    for (const value of [...secrets, body.customer.email, body.customer.last_name]) {
      expect(text.filter((t) => t.includes(value))).toEqual([]);
    }
    // A signature is 64 hex digits; nothing recorded is.
    expect(text.filter((t) => /[0-9a-f]{64}/i.test(t))).toEqual([]);
  });

  it('follows the providers: a meter provider alone measures; with none nothing is created, not even a no-op span; providers registered later are used', async () => {
    const activeWhenSent: unknown[] = [];
    const pay = client({
      fetch: (input, init) => {
        activeWhenSent.push(trace.getActiveSpan());
        return globalThis.fetch(input, init);
      },
    });
    // A meter provider alone: the requests are measured, nothing is traced.
    trace.disable(); // the context manager stays: the caller's context still flows
    await points();
    const spansBefore = otel.spans().length;
    await pay.payouts.getByReference('otel-lost');
    expect(otel.spans()).toHaveLength(spansBefore);
    expect(sum(await points(), 'http.client.request.duration', { 'http.response.status_code': 200 })).toBe(1);
    expect(activeWhenSent).toEqual([undefined]);
    activeWhenSent.length = 0;

    metrics.disable();
    // The caller's span, as extracted from an incoming request by an HTTP instrumentation.
    const caller = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
    const found = await context.with(trace.setSpan(context.active(), caller), () => pay.payouts.getByReference('otel-lost'));
    expect(found.data.reference_id).toBe('otel-lost');
    expect(activeWhenSent).toEqual([caller]);

    await otel.close();
    otel = registerOtel(); // after the client was made
    await pay.payouts.getByReference('otel-lost');
    expect(otel.spans().map((s) => s.name)).toEqual([
      'GET /v2/merchants/payouts/?reference_id={reference_id}',
      'GET /v2/merchants/payouts/?reference_id={reference_id}',
    ]);
    expect(sum(await otel.points(), 'http.client.request.duration', { 'http.response.status_code': 200 })).toBe(1);
  });
});
