// OpenTelemetry through the SDK's in-memory exporters, registered as an application registers
// them: the journal's spans (a create, recover(), a reconciler pass) with the client's requests
// and the merchant's handler nested inside, the webhook's span from @pay/webhook holding the
// journal's event, the counters derived from the reports; nothing recorded once the providers are
// gone; and never a secret, an amount or a customer's data in any of it. Against
// the real sandbox, on PGlite (the telemetry does not depend on the database).
import type { PGlite } from '@electric-sql/pglite';
import { metrics, trace } from '@opentelemetry/api';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Journal, openJournal, ReferenceConflictError } from '../src/index.js';
import { type ReadableSpan, type Recorded, recordedText, registerOtel } from '@pay/test-otel';
import { freshPGlite } from './helpers/backends.js';
import { judgedExactlyOnce } from './helpers/oracle.js';
import { MERCHANT, payinBody, shopClient, startReceiver, startShopSandbox } from './helpers/shop.js';

let sandbox: RunningSandbox;
let database: PGlite;
let journal: Journal;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let otel: Recorded;
let down = false;
/** A webhook_url nothing listens on: the sandbox's attempts fail, and nothing reaches the journal by webhook. */
const NOWHERE = 'http://127.0.0.1:9/none';
/** Whatever the handler saw as the active span when it ran, by transaction id and status. */
const handlerSpans = new Map<string, string | undefined>();

let schemas = 0;

beforeAll(async () => {
  sandbox = await startShopSandbox();
  database = await freshPGlite();
  receiver = await startReceiver(
    () => journal,
    () => down,
  );
});
afterAll(async () => {
  await otel?.close();
  await receiver?.close();
  await database?.close();
  await sandbox?.close();
});
// Each test on a service and a journal of its own (a fresh schema), so no test sees another's transactions.
beforeEach(async () => {
  await otel?.close();
  await sandbox.admin.reset();
  journal = await openJournal({
    client: shopClient(sandbox.url),
    database,
    schema: `otel_${++schemas}`,
    inFlightLeaseMs: 60_000,
    handler: async (event) => {
      handlerSpans.set(`${event.id} ${event.status}`, trace.getActiveSpan()?.spanContext().spanId);
    },
  });
  otel = registerOtel();
  down = false;
  handlerSpans.clear();
});
judgedExactlyOnce(() => sandbox);

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const sum = (points: Awaited<ReturnType<Recorded['points']>>, name: string, attributes: Record<string, unknown>) =>
  points
    .filter((p) => p.name === name && Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))
    .reduce((total, p) => total + p.value, 0);

/** Waits until the sandbox has answered `count` deliveries to the receiver with a 2xx. */
async function delivered(id: string, count: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ok = (await sandbox.admin.deliveries(id)).filter((a) => a.response_status !== null && a.response_status < 300);
    if (ok.length >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${id}: fewer than ${count} deliveries answered 2xx`);
}

it('a create is one span with the client request inside it, the handler under it, and the event on it; a replay sends nothing', async () => {
  const reference = 'order-otel-Ünïcode-Jane-Doe';
  // Its webhooks go nowhere: the create's answer alone records `new` (a webhook could beat it).
  const created = await journal.payins.create(payinBody(reference, '12.34', NOWHERE));
  const replay = await journal.payins.create(payinBody(reference, '12.34', NOWHERE));
  expect(replay.replayed).toBe(true);

  const spans = otel.spans();
  const [first, second] = named(spans, 'journal payins.create');
  expect(first).toBeDefined();
  expect(second).toBeDefined();
  expect(first!.attributes).toMatchObject({
    'pay.transaction.kind': 'payin',
    'pay.transaction.id': created.transaction.id,
    'pay.transaction.status': 'new',
    'pay.journal.replayed': false,
  });
  expect(second!.attributes).toMatchObject({ 'pay.transaction.id': created.transaction.id, 'pay.journal.replayed': true });
  // The client's call span (and its HTTP request) nests in the first; the replay sent nothing.
  const calls = named(spans, 'POST /v2/merchants/payins/').filter((s) => parentOf(s) === first!.spanContext().spanId);
  expect(calls).toHaveLength(1);
  expect(spans.filter((s) => parentOf(s) === second!.spanContext().spanId)).toEqual([]);
  // The handler ran inside the create's span; the event recorded is an event of that span.
  expect(handlerSpans.get(`${created.transaction.id} new`)).toBe(first!.spanContext().spanId);
  expect(first!.events.map((e) => [e.name, e.attributes])).toEqual([
    [
      'pay.journal.event',
      {
        'pay.transaction.kind': 'payin',
        'pay.transaction.id': created.transaction.id,
        'pay.reference_id': reference,
        'pay.transaction.status': 'new',
        'pay.journal.source': 'create',
        'pay.journal.outcome': 'change',
      },
    ],
  ]);
  const points = await otel.points();
  expect(sum(points, 'pay.journal.events', { 'pay.journal.source': 'create', 'pay.journal.outcome': 'change' })).toBe(1);
  // Counters carry no per-transaction attribute.
  for (const p of points.filter((p) => p.name.startsWith('pay.journal.'))) expect(p.attributes['pay.transaction.id']).toBeUndefined();
});

it('a conflicting create ends its span in error, named for the error, and sends nothing', async () => {
  const reference = 'order-otel-conflict';
  await journal.payins.create(payinBody(reference, '5.00', receiver.url));
  const before = (await sandbox.admin.transactions()).length;
  await expect(journal.payins.create(payinBody(reference, '6.00', receiver.url))).rejects.toBeInstanceOf(ReferenceConflictError);
  expect((await sandbox.admin.transactions()).length).toBe(before);
  const [, refused] = named(otel.spans(), 'journal payins.create');
  expect(refused!.attributes['error.type']).toBe('ReferenceConflictError');
  expect(refused!.status.code).toBe(2); // SpanStatusCode.ERROR
});

it("a webhook's span from @pay/webhook holds the journal's event; the handler runs under it", async () => {
  const created = await journal.payins.create(payinBody('order-otel-webhook', '7.00', receiver.url));
  await delivered(created.transaction.id, 1);
  await otel.points(); // counted so far: the create and its `new` webhook (a change or a duplicate, by which came first)
  await sandbox.admin.setStatus('payin', created.transaction.id, 'executed');
  await delivered(created.transaction.id, 2);

  const hooks = named(otel.spans(), 'POST /webhooks/pay').filter((s) => s.attributes['pay.transaction.status'] === 'executed');
  expect(hooks).toHaveLength(1);
  expect(hooks[0]!.events.map((e) => e.attributes?.['pay.journal.outcome'])).toEqual(['change']);
  expect(hooks[0]!.events[0]!.attributes?.['pay.journal.source']).toBe('webhook');
  expect(handlerSpans.get(`${created.transaction.id} executed`)).toBe(hooks[0]!.spanContext().spanId);
  const points = await otel.points();
  expect(sum(points, 'pay.journal.events', { 'pay.journal.source': 'webhook', 'pay.journal.outcome': 'change' })).toBe(1);
  expect(sum(points, 'pay.journal.events', {})).toBe(1);
});

it('recover() and a reconciler pass are spans with their counts; each lookup is an event and a count', async () => {
  down = true; // the receiver misses every webhook: only a lookup can find the change
  const created = await journal.payins.create(payinBody('order-otel-reconcile', '9.99', receiver.url));
  await sandbox.admin.setStatus('payin', created.transaction.id, 'executed');
  await sandbox.admin.advance(2 * 60 * 60);
  // Due at once on the journal's clock (the schedule is not what this test judges).
  const summary = await journal.reconciler({ firstCheckMs: 1, lookupsPerSecond: 200 }).runOnce();
  expect(summary).toMatchObject({ checked: 1, changed: 1 });

  const spans = otel.spans();
  const [pass] = named(spans, 'journal reconcile');
  expect(pass!.attributes).toMatchObject({ 'pay.journal.reconcile.checked': 1, 'pay.journal.reconcile.changed': 1 });
  const [recover] = named(spans, 'journal recover');
  expect(parentOf(recover!)).toBe(pass!.spanContext().spanId);
  expect(recover!.attributes).toMatchObject({ 'pay.journal.recovery.created': 0, 'pay.journal.recovery.waiting': 0 });
  // The lookup is the client's span inside the pass; the check and the event it found are the pass's events.
  const lookups = spans.filter((s) => s.name.startsWith('GET ') && parentOf(s) === pass!.spanContext().spanId);
  expect(lookups).toHaveLength(1);
  expect(pass!.events.map((e) => [e.name, e.attributes?.['pay.journal.outcome'] ?? e.attributes?.['pay.journal.check.result']])).toEqual([
    ['pay.journal.event', 'change'],
    ['pay.journal.check', 'changed'],
  ]);
  expect(handlerSpans.get(`${created.transaction.id} executed`)).toBe(pass!.spanContext().spanId);
  const points = await otel.points();
  expect(sum(points, 'pay.journal.checks', { 'pay.journal.check.result': 'changed' })).toBe(1);
  expect(sum(points, 'pay.journal.events', { 'pay.journal.source': 'reconciler', 'pay.journal.outcome': 'change' })).toBe(1);
});

it('records nothing once the providers are gone, and the journal works the same', async () => {
  trace.disable();
  metrics.disable();
  const created = await journal.payins.create(payinBody('order-otel-none', '1.00', receiver.url));
  expect(created.replayed).toBe(false);
  await journal.recover();
  expect(otel.spans()).toEqual([]);
  expect(await otel.points()).toEqual([]);
});

it('never records a secret, an amount or customer data', async () => {
  const reference = 'order-otel-secret-Ärger';
  const body = payinBody(reference, '4321.98', receiver.url);
  const created = await journal.payins.create(body);
  await delivered(created.transaction.id, 1);
  await journal.payins.create(payinBody(reference, '1.23', receiver.url)).catch(() => {});
  await journal.recover();
  const text = recordedText(otel.spans(), await otel.points()).join('\n');
  expect(text).toContain(created.transaction.id); // something was recorded at all
  for (const forbidden of [MERCHANT.secret, '4321.98', '1.23', body.customer.email, body.customer.first_name, body.customer.last_name]) {
    expect(text).not.toContain(forbidden);
  }
});
