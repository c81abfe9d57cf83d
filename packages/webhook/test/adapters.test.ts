// Every adapter, in its real framework, over real HTTP on loopback: the golden webhook vectors
// and the bad-input catalogue, each answered with the right status.
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent, WebhookHandlerOptions } from '../src/index.js';
import { harnesses } from './harnesses.js';
import { bodyOf, isPayload, survivesHttp, vectors } from './vectors.js';
import { clockAt } from './clock-at.js';

const merchantId = 'm_12345';
const secret = 'sk_test_adapters';
const url = 'https://shop.example/webhooks/pay';
const ts = 1732200000;
const sign = (body: string | Buffer, timestamp = ts) => ({
  'content-type': 'application/json',
  'x-merchant-id': merchantId,
  'x-timestamp': String(timestamp),
  'x-signature': createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}`).update(body).digest('hex'),
});

/**
 * Sends exact request bytes over TCP, so a header can appear twice on the wire (fetch merges
 * duplicates before sending). Returns the status code.
 */
function rawPost(base: string, path: string, headerLines: [string, string][], body: string): Promise<number> {
  const { hostname, port } = new URL(base);
  const head = [`POST ${path} HTTP/1.1`, `host: ${hostname}:${port}`, 'connection: close', `content-length: ${Buffer.byteLength(body)}`];
  for (const [name, value] of headerLines) head.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head.join('\r\n')}\r\n\r\n${body}`));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1])));
    socket.on('error', reject);
  });
}

describe.each(harnesses)('$name', (harness) => {
  const events: WebhookEvent[] = [];
  let failNext = 0;
  const handler = async (event: WebhookEvent) => {
    if (failNext > 0) {
      failNext--;
      throw new Error('database unavailable');
    }
    events.push(event);
  };
  const quiet = { onRefused: () => {} };
  const logged: string[] = [];
  const httpVectors = vectors.filter(survivesHttp);
  const mounts = new Map<string, WebhookHandlerOptions>([
    ['/webhooks/pay', { merchantId, secret, url, handler, clock: clockAt(() => (ts + 1) * 1000), maxBodyBytes: 4096, ...quiet }],
    [
      '/after-json/webhooks/pay',
      { merchantId, secret, url, handler, clock: clockAt(() => (ts + 1) * 1000), onRefused: (f) => logged.push(f.message) },
    ],
    [
      '/proxied/pay',
      {
        merchantId,
        secret,
        trustProxyHeaders: { proto: 'X-Forwarded-Proto', host: 'x-forwarded-host' },
        handler: () => {},
        clock: clockAt(() => (ts + 1) * 1000),
        store: false,
        ...quiet,
      },
    ],
    ...httpVectors.map((v, i): [string, WebhookHandlerOptions] => [
      `/vector/${i}`,
      {
        merchantId: v.input.merchant_id,
        secret: v.input.secret,
        url: v.input.url,
        handler: () => {},
        clock: clockAt(() => Number(v.input.now) * 1000),
        store: false,
        ...quiet,
      },
    ]),
  ]);
  let server: { base: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await harness.start(mounts);
  });
  afterAll(() => server.close());
  const post = (path: string, body: BodyInit | undefined, headers: Record<string, string>) =>
    fetch(server.base + path, { method: 'POST', body, headers });

  it('carries most golden vectors over HTTP', () => {
    expect(httpVectors.length).toBeGreaterThan(vectors.length * 0.75);
  });

  it('answers every golden vector as the vector says', async () => {
    const answers = await Promise.all(
      httpVectors.map(async (v, i) => {
        const response = await post(`/vector/${i}`, bodyOf(v), v.input.headers);
        return { v, status: response.status, body: (await response.json()) as { error?: string } };
      }),
    );
    for (const { v, status, body } of answers) {
      if (v.expected.verdict === 'invalid') {
        expect({ id: v.id, status, error: body.error }).toEqual({ id: v.id, status: 401, error: v.expected.reason });
      } else if (v.expected.verdict === 'valid') {
        expect({ id: v.id, status }).toEqual({ id: v.id, status: isPayload(v) ? 200 : 400 });
      } else {
        expect({ id: v.id, status }).toEqual({ id: v.id, status: 200 }); // upper-case hex: accepted
      }
    }
  });

  it('processes a webhook once, acknowledges its duplicate, and retries after a handler failure', async () => {
    const body = JSON.stringify({ id: `pi_${harness.name}`, reference_id: 'order-9', status: 'executed' });
    failNext = 1;
    const failed = await post('/webhooks/pay', body, sign(body));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'handler_failed' });
    expect(events).toHaveLength(0);

    const retried = await post('/webhooks/pay', body, sign(body, ts + 1)); // re-signed, as the service does
    expect(retried.status).toBe(200);
    expect(events).toEqual([JSON.parse(body)]);

    const duplicate = await post('/webhooks/pay', body, sign(body, ts + 2));
    expect(duplicate.status).toBe(200);
    expect(await duplicate.json()).toEqual({ ok: true, duplicate: true });
    expect(events).toHaveLength(1);

    const nextStatus = body.replace('executed', 'refunded');
    expect((await post('/webhooks/pay', nextStatus, sign(nextStatus))).status).toBe(200);
    expect(events.map((e) => e.status)).toEqual(['executed', 'refunded']);
  });

  const catalogue: [string, () => [BodyInit | undefined, Record<string, string>], number, string][] = [
    ['a tampered body', () => [`{"id":"pi_2","status":"executed"}`, sign(`{"id":"pi_2","status":"new"}`)], 401, 'bad_signature'],
    [
      'a replay from two minutes ago',
      () => ['{"id":"pi_2","status":"new"}', sign('{"id":"pi_2","status":"new"}', ts - 120)],
      401,
      'expired',
    ],
    [
      'no signature header',
      () => {
        const { 'x-signature': _, ...rest } = sign('{}');
        return ['{}', rest];
      },
      401,
      'missing_header',
    ],
    ['a malformed signature', () => ['{}', { ...sign('{}'), 'x-signature': 'sha256=abc' }], 401, 'malformed_signature'],
    ['a signed body that is not JSON', () => ['id=pi_1&status=new', sign('id=pi_1&status=new')], 400, 'invalid_json'],
    ['a signed JSON body that is not a payload', () => ['{"id":"pi_1"}', sign('{"id":"pi_1"}')], 400, 'invalid_payload'],
    ['a signed empty body', () => [undefined, sign('')], 400, 'invalid_json'],
    [
      'a signed payload sent as text/plain',
      () => ['{"id":"pi_t","status":"new"}', { ...sign('{"id":"pi_t","status":"new"}'), 'content-type': 'text/plain' }],
      200,
      '',
    ],
    ['a body over the limit', () => ['x'.repeat(8192), sign('x'.repeat(8192))], 413, ''],
  ];
  it.each(catalogue)('answers %s', async (_name, make, status, error) => {
    const [body, headers] = make();
    const response = await post('/webhooks/pay', body, headers);
    expect(response.status).toBe(status);
    if (error) expect(await response.json()).toEqual({ error });
  });

  it('refuses a GET', async () => {
    const response = await fetch(`${server.base}/webhooks/pay`);
    expect([404, 405]).toContain(response.status);
  });

  it('reads a header sent twice as both values, so it fails the format checks', async () => {
    const body = '{"id":"pi_d","status":"new"}';
    const h = sign(body);
    const lines = (twice: string): [string, string][] =>
      Object.entries(h).flatMap(([k, v]): [string, string][] =>
        k === twice
          ? [
              [k, v],
              [k, v],
            ]
          : [[k, v]],
      );
    expect(await rawPost(server.base, '/webhooks/pay', lines('x-signature'), body)).toBe(401);
    expect(await rawPost(server.base, '/webhooks/pay', lines('x-timestamp'), body)).toBe(401);
    expect(await rawPost(server.base, '/webhooks/pay', lines('x-merchant-id'), body)).toBe(401);
    expect(await rawPost(server.base, '/webhooks/pay', lines('content-type'), body)).toBe(200); // not signed
    expect(events.some((e) => e.id === 'pi_d')).toBe(true);
  });

  it('rebuilds the signed URL from named proxy headers only when asked to', async () => {
    const body = '{"id":"pi_p","status":"new"}';
    const publicUrl = 'https://shop.example/proxied/pay?shop=7';
    const signed = {
      'x-merchant-id': merchantId,
      'x-timestamp': String(ts),
      'x-signature': createHmac('sha256', secret).update(`${merchantId}${ts}POST${publicUrl}${body}`).digest('hex'),
    };
    const forwarded = { ...signed, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' };
    expect((await post('/proxied/pay?shop=7', body, forwarded)).status).toBe(200);
    expect((await post('/proxied/pay?shop=7', body, { ...forwarded, 'x-forwarded-proto': 'https, http' })).status).toBe(200);
    const spoofed = await post('/proxied/pay?shop=7', body, { ...forwarded, 'x-forwarded-host': 'evil.example' });
    expect([spoofed.status, await spoofed.json()]).toEqual([401, { error: 'bad_signature' }]);
    const direct = await post('/proxied/pay?shop=7', body, signed);
    expect([direct.status, await direct.json()]).toEqual([401, { error: 'missing_header' }]);
  });

  if (harness.name === 'express') {
    it('fails loudly, with a 500 the service retries, when express.json() consumed the body first', async () => {
      const body = '{"id":"pi_3","status":"new"}';
      const response = await post('/after-json/webhooks/pay', body, sign(body));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'parsed_body' }); // no advice in the response
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/express\.json\(\).*already consumed.*before app\.use\(express\.json\(\)\)/);
    });
  }
  if (harness.name === 'fastify') {
    it('leaves other routes their JSON parser', async () => {
      const response = await post('/other-json-route', '{"a":1}', { 'content-type': 'application/json' });
      expect(await response.json()).toEqual({ echoed: { a: 1 } });
    });
  }
});
