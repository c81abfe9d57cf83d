// Test helpers. Requests are signed here with node:crypto directly, independently of @pay/sign
// (which the sandbox verifies with), and every answer is checked against the response schemas of
// @pay/schema (or the error body shape) as it arrives.
import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXAMPLES, PayinCreateResponse, PayinLookupResponse, PayoutCreateResponse, PayoutLookupResponse, validate } from '@pay/schema';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../src/index.js';
import type { LoggedRequest } from '../src/request-log.js';
import { Schedule } from '../src/schedule.js';
import { Names } from '../src/names.js';
import { State } from '../src/state.js';
import { Deliveries, type DeliveryAttempt } from '../src/deliveries.js';

export const M1 = { id: 'm_1', secret: 'sk_test_one' };
export const M2 = { id: 'm_2', secret: 'sk_test_two' };

export const hmac = (secret: string, text: string | Buffer) => createHmac('sha256', secret).update(text).digest('hex');
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Starts a sandbox with M1 and M2 unless told otherwise; log lines are collected. */
export async function start(options: StartSandboxOptions = {}): Promise<RunningSandbox & { lines: string[] }> {
  const lines: string[] = [];
  const sandbox = await startSandbox({ merchants: [M1, M2], log: (line) => lines.push(line), ...options });
  return Object.assign(sandbox, { lines });
}

/** A sandbox started by {@link start}. */
export type Started = Awaited<ReturnType<typeof start>>;

/**
 * One sandbox for the whole test file, reset before each test: `use` receives it once it has
 * started (in beforeAll), and it is closed after the file.
 */
export function sandboxForFile(use: (sandbox: Started) => void): void {
  let sandbox: Started | undefined;
  beforeAll(async () => {
    sandbox = await start();
    use(sandbox);
  });
  afterAll(() => sandbox?.close());
  beforeEach(async () => {
    await sandbox!.admin.reset();
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** The response schema an answer must conform to, by method, path and status. */
function schemaFor(method: string, path: string, status: number) {
  if (status !== 200) return undefined;
  if (/^\/card-proxy\/v1\/push\//.test(path)) return PayinLookupResponse;
  if (method === 'POST' && /^\/v[12]\/merchants\/payins\/$/.test(path)) return PayinCreateResponse;
  if (method === 'POST' && path === '/v2/merchants/payouts/') return PayoutCreateResponse;
  if (method === 'GET' && path.startsWith('/v2/merchants/payins/')) return PayinLookupResponse;
  if (method === 'GET' && path.startsWith('/v2/merchants/payouts/')) return PayoutLookupResponse;
  if (method === 'POST' && /^\/_sandbox\/payins\/[^/]+\/(status|resend)$/.test(path)) return PayinLookupResponse;
  if (method === 'POST' && /^\/_sandbox\/payouts\/[^/]+\/(status|resend)$/.test(path)) return PayoutLookupResponse;
  return undefined;
}

/** Checks an answer: its schema when it is a record, the error shape when it is an error. */
export function checkAnswer(method: string, url: string, answer: Answer): void {
  const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
  const schema = schemaFor(method, path, answer.status);
  if (schema) {
    const result = validate(schema, answer.body);
    expect(result.ok ? [] : result.errors, `${method} ${path} answer conforms to ${(schema as { title?: string }).title}`).toEqual([]);
  }
  if (answer.status >= 400 && answer.headers.get('content-type')?.startsWith('application/json')) {
    expect(typeof answer.body?.error?.code, `${method} ${path} ${answer.status} has error.code`).toBe('string');
    expect(typeof answer.body?.error?.message).toBe('string');
  }
  if (answer.status >= 400) expect(answer.text).not.toMatch(/\n\s+at /); // never a stack trace
}

/** Sends a request with fetch and checks the answer. */
export async function call(
  method: string,
  url: string,
  init: { headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {},
): Promise<Answer> {
  const response = await fetch(url, { method, headers: init.headers ?? {}, body: init.body ?? null, redirect: 'manual' });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const answer = { status: response.status, headers: response.headers, text, body };
  checkAnswer(method, url, answer);
  return answer;
}

/** The x-signature headers of a call, computed with node:crypto. */
export function signed(merchant: { id: string; secret: string }, method: string, url: string, body = '', timestamp = nowSeconds()) {
  const signature = hmac(merchant.secret, `${merchant.id}${timestamp}${method}${url}${method === 'GET' ? '' : body}`);
  return { 'x-merchant-id': merchant.id, 'x-timestamp': String(timestamp), 'x-signature': signature };
}

/** A signed JSON POST. */
export function post(url: string, body: unknown, merchant = M1, extra: Record<string, string> = {}): Promise<Answer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return call('POST', url, {
    headers: { 'content-type': 'application/json', ...signed(merchant, 'POST', url, text), ...extra },
    body: text,
  });
}

/** A signed GET. */
export function get(url: string, merchant = M1): Promise<Answer> {
  return call('GET', url, { headers: signed(merchant, 'GET', url) });
}

/** An unsigned admin call (JSON body). */
export function adminCall(sandbox: { url: string }, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(
    method,
    `${sandbox.url}/_sandbox${path}`,
    body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  );
}

/** A card push signed with x-simplified-signature (node:crypto). */
export function push(
  url: string,
  payinId: string,
  card: Record<string, string>,
  merchant = M1,
  timestamp = nowSeconds(),
  signedPayinId = payinId,
): Promise<Answer> {
  const body = JSON.stringify({ payin_id: payinId, card });
  const headers = {
    'content-type': 'application/json',
    'x-merchant-id': merchant.id,
    'x-timestamp': String(timestamp),
    'x-simplified-signature': hmac(merchant.secret, `${merchant.id}${timestamp}${signedPayinId}`),
  };
  return call('POST', url, { headers, body });
}

export const CARD = { ...EXAMPLES.cardPush.card };

/** Where test webhooks go unless told: the discard port, where nothing listens. */
const UNUSED_WEBHOOK = 'http://127.0.0.1:9/unused';

/** A valid create-payin (v2) body: @pay/schema's example, its webhooks sent nowhere. */
export function payinBody(overrides: Record<string, unknown> = {}) {
  return { ...structuredClone(EXAMPLES.createPayin), webhook_url: UNUSED_WEBHOOK, ...overrides };
}

/** A valid legacy create-payin body: @pay/schema's example, its webhooks sent nowhere. */
export function payinV1Body(overrides: Record<string, unknown> = {}) {
  return { ...structuredClone(EXAMPLES.createPayinLegacy), webhook_url: UNUSED_WEBHOOK, ...overrides };
}

/** A valid create-payout body: @pay/schema's example, its webhooks sent nowhere. */
export function payoutBody(overrides: Record<string, unknown> = {}) {
  return { ...structuredClone(EXAMPLES.createPayout), webhook_url: UNUSED_WEBHOOK, ...overrides };
}

/** A webhook as a receiver saw it. */
export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The receiver's answer to it. */
  answered: number;
}

/**
 * A real webhook receiver on loopback. `answer(n)` gives the status for the n-th webhook (1-based)
 * it receives; `next()` resolves with the next webhook (in arrival order, none missed), `next(id)`
 * with the next one about that transaction.
 */
export async function receiver(answer: (n: number, received: Received) => number = () => 200) {
  const all: Received[] = [];
  const inbox: Received[] = [];
  const waiting: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const received: Received = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: 0 };
        received.answered = answer(all.length + 1, received);
        all.push(received);
        res.writeHead(received.answered, { 'content-type': 'text/plain' }).end('ok');
        const w = waiting.findIndex((x) => x.match(received));
        if (w >= 0) waiting.splice(w, 1)[0]!.resolve(received);
        else inbox.push(received);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path = '/hooks') => `${base}${path}`,
    all,
    /** The next webhook (optionally: the next whose JSON body has this transaction id). */
    next: (id?: string): Promise<Received> => {
      const match = (r: Received) => id === undefined || r.body.includes(`"id":${JSON.stringify(id)}`);
      const i = inbox.findIndex(match);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]!);
      return new Promise((resolve) => waiting.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A receiver on loopback that trickles its answer: to its first webhook, 200 at once, then a byte
 * every 500 ms for as long as the connection lasts; to later ones, a plain 200. `closed` lists the
 * paths whose connection ended.
 */
export async function trickler() {
  const closed: string[] = [];
  let seen = 0;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (++seen > 1) return void res.end('ok');
    const timer = setInterval(() => res.write('.'), 500);
    res.on('close', () => {
      clearInterval(timer);
      closed.push(req.url ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Checks a webhook's signature independently (node:crypto) against the URL it was sent to. */
export function webhookSignatureOk(merchant: { id: string; secret: string }, url: string, received: Received): boolean {
  const ts = String(received.headers['x-timestamp']);
  return (
    received.headers['x-merchant-id'] === merchant.id &&
    /^[0-9]+$/.test(ts) &&
    received.headers['x-signature'] === hmac(merchant.secret, `${merchant.id}${ts}POST${url}${received.body}`)
  );
}

/** A raw HTTP/1.1 exchange, for what fetch cannot send (duplicate headers, raw targets). */
export function raw(
  base: string,
  options: { method: string; path: string; headers: [string, string][]; body?: string | Buffer },
): Promise<{ status: number; body: any; text: string; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const hasHost = options.headers.some(([n]) => n.toLowerCase() === 'host');
    // A flat [name, value, name, value...] array: sent as is, duplicates included.
    const headers = [...(hasHost ? [] : ['host', `${hostname}:${port}`]), ...options.headers.flat()];
    const req = httpRequest({
      host: hostname,
      port,
      method: options.method,
      path: options.path,
      headers: headers as unknown as Record<string, string>,
      setHost: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, text, headers: res.headers });
        });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Waits until `check()` is true, re-checking whenever the sandbox reports a change (no sleeps). */
export async function until<T>(check: () => Promise<T | undefined | false>, what: string, sandbox: { url: string }): Promise<T> {
  // The change feed wakes us up; each wake-up re-checks. Vitest's timeout bounds the wait.
  const controller = new AbortController();
  const response = await fetch(`${sandbox.url}/_sandbox/events`, { signal: controller.signal });
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const value = await check();
      if (value) return value;
      const { done } = await reader.read();
      if (done) throw new Error(`event stream ended while waiting for ${what}`);
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => {});
  }
}

/** Waits until the delivery log holds `count` finished attempts (answered, or failed without an answer) for a transaction; resolves with its log. */
export function attemptsSettled(sandbox: { url: string }, transactionId: string, count: number): Promise<DeliveryAttempt[]> {
  return until(
    async () => {
      const log: DeliveryAttempt[] = (await adminCall(sandbox, 'GET', `/deliveries?transaction_id=${transactionId}`)).body;
      const done = log.filter((a) => a.response_status !== null || a.error !== null);
      return done.length >= count ? log : undefined;
    },
    `${count} finished attempts`,
    sandbox,
  );
}

/** A sandbox's state with M1 and M2 and nothing else, no server: for rendering pages as units. */
export function offlineState(): State {
  const schedule = new Schedule(() => {});
  let state: State | undefined;
  const deliveries = new Deliveries({
    schedule,
    changed: () => state?.changed(),
    log: undefined,
    send: async () => 200,
    refusal: () => undefined,
  });
  state = new State([M1, M2], schedule, deliveries, 60, 1000, new Names({ publicUrl: undefined, httpHosts: new Set() }));
  return state;
}

/** What a page must show as text and never run: markup, both quotes and an ampersand (31 characters). */
export const HOSTILE = `<img src=x onerror=alert(1)>"'&`;

/** A request log entry (an accepted create by M1, unless overridden). */
export function logged(overrides: Partial<LoggedRequest> = {}): Omit<LoggedRequest, 'seq'> {
  return {
    at: '2026-11-23T20:24:49.123Z',
    clock_at: '2026-11-23T20:24:49.123000',
    merchant_id: 'm_1',
    method: 'POST',
    path: '/v2/merchants/payins/',
    status: 200,
    code: null,
    message: null,
    hint: null,
    errors: [],
    duration_ms: 3,
    transaction_id: 'pi_accepted',
    fault: null,
    body: '{"reference_id":"order-1"}',
    ...overrides,
  };
}

/** A port nothing listens on now (to start a sandbox whose own address is known before it starts). */
export { freePort } from '@pay/test-support';

/**
 * Text without what the sandbox generates at random (datetimes, ids), in which a card's short
 * digits (a CSC) may stand by chance: a datetime's milliseconds, "…11.987Z", once failed a check
 * that a page never shows the CSC 987.
 */
export const withoutGenerated = (text: string): string =>
  text.replace(/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+Z?|\b[a-z]{2,4}_[a-z0-9]{8,}/g, '');
