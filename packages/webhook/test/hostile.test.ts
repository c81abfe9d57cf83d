// Nothing a request contains makes the receiver throw: a table of hostile requests, each sent over
// real HTTP on loopback to every adapter in its real framework (Node http, Express, Fastify, Hono),
// each answered with the expected status and reason; then the core itself with inputs no HTTP
// server would hand over (headers objects that throw, a body reader that fails). Signatures are
// computed here with node:crypto.
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookCore } from '../src/core.js';
import type { WebhookEvent, WebhookFailure, WebhookHandlerOptions } from '../src/index.js';
import { harnesses } from './harnesses.js';
import { clockAt } from './clock-at.js';

const merchantId = 'm_12345';
const secret = 'sk_test_hostile';
const url = 'https://shop.example/webhooks/pay';
const ts = 1732200000;
const now = () => (ts + 1) * 1000;
const hmac = (signedUrl: string, body: Buffer, timestamp = String(ts)) =>
  createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${signedUrl}`).update(body).digest('hex');

type HeaderLines = [string, string | string[]][];
const signed = (body: Buffer, signedUrl = url): HeaderLines => [
  ['content-type', 'application/json'],
  ['x-merchant-id', merchantId],
  ['x-timestamp', String(ts)],
  ['x-signature', hmac(signedUrl, body)],
];
const forged = (): HeaderLines => [
  ['content-type', 'application/json'],
  ['x-merchant-id', merchantId],
  ['x-timestamp', String(ts)],
  ['x-signature', randomBytes(32).toString('hex')],
];
const replace = (lines: HeaderLines, name: string, value: string | string[]): HeaderLines => [
  ...lines.filter(([n]) => n !== name),
  [name, value],
];

interface Sent {
  method?: string;
  path?: string;
  headers: HeaderLines;
  /** The exact body bytes; sent with a content-length. */
  body?: Buffer;
  /** Sent chunked (no content-length), and left open once written: for bodies over the limit. */
  chunks?: Buffer[];
  /** A content-length declared without sending the body. */
  declaredLength?: number;
}

/**
 * Sends exactly what `sent` describes with Node's HTTP client on a fresh connection (headers given
 * as arrays go out as several lines) and resolves with the status and body of the answer.
 */
function send(base: string, sent: Sent): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: sent.method ?? 'POST', path: sent.path ?? '/webhooks/pay', agent: false });
    for (const [name, value] of sent.headers) req.setHeader(name, value);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (sent.declaredLength !== undefined) {
      req.setHeader('content-length', String(sent.declaredLength));
      req.flushHeaders();
    } else if (sent.chunks) {
      for (const chunk of sent.chunks) req.write(chunk);
    } else {
      req.setHeader('content-length', String(sent.body?.length ?? 0));
      req.end(sent.body);
    }
  });
}

const nested = Buffer.from(`${'['.repeat(4000)}${Array(28000).fill(0).join()}${']'.repeat(4000)}`);
const manyKeys = Buffer.from(`{"id":"pi_keys","status":"new",${Array.from({ length: 60_000 }, (_, i) => `"k${i}":${i}`).join()}}`);
const payload = Buffer.from('{"id":"pi_ok","reference_id":"order-1","status":"executed"}');
const notUtf8 = Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
const proto = Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"id":"pi_proto","status":"new"}');
const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), payload]);
const gzipped = gzipSync(payload);
const MiB = 1024 * 1024;

interface Row {
  name: string;
  sent: () => Sent;
  status: number;
  /** The `error` of the JSON answer; undefined for a 2xx, null when the framework answers by itself. */
  reason?: string | null;
  /** Where an adapter's framework answers before the webhook handler can (routing, header limits). */
  differs?: Record<string, { status: number; reason: null }>;
}

const rows: Row[] = [
  {
    name: "the review's 64 KB nested body, forged",
    sent: () => ({ headers: forged(), body: nested }),
    status: 401,
    reason: 'bad_signature',
  },
  {
    name: "the review's nested body, signed",
    sent: () => ({ headers: signed(nested), body: nested }),
    status: 400,
    reason: 'invalid_payload',
  },
  { name: '60 000 keys, forged', sent: () => ({ headers: forged(), body: manyKeys }), status: 401, reason: 'bad_signature' },
  { name: '60 000 keys, signed (a payload with extra fields)', sent: () => ({ headers: signed(manyKeys), body: manyKeys }), status: 200 },
  { name: 'a body that is not UTF-8, forged', sent: () => ({ headers: forged(), body: notUtf8 }), status: 401, reason: 'bad_signature' },
  {
    name: 'a body that is not UTF-8, signed',
    sent: () => ({ headers: signed(notUtf8), body: notUtf8 }),
    status: 400,
    reason: 'invalid_json',
  },
  {
    name: 'a body starting with a byte order mark, signed',
    sent: () => ({ headers: signed(bom), body: bom }),
    status: 400,
    reason: 'invalid_json',
  },
  { name: '__proto__ and constructor keys, signed', sent: () => ({ headers: signed(proto), body: proto }), status: 200 },
  { name: 'an empty body, forged', sent: () => ({ headers: forged() }), status: 401, reason: 'bad_signature' },
  { name: 'an empty body, signed', sent: () => ({ headers: signed(Buffer.alloc(0)) }), status: 400, reason: 'invalid_json' },
  {
    name: 'x-signature twice',
    sent: () => ({ headers: replace(signed(payload), 'x-signature', [hmac(url, payload), hmac(url, payload)]), body: payload }),
    status: 401,
    reason: 'malformed_signature',
  },
  {
    name: 'x-timestamp twice',
    sent: () => ({ headers: replace(signed(payload), 'x-timestamp', [String(ts), String(ts)]), body: payload }),
    status: 401,
    reason: 'malformed_timestamp',
  },
  {
    name: 'x-merchant-id twice',
    sent: () => ({ headers: replace(signed(payload), 'x-merchant-id', [merchantId, merchantId]), body: payload }),
    status: 401,
    reason: 'merchant_mismatch',
  },
  {
    name: 'an 8 KB x-signature',
    sent: () => ({ headers: replace(signed(payload), 'x-signature', 'a'.repeat(8192)), body: payload }),
    status: 401,
    reason: 'malformed_signature',
  },
  {
    name: 'a 400-digit timestamp',
    sent: () => ({ headers: replace(signed(payload), 'x-timestamp', '9'.repeat(400)), body: payload }),
    status: 401,
    reason: 'expired',
  },
  {
    name: 'a Latin-1 signature of 64 characters',
    sent: () => ({ headers: replace(signed(payload), 'x-signature', 'é'.repeat(64)), body: payload }),
    status: 401,
    reason: 'malformed_signature',
  },
  {
    name: 'headers over the HTTP server limit (16 KB)',
    sent: () => ({ headers: [...signed(payload), ['x-padding', 'p'.repeat(20_000)]], body: payload }),
    status: 431,
    reason: null,
  },
  {
    name: 'a content type that is not a media type',
    sent: () => ({ headers: replace(signed(payload), 'content-type', 'not a media type'), body: payload }),
    status: 200,
  },
  {
    name: 'content-encoding: gzip (signed over the gzip bytes)',
    sent: () => ({ headers: [...signed(gzipped), ['content-encoding', 'gzip']], body: gzipped }),
    status: 415,
    reason: 'unsupported_encoding',
  },
  {
    name: 'content-encoding: gzip behind express.raw()',
    sent: () => ({ path: '/express-raw/webhooks/pay', headers: [...signed(gzipped), ['content-encoding', 'gzip']], body: gzipped }),
    status: 415,
    reason: 'unsupported_encoding',
  },
  {
    name: 'content-encoding: GZip, identity',
    sent: () => ({ headers: [...signed(payload), ['content-encoding', 'GZip, identity']], body: payload }),
    status: 415,
    reason: 'unsupported_encoding',
  },
  {
    name: 'content-encoding: identity',
    sent: () => ({ headers: [...signed(payload), ['content-encoding', 'identity']], body: payload }),
    status: 200,
  },
  {
    name: 'a declared content-length over the limit',
    sent: () => ({ headers: forged(), declaredLength: 2 * MiB }),
    status: 413,
    reason: 'body_too_large',
  },
  {
    name: 'a chunked body over the limit',
    sent: () => ({ headers: forged(), chunks: Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 0x20)) }),
    status: 413,
    reason: 'body_too_large',
  },
  {
    name: 'a PUT',
    sent: () => ({ method: 'PUT', headers: signed(payload), body: payload }),
    status: 405,
    reason: 'method_not_allowed',
    // The frameworks route POST only, so they answer before the handler runs.
    differs: { express: { status: 404, reason: null }, fastify: { status: 404, reason: null }, hono: { status: 404, reason: null } },
  },
  {
    name: 'a forwarded host with a space',
    sent: () => ({
      path: '/proxied/pay',
      headers: [
        ...signed(payload, 'https://shop.example/proxied/pay'),
        ['x-forwarded-proto', 'https'],
        ['x-forwarded-host', 'shop example'],
      ],
      body: payload,
    }),
    status: 401,
    reason: 'missing_header',
  },
  {
    name: 'a forwarded host with a path in it',
    sent: () => ({
      path: '/proxied/pay',
      headers: [
        ...signed(payload, 'https://evil.example/x/proxied/pay'),
        ['x-forwarded-proto', 'https'],
        ['x-forwarded-host', 'evil.example/x'],
      ],
      body: payload,
    }),
    status: 401,
    reason: 'missing_header',
  },
  {
    name: 'a forwarded proto that is not http(s)',
    sent: () => ({
      path: '/proxied/pay',
      headers: [...signed(payload, 'ftp://shop.example/proxied/pay'), ['x-forwarded-proto', 'ftp'], ['x-forwarded-host', 'shop.example']],
      body: payload,
    }),
    status: 401,
    reason: 'missing_header',
  },
  {
    name: 'forwarded headers that are right',
    sent: () => ({
      path: '/proxied/pay?shop=7',
      headers: [
        ...signed(payload, 'https://shop.example:8443/proxied/pay?shop=7'),
        ['x-forwarded-proto', 'https'],
        ['x-forwarded-host', 'shop.example:8443'],
      ],
      body: payload,
    }),
    status: 200,
  },
];

describe.each(harnesses)('$name answers every hostile request', (harness) => {
  const events: WebhookEvent[] = [];
  const failures: WebhookFailure[] = [];
  const common = {
    merchantId,
    secret,
    clock: clockAt(now),
    onRefused: (f: WebhookFailure) => void failures.push(f),
    store: false as const,
  };
  const mounts = new Map<string, WebhookHandlerOptions>([
    ['/webhooks/pay', { ...common, url, handler: (e) => void events.push(e) }],
    ['/express-raw/webhooks/pay', { ...common, url, handler: (e) => void events.push(e) }],
    [
      '/proxied/pay',
      { ...common, trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' }, handler: (e) => void events.push(e) },
    ],
  ]);
  let server: { base: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await harness.start(mounts);
  });
  afterAll(() => server.close());

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const expected = row.differs?.[harness.name] ?? { status: row.status, reason: row.reason };
    const answer = await send(server.base, row.sent());
    expect(answer.status).toBe(expected.status);
    if (expected.reason) expect(JSON.parse(answer.text)).toEqual({ error: expected.reason });
    else if (expected.status === 200) expect(JSON.parse(answer.text)).toEqual({ ok: true });
    expect(answer.text).not.toMatch(/at .*\.(js|ts):\d+/); // never a stack trace
  });

  it('kept what it processed as sent, prototype keys included, and polluted nothing', () => {
    const byId = new Map(events.map((e) => [e.id, e]));
    expect([...byId.keys()].sort()).toEqual(['pi_keys', 'pi_ok', 'pi_proto']);
    const event = byId.get('pi_proto')!;
    expect(Object.hasOwn(event, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.keys(byId.get('pi_keys')!)).toHaveLength(60_002);
  });

  it('reported every refusal with the status it answered, and no message repeats a header value', () => {
    expect(failures.length).toBeGreaterThan(15);
    for (const f of failures) {
      expect(f.status).toBeGreaterThanOrEqual(400);
      expect(f.message).not.toContain('shop example');
      expect(f.message).not.toContain('a'.repeat(64));
    }
  });
});

describe('the core, with inputs no HTTP server hands over', () => {
  const failures: WebhookFailure[] = [];
  const core = createWebhookCore({
    merchantId,
    secret,
    url,
    clock: clockAt(now),
    handler: () => {},
    store: false,
    onRefused: (f) => void failures.push(f),
  });
  const proxied = createWebhookCore({
    merchantId,
    secret,
    clock: clockAt(now),
    handler: () => {},
    store: false,
    onRefused: () => {},
    trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' },
  });
  const good = Object.fromEntries(signed(payload)) as Record<string, string>;
  const body = (bytes: Buffer) => () => Promise.resolve({ ok: true as const, body: bytes });
  const throwing = () => {
    throw new Error('4242424242424242');
  };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cases: [string, { headers: unknown; readBody?: () => Promise<never> | never }, number, string][] = [
    ['a Headers-like get that throws', { headers: { get: throwing } }, 401, 'missing_header'],
    ['a get property that throws when read', { headers: Object.defineProperty({}, 'get', { get: throwing }) }, 401, 'missing_header'],
    [
      'a header value getter that throws',
      { headers: Object.defineProperty({ ...good }, 'x-signature', { enumerable: true, get: throwing }) },
      401,
      'missing_header',
    ],
    ['a proxy whose keys throw', { headers: new Proxy(good, { ownKeys: throwing }) }, 401, 'missing_header'],
    ['a revoked proxy', { headers: revoked.proxy }, 401, 'missing_header'],
    ['null headers', { headers: null }, 401, 'missing_header'],
    ['a string for headers', { headers: 'x-signature: a' }, 401, 'missing_header'],
    [
      'header values of the wrong types',
      { headers: { 'x-merchant-id': {}, 'x-timestamp': [null], 'x-signature': Symbol('s') } },
      401,
      'missing_header',
    ],
    [
      'a content-encoding getter that throws',
      { headers: Object.defineProperty({ ...good }, 'content-encoding', { enumerable: true, get: throwing }) },
      200,
      '',
    ],
    ['a body reader that rejects', { headers: good, readBody: () => Promise.reject(new Error('reset')) }, 400, 'unreadable_body'],
    ['a body reader that throws', { headers: good, readBody: throwing }, 400, 'unreadable_body'],
  ];
  it.each(cases)('answers %s', async (_name, input, status, reason) => {
    const answer = await core.handle({
      method: 'POST',
      path: '/webhooks/pay',
      headers: input.headers as never,
      readBody: input.readBody ?? body(payload),
    });
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toEqual(reason ? { error: reason } : { ok: true });
  });

  it('answers proxy headers that throw, and a path no framework would give, without throwing', async () => {
    const headers = Object.defineProperty({ ...good, 'x-forwarded-proto': 'https' }, 'x-forwarded-host', {
      enumerable: true,
      get: throwing,
    });
    const a = await proxied.handle({ method: 'POST', path: '/proxied/pay', headers, readBody: body(payload) });
    expect([a.status, JSON.parse(a.body)]).toEqual([401, { error: 'missing_header' }]);
    const odd = { ...good, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' };
    for (const path of ['no-slash', '/with space', '/tab\there', '*', 'http://other.example/x', '/\u2028']) {
      const b = await proxied.handle({ method: 'POST', path, headers: odd, readBody: body(payload) });
      expect([path, b.status, JSON.parse(b.body)]).toEqual([path, 401, { error: 'bad_signature' }]);
    }
  });

  it('never says what the throwing getters held', () => {
    for (const f of failures) expect(JSON.stringify(f)).not.toContain('4242424242424242');
  });
});
