// createClient checks its options once: every unusable one fails there, naming the option.
import { readFileSync } from 'node:fs';
import http, { createServer } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createClient, InvalidRequestError } from '../src/index.js';
import { withGlobalAgent } from './helpers/global-agent.js';

const good = { baseUrl: 'https://api.pay.example', merchantId: 'm_1', secret: 'sk_1' };

describe('createClient options', () => {
  it.each([
    ['no options', undefined, /expected an options object/],
    ['a typo in a name', { ...good, baseURL: 'x' }, /unknown option "baseURL"/],
    ['no baseUrl', { merchantId: 'm_1', secret: 'sk_1' }, /baseUrl must be a URL string/],
    ['a relative baseUrl', { ...good, baseUrl: '/api' }, /baseUrl is not an absolute URL/],
    ['an ftp baseUrl', { ...good, baseUrl: 'ftp://api.pay.example' }, /baseUrl must be an http or https URL/],
    ['plain http to a public host', { ...good, baseUrl: 'http://api.pay.example' }, /baseUrl must use https/],
    [
      'plain http to a named host, by default',
      { ...good, baseUrl: 'http://sandbox:4010' },
      /allowHttpHosts: \["sandbox"\] allows this one/,
    ],
    ['credentials in baseUrl', { ...good, baseUrl: 'https://u:p@api.pay.example' }, /must not contain credentials/],
    ['a query in baseUrl', { ...good, baseUrl: 'https://api.pay.example/?x=1' }, /must not have a query or a fragment/],
    ['an empty ? in baseUrl', { ...good, baseUrl: 'https://api.pay.example/?' }, /must not have a query or a fragment/],
    ['a bad cardProxyUrl', { ...good, cardProxyUrl: 'http://cards.pay.example' }, /cardProxyUrl must use https/],
    ['allowHttpHosts as one string', { ...good, allowHttpHosts: 'sandbox' }, /allowHttpHosts must be an array of host names/],
    [
      'allowHttpHosts with a port',
      { ...good, allowHttpHosts: ['sandbox:4010'] },
      /allowHttpHosts\[0\] must be a host name .*; got "sandbox:4010"/,
    ],
    [
      'allowHttpHosts with a scheme',
      { ...good, allowHttpHosts: ['sandbox', 'http://cards'] },
      /allowHttpHosts\[1\] must be a host name .*; got "http:\/\/cards"/,
    ],
    [
      'allowHttpHosts with a wildcard',
      { ...good, allowHttpHosts: ['*.internal'] },
      /allowHttpHosts\[0\] must be a host name .*; got "\*\.internal"/,
    ],
    [
      'allowHttpHosts with a path',
      { ...good, allowHttpHosts: ['sandbox/v2'] },
      /allowHttpHosts\[0\] must be a host name .*; got "sandbox\/v2"/,
    ],
    ['allowHttpHosts with an empty name', { ...good, allowHttpHosts: [''] }, /allowHttpHosts\[0\] must be a host name .*; got ""/],
    [
      'allowHttpHosts with white space',
      { ...good, allowHttpHosts: [' sandbox'] },
      /allowHttpHosts\[0\] must be a host name .*; got " sandbox"/,
    ],
    ['allowHttpHosts with a number', { ...good, allowHttpHosts: [4010] }, /allowHttpHosts\[0\] must be a host name .*; got number/],
    ['an empty merchantId', { ...good, merchantId: '' }, /merchantId must be a non-empty string/],
    ['a merchantId with a newline', { ...good, merchantId: 'm\n1' }, /merchantId must be a non-empty string of visible ASCII/],
    ['no secret', { ...good, secret: undefined }, /secret must be a non-empty string/],
    ['a secret with a trailing newline', { ...good, secret: 'sk_1\n' }, /secret has leading or trailing white space/],
    ['fetch that is not a function', { ...good, fetch: 'fetch' }, /fetch must be a function/],
    ['timeoutMs 0', { ...good, timeoutMs: 0 }, /timeoutMs must be a whole number from 1 to/],
    ['timeoutMs as a string', { ...good, timeoutMs: '100' }, /timeoutMs must be a whole number/],
    ['totalTimeoutMs too large for a timer', { ...good, totalTimeoutMs: 2 ** 31 }, /totalTimeoutMs must be a whole number/],
    ['negative retries', { ...good, retries: -1 }, /retries must be a whole number from 0 to 10/],
    ['fractional tolerance', { ...good, toleranceSeconds: 1.5 }, /toleranceSeconds must be a whole number from 1 to 3600/],
    ['negative settle', { ...good, settleSeconds: -1 }, /settleSeconds must be a whole number from 0 to 3600/],
    ['hooks not an object', { ...good, hooks: 1 }, /hooks must be an object/],
    ['an unknown hook', { ...good, hooks: { onSend: () => {} } }, /unknown hook "onSend"/],
    ['a hook that is not a function', { ...good, hooks: { onRequest: 'log' } }, /hooks\.onRequest must be a function/],
  ])('%s', (_label, options, message) => {
    expect(() => createClient(options as never)).toThrow(TypeError);
    expect(() => createClient(options as never)).toThrow(message);
  });

  it('no message repeats the secret', () => {
    for (const secret of [' sk_live_abc', 'sk_live_abc ', '']) {
      try {
        createClient({ ...good, secret });
      } catch (error) {
        expect(String(error)).not.toContain('sk_live_abc');
      }
    }
  });

  it.each([
    ['https://api.pay.example', 'https://api.pay.example/v2/merchants/payins/'],
    ['https://api.pay.example/', 'https://api.pay.example/v2/merchants/payins/'],
    ['https://API.Pay.Example:443/prefix/', 'https://api.pay.example/prefix/v2/merchants/payins/'],
    ['http://localhost:8080', 'http://localhost:8080/v2/merchants/payins/'],
    ['http://127.0.0.1:9/x', 'http://127.0.0.1:9/x/v2/merchants/payins/'],
    ['http://[::1]:9', 'http://[::1]:9/v2/merchants/payins/'],
  ])('baseUrl %s is called (and signed) as fetch will send it: %s', async (baseUrl, called) => {
    const urls: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      urls.push(String(url));
      return new Response(null, { status: 400 });
    };
    const pay = createClient({ ...good, baseUrl, fetch: fetch as typeof globalThis.fetch });
    await pay.payins.create({} as never).catch(() => undefined); // invalid: not sent
    await pay.payins.getByReference('r').catch(() => undefined);
    expect(urls).toEqual([called.replace(/\/$/, '/?reference_id=r')]);
    expect(new URL(urls[0]!).href).toBe(urls[0]);
  });

  it('an injected fetch is called unbound, with the signed headers and the abort signal', async () => {
    const calls: { self: unknown; init: RequestInit }[] = [];
    const fetch = function (this: unknown, _url: string, init: RequestInit) {
      calls.push({ self: this, init });
      return Promise.resolve(new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }));
    };
    await createClient({ ...good, fetch: fetch as never })
      .payins.get('pi_1')
      .catch(() => undefined);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.self).toBeUndefined();
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(Object.keys(headers).sort()).toEqual(['accept', 'x-merchant-id', 'x-signature', 'x-timestamp']);
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]!.init.redirect).toBe('manual');
  });
});

describe('allowHttpHosts: plain http to named hosts, by opt-in', () => {
  // The URLs the client would call, recorded by an injected fetch (the wire is end-to-end-tested
  // against the sandbox in allow-http-hosts.test.ts).
  async function called(options: Record<string, unknown>): Promise<string[]> {
    const urls: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      urls.push(String(url));
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    };
    const pay = createClient({ ...good, retries: 0, ...options, fetch: fetch as typeof globalThis.fetch });
    await pay.payins.get('pi_1').catch(() => undefined);
    return urls;
  }

  it('a listed host may be reached over plain http, for baseUrl and cardProxyUrl; names match whatever their case', async () => {
    expect(
      await called({ baseUrl: 'http://sandbox:4010', cardProxyUrl: 'http://sandbox:4010/card-proxy', allowHttpHosts: ['sandbox'] }),
    ).toEqual(['http://sandbox:4010/v2/merchants/payins/pi_1']);
    expect(await called({ baseUrl: 'http://SandBox:4010', allowHttpHosts: ['SANDBOX', 'cards'] })).toEqual([
      'http://sandbox:4010/v2/merchants/payins/pi_1',
    ]);
    expect(await called({ baseUrl: 'http://10.0.0.5:4010', allowHttpHosts: ['10.0.0.5'] })).toEqual([
      'http://10.0.0.5:4010/v2/merchants/payins/pi_1',
    ]);
    // Loopback hosts need no entry, with or without the option.
    expect(await called({ baseUrl: 'http://127.0.0.1:4010', allowHttpHosts: [] })).toEqual([
      'http://127.0.0.1:4010/v2/merchants/payins/pi_1',
    ]);
  });

  it.each([
    [
      'another name',
      { baseUrl: 'http://sandbox-2:4010', allowHttpHosts: ['sandbox'] },
      /baseUrl must use https.*allowHttpHosts: \["sandbox-2"\]/,
    ],
    [
      'a subdomain of a listed name (no wildcards)',
      { baseUrl: 'http://pay.sandbox:4010', allowHttpHosts: ['sandbox'] },
      /baseUrl must use https/,
    ],
    ['a name a listed one ends with', { baseUrl: 'http://box:4010', allowHttpHosts: ['sandbox'] }, /baseUrl must use https/],
    [
      'a cardProxyUrl on an unlisted host',
      { baseUrl: 'http://sandbox:4010', cardProxyUrl: 'http://cards:4010', allowHttpHosts: ['sandbox'] },
      /cardProxyUrl must use https.*\["cards"\]/,
    ],
  ])('a host not listed is still refused: %s', (_label, options, message) => {
    expect(() => createClient({ ...good, ...options })).toThrow(TypeError);
    expect(() => createClient({ ...good, ...options })).toThrow(message);
  });

  it('a card push address over plain http is used only on a listed host; elsewhere nothing is sent', async () => {
    let sent = 0;
    const fetch = async () => {
      sent++;
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const card = { pan: '4242424242424242', exp_month: '12', exp_year: '2031', csc: '987' };
    const pay = createClient({ ...good, allowHttpHosts: ['sandbox'], fetch: fetch as typeof globalThis.fetch });
    const refused = await pay.payins
      .pushCard({ payinId: 'pi_1', url: 'http://cards:4010/card-proxy/v1/push/tok_1/' }, card)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).errors).toEqual([
      { path: 'url', message: expect.stringContaining('hosts listed in allowHttpHosts') },
    ]);
    expect(sent).toBe(0);
    const pushed = await pay.payins.pushCard({ payinId: 'pi_1', url: 'http://sandbox:4010/card-proxy/v1/push/tok_1/' }, card);
    expect(pushed.response.status).toBe(200);
    expect(sent).toBe(1);
  });
});

describe('how requests are sent', () => {
  afterEach(() => vi.restoreAllMocks());
  afterEach(() => vi.unstubAllGlobals());

  // A lookup against a local server answering 404 to everything, counting calls to the global
  // fetch and to http.request (both replaced by counting wrappers, as a test tool would).
  async function count(options: Record<string, unknown> = {}) {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const globalFetch = globalThis.fetch;
    let fetches = 0;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      fetches++;
      return globalFetch(input, init);
    });
    const request = vi.spyOn(http, 'request');
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const status = await createClient({ ...good, baseUrl, ...options })
        .payins.get('pi_1')
        .catch((error: { status?: number }) => error.status);
      return { status, fetches, requests: request.mock.calls.length };
    } finally {
      server.close();
    }
  }

  it(`without options.fetch, this run's default (${inject('exchange')}): http.request on Node, as it is at the time of the call; the global fetch elsewhere`, async () => {
    const overFetch = inject('exchange') === 'fetch';
    expect(await count()).toEqual({ status: 404, fetches: overFetch ? 1 : 0, requests: overFetch ? 0 : 1 });
  });

  it('with options.fetch, through it, whatever the default', async () => {
    let calls = 0;
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      calls++;
      return globalThis.fetch(input, init);
    };
    expect(await count({ fetch })).toEqual({ status: 404, fetches: 1, requests: 0 });
    expect(calls).toBe(1);
  });

  it('https.globalAgent as it is at the time of the call: on Node a replacement trusting a private CA is used; fetch does not use it', async () => {
    const tls = join(import.meta.dirname, 'fixtures', 'tls');
    const cert = readFileSync(join(tls, 'localhost-cert.pem'));
    const server = https.createServer({ key: readFileSync(join(tls, 'localhost-key.pem')), cert }, (_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await withGlobalAgent(https, new https.Agent({ keepAlive: true, ca: cert }), async () => {
        const baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
        const outcome = await createClient({ ...good, baseUrl, retries: 0 })
          .payins.get('pi_1')
          .catch((error: { name: string; status?: number; message: string }) => error.status ?? error.message);
        if (inject('exchange') === 'node') expect(outcome).toBe(404);
        else expect(outcome).toMatch(/the request failed \(.*SELF_SIGNED_CERT/);
      });
    } finally {
      server.close();
    }
  });
});

describe('client.limits', () => {
  it('reads back the resolved time limits, defaults applied, and cannot be changed', () => {
    const client = createClient({ ...good, totalTimeoutMs: 5_000, settleSeconds: 2 });
    expect(client.limits).toEqual({
      timeoutMs: 30_000,
      totalTimeoutMs: 5_000,
      retries: expect.any(Number),
      toleranceSeconds: 60,
      settleSeconds: 2,
    });
    expect(Object.isFrozen(client.limits)).toBe(true);
    expect(() => {
      (client.limits as { totalTimeoutMs: number }).totalTimeoutMs = 1;
    }).toThrow(TypeError);
    expect(client.limits.totalTimeoutMs).toBe(5_000);
  });
});
