// A receiver configured for one host while the service signs the URL it calls with another
// (localhost and 127.0.0.1, or another port) refuses every webhook: the refusal's hint names the
// host that matches. Real requests over loopback to the node adapter, signed here with node:crypto.
import { createHmac } from 'node:crypto';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noNearMiss } from './no-near-miss.js';
import type { WebhookFailure } from '../src/index.js';
import { verifyWebhook } from '../src/index.js';
import { webhookHandler } from '../src/node/index.js';
import { clockAt } from './clock-at.js';

const merchantId = 'm_host';
const secret = 'sk_test_host_mismatch';
const payload = '{"id":"pi_1","reference_id":"order-1","status":"executed"}';

const hmac = (url: string, ts: number) => createHmac('sha256', secret).update(`${merchantId}${ts}POST${url}${payload}`).digest('hex');

let server: Server;
let port: number;
let configuredUrl = '';
let refusals: WebhookFailure[] = [];
let hints: (string | undefined)[] = [];
let received = 0;

beforeAll(async () => {
  server = createServer((req, res) =>
    // A handler per request, so that each test's configured URL applies and the one-a-second
    // hint budget (a handler's) never skips a test's hint.
    webhookHandler({
      merchantId,
      secret,
      url: configuredUrl,
      handler: () => {
        received++;
      },
      onRefused: (failure) => {
        refusals.push(failure);
        hints.push('hint' in failure ? failure.hint : undefined);
      },
    })(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POSTs the payload to this test's server over loopback, signed for `signedUrl`, with `host` as its Host header. */
function post(signedUrl: string, host: string): Promise<number> {
  refusals = [];
  hints = [];
  const ts = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks',
        headers: {
          host,
          'content-type': 'application/json',
          'x-merchant-id': merchantId,
          'x-timestamp': String(ts),
          'x-signature': hmac(signedUrl, ts),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** What a refusal shows anywhere: its hint, message and JSON. */
const shown = () => JSON.stringify(refusals) + hints.join('\n');

describe('a receiver configured for another host than the one signed', () => {
  it('configured localhost, signed and sent to 127.0.0.1: 401, and the hint names 127.0.0.1', async () => {
    configuredUrl = `http://localhost:${port}/hooks`;
    const status = await post(`http://127.0.0.1:${port}/hooks`, `127.0.0.1:${port}`);
    expect(status).toBe(401);
    expect(received).toBe(0);
    expect(refusals.map((r) => r.reason)).toEqual(['bad_signature']);
    expect(hints[0]).toBe(
      `the signature matches the URL with host 127.0.0.1:${port} instead of localhost:${port}, the host this request was sent to (http://127.0.0.1:${port}/hooks): configure url as exactly the address the service signs`,
    );
  });

  it('the reverse: configured 127.0.0.1, signed and sent to localhost', async () => {
    configuredUrl = `http://127.0.0.1:${port}/hooks`;
    expect(await post(`http://localhost:${port}/hooks`, `localhost:${port}`)).toBe(401);
    expect(hints[0]).toMatch(new RegExp(`^the signature matches the URL with host localhost:${port} instead of 127\\.0\\.0\\.1:${port}`));
  });

  it('another port: configured :3000, signed and sent to the port the receiver listens on', async () => {
    configuredUrl = 'http://localhost:3000/hooks';
    expect(await post(`http://localhost:${port}/hooks`, `localhost:${port}`)).toBe(401);
    expect(hints[0]).toMatch(
      new RegExp(`^the signature matches the URL with host localhost:${port} instead of localhost:3000, the host this request was sent to`),
    );
  });

  it('signed for [::1] while the Host header says 127.0.0.1: the other loopback names are tried too', async () => {
    configuredUrl = `http://localhost:${port}/hooks`;
    expect(await post(`http://[::1]:${port}/hooks`, `127.0.0.1:${port}`)).toBe(401);
    expect(hints[0]).toMatch(
      new RegExp(`^the signature matches the URL with host \\[::1\\]:${port} instead of localhost:${port}, another name of this machine`),
    );
  });

  it('the hint never shows the secret or the signature expected for the configured URL', async () => {
    configuredUrl = `http://localhost:${port}/hooks`;
    const ts = Math.floor(Date.now() / 1000);
    await post(`http://127.0.0.1:${port}/hooks`, `127.0.0.1:${port}`);
    expect(hints[0]).toMatch(/127\.0\.0\.1/);
    for (const t of [ts - 1, ts, ts + 1]) expect(shown()).not.toContain(hmac(configuredUrl, t));
    expect(shown()).not.toContain(hmac(`http://127.0.0.1:${port}/hooks`, ts));
    expect(shown()).not.toContain(secret);
  });

  it('a host that matches nothing: 401 and no host named, the secret the likeliest; the same URL configured: accepted', async () => {
    configuredUrl = `http://localhost:${port}/hooks`;
    expect(await post(`http://shop.example:${port}/hooks`, `127.0.0.1:${port}`)).toBe(401);
    expect(refusals).toHaveLength(1);
    expect(hints[0]).toMatch(noNearMiss(merchantId));
    configuredUrl = `http://127.0.0.1:${port}/hooks`;
    expect(await post(configuredUrl, `127.0.0.1:${port}`)).toBe(200);
    expect(received).toBe(1);
  });
});

describe('the Host header is the sender’s: only a well-formed one is tried', () => {
  const ts = 1732200000;
  const url = 'https://shop.example/webhooks/pay';
  const verify = (host: string, signedUrl: string) => {
    const result = verifyWebhook({
      merchantId,
      secret,
      url,
      clock: clockAt(() => (ts + 1) * 1000),
      headers: { host, 'x-merchant-id': merchantId, 'x-timestamp': String(ts), 'x-signature': hmac(signedUrl, ts) },
      body: payload,
    });
    return result.ok ? 'accepted' : result.hint;
  };

  it('a proxy in front: the public host signed, another one in the Host header', () => {
    expect(verify('shop.example:8443', 'https://shop.example:8443/webhooks/pay')).toMatch(
      /^the signature matches the URL with host shop\.example:8443 instead of shop\.example, the host this request was sent to/,
    );
  });

  it.each([
    ['a host with a path', 'evil.example/x', 'https://evil.example/x/webhooks/pay'],
    ['a host with credentials', 'user:pw@evil.example', 'https://user:pw@evil.example/webhooks/pay'],
    ['a 300-character host', `${'a'.repeat(300)}.example`, `https://${'a'.repeat(300)}.example/webhooks/pay`],
    ['a host with spaces', 'evil example', 'https://evil example/webhooks/pay'],
  ])('%s: not tried, so no host hint, and nothing of it shown', (_name, host, signedUrl) => {
    const hint = verify(host, signedUrl);
    expect(hint).toMatch(noNearMiss(merchantId));
    expect(hint).not.toContain(host);
  });

  it('a configured URL with credentials in it gets no host hint (it would log them)', () => {
    const result = verifyWebhook({
      merchantId,
      secret,
      url: 'https://user:pw@shop.example/webhooks/pay',
      clock: clockAt(() => (ts + 1) * 1000),
      headers: {
        host: 'www.shop.example',
        'x-merchant-id': merchantId,
        'x-timestamp': String(ts),
        'x-signature': hmac('https://user:pw@www.shop.example/webhooks/pay', ts),
      },
      body: payload,
    });
    expect(!result.ok && result.hint).toMatch(noNearMiss(merchantId));
    expect(JSON.stringify(result)).not.toContain('pw');
  });
});
