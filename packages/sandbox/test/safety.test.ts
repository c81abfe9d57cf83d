// The sandbox is safe to leave running: each finding of the security review, reproduced over real
// HTTP (and in Chromium where a browser is the attacker's tool), is refused and changes nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, startSandbox } from '../src/index.js';
import {
  adminCall,
  call,
  get,
  M1,
  M2,
  payinBody,
  post,
  raw,
  receiver,
  sandboxForFile,
  signed,
  start,
  type Started,
  trickler,
  until,
  freePort,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const port = () => Number(new URL(sb.url).port);
const transactions = async (sandbox: { url: string } = sb) =>
  (await adminCall(sandbox, 'GET', '/transactions')).body as { id: string; status: string }[];

describe('webhooks never reach the sandbox itself', () => {
  it.each([
    ['its own URL', (p: number) => `http://127.0.0.1:${p}/_sandbox/reset`],
    ['localhost', (p: number) => `http://localhost:${p}/_sandbox/reset`],
    ['a short form of 127.0.0.1', (p: number) => `http://127.1:${p}/_sandbox/reset`],
    ['another loopback address', (p: number) => `http://127.0.0.2:${p}/_sandbox/payins/x/resend`],
    ['a name under .localhost', (p: number) => `http://sandbox.localhost:${p}/_sandbox/reset`],
  ])('a create whose webhook_url is %s is refused at webhook_url, and nothing is created', async (_name, url) => {
    const other = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'victim' }), M2);
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: url(port()) }));
    expect(a.status).toBe(400);
    expect(a.body.error.errors.map((e: { path: string }) => e.path)).toEqual(['webhook_url']);
    expect((await transactions()).map((t) => t.id)).toEqual([other.body.id]);
  });

  it("a merchant's static address on the sandbox itself: the attempt is refused, nothing is reset", async () => {
    const free = await freePort();
    const self = await start({ port: free, merchants: [{ ...M1, webhookUrl: `http://127.0.0.1:${free}/_sandbox/reset` }, M2] });
    try {
      const victim = await post(
        `${self.url}/v2/merchants/payouts/`,
        {
          payment: { amount: 1, currency: 'EUR' },
          customer: { id: 'c', email: 'a@b.example', first_name: 'Jo', last_name: 'Do', phone: { country_code: '+1', number: '55501' } },
          webhook_url: 'http://127.0.0.1:9/x',
        },
        M2,
      );
      expect(victim.status).toBe(200);
      const created = await post(`${self.url}/v2/merchants/payins/`, payinBody());
      const [attempt] = await until(
        async () => {
          const log = (await adminCall(self, 'GET', `/deliveries?transaction_id=${created.body.id}`)).body;
          return log[0]?.error ? log : undefined;
        },
        'the refused attempt',
        self,
      );
      expect(attempt).toMatchObject({ attempt: 1, response_status: null, error: "refused: the sandbox's own address" });
      expect((await adminCall(self, 'GET', `/deliveries?transaction_id=${created.body.id}`)).body).toHaveLength(1); // no retry
      expect((await transactions(self)).length).toBe(2);
    } finally {
      await self.close();
    }
  });

  it('a request carrying the service signature headers is refused by every admin route and page', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const webhookLike = { 'content-type': 'application/json', ...signed(M1, 'POST', `${sb.url}/_sandbox/reset`, '{}') };
    for (const path of ['/reset', `/payins/${created.body.id}/resend`, `/pay/${created.body.id}`, '/clock/advance', '/']) {
      const a = await call('POST', `${sb.url}/_sandbox${path}`, {
        headers: webhookLike,
        body: '{"id":"x","reference_id":"&action=pay&","status":"new"}',
      });
      expect(a.status, path).toBe(403);
      expect(a.body.error.code).toBe('signed_request');
    }
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
  });

  it('the payment page reads only its own form: a JSON body that parses as action=pay pays nothing', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: '&action=pay&' }));
    const jsonBody = JSON.stringify({ id: 'x', reference_id: '&action=pay&', status: 'new' });
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
      const a = await call('POST', created.body.next_action.url, { headers: { 'content-type': type }, body: jsonBody });
      expect(a.status, type).toBe(415);
    }
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
    const form = await call('POST', created.body.next_action.url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=pay',
    });
    expect(form.status).toBe(303);
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
  });
});

describe('DNS rebinding: only its own names', () => {
  it.each([
    ['GET', '/_sandbox/transactions'],
    ['POST', '/_sandbox/clock/advance'],
    ['POST', '/_sandbox/faults'],
    ['GET', '/_sandbox/'],
    ['GET', '/_sandbox/requests'],
    ['POST', '/v2/merchants/payins/'],
    ['GET', '/'],
  ])('%s %s under a rebound name is 421, and does nothing', async (method, path) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const a = await raw(sb.url, {
      method,
      path,
      headers: [
        ['host', `rebind.example.com:${port()}`],
        ['origin', `http://rebind.example.com:${port()}`],
        ['content-type', 'application/json'],
      ],
      ...(method === 'POST' ? { body: '{"seconds":3600,"method":"POST","path_prefix":"/","kind":"delay","count":1,"ms":1}' } : {}),
    });
    expect(a.status).toBe(421);
    expect(a.body.error.code).toBe('misdirected_request');
    expect(a.body.error.message).toContain('rebind.example.com');
    expect(a.text).not.toContain(created.body.id);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([]);
    expect((await adminCall(sb, 'GET', '/clock')).body.now.slice(0, 13)).toBe(new Date().toISOString().slice(0, 13));
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', 'localhost.', 'sandbox.localhost', '[::1]', 'sandbox.test'])(
    'answers under %s',
    async (name) => {
      const a = await raw(sb.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', `${name}:${port()}`]] });
      expect(a.status).toBe(200);
    },
  );

  it('a request with no Host header is refused', async () => {
    const a = await raw(sb.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', '']] });
    expect(a.status).toBe(421);
  });

  it('a POST from a page of a loopback name with another port (another local app) is refused', async () => {
    const a = await call('POST', `${sb.url}/_sandbox/reset`, { headers: { origin: 'http://localhost:3000' } });
    expect(a.status).toBe(403);
  });

  it('publicUrl and allowHttpHosts add names; other names stay out', async () => {
    const named = await start({ publicUrl: 'https://sandbox.example.com', allowHttpHosts: ['sandbox', 'shop'] });
    try {
      const p = new URL(named.url).port;
      const bearer: [string, string] = ['authorization', `Bearer ${named.adminToken}`];
      // Each of its names is answered (no 421). Told it is reachable from elsewhere, the sandbox asks
      // every caller for the admin token, under any name, 127.0.0.1 included (see exposure.test.ts).
      for (const host of [`sandbox:${p}`, `shop:${p}`, `127.0.0.1:${p}`, 'sandbox.example.com']) {
        const without = await raw(named.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', host]] });
        expect(without.status, host).toBe(403);
        expect((await raw(named.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', host], bearer] })).status, host).toBe(
          200,
        );
      }
      for (const host of [`sandbox.evil.com:${p}`, `sandboxx:${p}`, `example.com:${p}`]) {
        expect((await raw(named.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', host]] })).status, host).toBe(421);
      }
    } finally {
      await named.close();
    }
  });
});

describe('headers on every answer', () => {
  it('nosniff everywhere; no framing of any page; a strict policy on pages', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const answers = [
      ['dashboard', await call('GET', `${sb.url}/_sandbox/`)],
      ['payment page', await call('GET', created.body.next_action.url)],
      ['JSON', await adminCall(sb, 'GET', '/health')],
      ['a refusal', await call('GET', `${sb.url}/v2/merchants/payins/x`)],
      ['a 404', await call('GET', `${sb.url}/nothing`)],
      ['the index', await call('GET', `${sb.url}/`)],
    ] as const;
    for (const [name, a] of answers) {
      expect(a.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(a.headers.get('x-frame-options'), name).toBe('DENY');
      expect(a.headers.get('content-security-policy'), name).toContain("frame-ancestors 'none'");
    }
    expect(answers[0][1].headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('a receiver that trickles its answer', () => {
  it('a reset stops the attempt under way at once', async () => {
    const slow = await trickler();
    try {
      await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: slow.url }));
      await until(
        async () => ((await adminCall(sb, 'GET', '/deliveries')).body[0]?.sent_at ? true : undefined),
        'the attempt to start',
        sb,
      );
      expect(slow.closed).toEqual([]);
      expect((await adminCall(sb, 'POST', '/reset')).status).toBe(200);
      // The connection is dropped by the reset, not by the deadline: the advance waits for nothing.
      expect((await adminCall(sb, 'POST', '/clock/advance', { seconds: 0 })).status).toBe(200);
      await until(async () => (slow.closed.length === 1 ? true : undefined), 'the connection to close', sb).catch(() => undefined);
      expect(slow.closed.length).toBe(1);
    } finally {
      await slow.close();
    }
  });
});

describe('secrets in webhook addresses', () => {
  it('credentials and query tokens are hidden in the delivery log, the dashboard and the log lines', async () => {
    const hooks = await receiver();
    try {
      // https (credentials are allowed only there); the plain-http receiver fails it, which is fine here.
      const url = hooks.url('/hooks?shop=42&token=tok_s3cr3t_value&sig=abc').replace('http://', 'https://merchant:hunter2@');
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: url }));
      expect(created.status).toBe(200);
      await until(async () => ((await adminCall(sb, 'GET', '/deliveries')).body[0]?.error ? true : undefined), 'the delivery', sb);
      const shown = [
        JSON.stringify((await adminCall(sb, 'GET', '/deliveries')).body),
        (await call('GET', `${sb.url}/_sandbox/`)).text,
        JSON.stringify((await adminCall(sb, 'GET', '/requests')).body),
        sb.lines.join('\n'),
      ];
      for (const text of shown) {
        expect(text).not.toContain('hunter2');
        expect(text).not.toContain('tok_s3cr3t_value');
        expect(text).not.toContain('sig=abc');
      }
      expect(shown[0]).toContain('shop=42');
      expect(shown[0]).toContain('token=***');
    } finally {
      await hooks.close();
    }
  });
});

describe('memory is bounded', () => {
  it('keeps the newest maxTransactions; the oldest are forgotten with their deliveries and scheduled changes', async () => {
    const hooks = await receiver();
    const small = await start({ maxTransactions: 3 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(
          (await post(`${small.url}/v2/merchants/payins/`, payinBody({ reference_id: `cap-${i}`, webhook_url: hooks.url() }))).body.id,
        );
      }
      expect((await transactions(small)).map((t) => t.id).sort()).toEqual(ids.slice(2).sort());
      expect((await get(`${small.url}/v2/merchants/payins/${ids[0]}`)).status).toBe(404);
      expect((await get(`${small.url}/v2/merchants/payins/?reference_id=cap-0`)).status).toBe(404);
      // Their expiry is cancelled: past 30 minutes only the three kept ones expire.
      await adminCall(small, 'POST', '/clock/advance', { seconds: 3600 });
      const expired = (await transactions(small)).filter((t) => t.status === 'expired');
      expect(expired.length).toBe(3);
      const announced = new Set(
        (await adminCall(small, 'GET', '/deliveries')).body
          .filter((a: { status: string }) => a.status === 'expired')
          .map((a: { transaction_id: string }) => a.transaction_id),
      );
      expect([...announced].sort()).toEqual(ids.slice(2).sort());
      // A forgotten reference can be used again.
      expect((await post(`${small.url}/v2/merchants/payins/`, payinBody({ reference_id: 'cap-0' }))).status).toBe(200);
    } finally {
      await small.close();
      await hooks.close();
    }
  });

  it('at the cap, always forgets the oldest, over many evictions and after a reset', async () => {
    const small = await start({ maxTransactions: 20 });
    try {
      const create = async (reference: string) =>
        (await post(`${small.url}/v2/merchants/payins/`, payinBody({ reference_id: reference }))).body.id as string;
      const first: string[] = [];
      for (let i = 0; i < 150; i++) first.push(await create(`many-${i}`));
      // The admin listing is in creation order: exactly the newest 20, oldest first.
      expect((await transactions(small)).map((t) => t.id)).toEqual(first.slice(-20));
      await adminCall(small, 'POST', '/reset');
      const second: string[] = [];
      for (let i = 0; i < 45; i++) second.push(await create(`again-${i}`));
      expect((await transactions(small)).map((t) => t.id)).toEqual(second.slice(-20));
    } finally {
      await small.close();
    }
  });

  it('refuses an unusable maxTransactions or allowHttpHosts', () => {
    expect(() => createSandbox({ maxTransactions: 0 })).toThrow(/maxTransactions/);
    expect(() => createSandbox({ allowHttpHosts: ['http://shop'] })).toThrow(/allowHttpHosts/);
    expect(() => createSandbox({ allowHttpHosts: 'shop' as never })).toThrow(/allowHttpHosts/);
  });
});

describe('docker-compose: plain http to named hosts, only when asked', () => {
  it('webhook_url http://shop:3000/... is refused by default and accepted with allowHttpHosts', async () => {
    const url = 'http://sandbox.test/v2/merchants/payins/';
    const send = async (core: ReturnType<typeof createSandbox>, webhook: string) => {
      const body = JSON.stringify(payinBody({ webhook_url: webhook }));
      return core.fetch(
        new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) } }),
      );
    };
    const strict = createSandbox({ merchants: [M1] });
    const compose = createSandbox({ merchants: [M1], allowHttpHosts: ['shop'] });
    try {
      const refused = await send(strict, 'http://shop:3000/webhooks/pay');
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.errors[0].path).toBe('webhook_url');
      expect((await send(compose, 'http://shop:3000/webhooks/pay')).status).toBe(200);
      expect((await send(compose, 'http://other:3000/webhooks/pay')).status).toBe(400);
      expect(() => createSandbox({ merchants: [{ ...M1, webhookUrl: 'http://shop:3000/hooks' }] })).toThrow(/webhookUrl/);
      createSandbox({ merchants: [{ ...M1, webhookUrl: 'http://shop:3000/hooks' }], allowHttpHosts: ['shop'] }).close();
    } finally {
      strict.close();
      compose.close();
    }
  });
});

describe('GET /', () => {
  it('sends a browser to the dashboard and gives anything else an index', async () => {
    const browserish = await call('GET', `${sb.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browserish.status).toBe(303);
    expect(browserish.headers.get('location')).toBe(`${sb.url}/_sandbox/`);
    const index = await call('GET', `${sb.url}/`);
    expect(index.status).toBe(200);
    expect(index.body).toMatchObject({ base_url: sb.url, card_proxy_url: `${sb.url}/card-proxy`, dashboard: `${sb.url}/_sandbox/` });
    expect(index.body.endpoints).toContain('POST /v2/merchants/payins/');
  });
});

// In a real browser: a page cannot frame the sandbox, and a page reached under a rebound name
// (Chromium told to resolve it to 127.0.0.1, as a rebinding attack makes it) gets nothing.
const haveBrowser = browserAvailable('@pay/sandbox safety test in Chromium');

describe.skipIf(!haveBrowser)(`in Chromium${haveBrowser ? '' : ' (SKIPPED: no Chromium)'}`, () => {
  let browser: Browser;
  let target: Awaited<ReturnType<typeof startSandbox>>;
  let attacker: ReturnType<typeof createServer>;
  let attackerUrl = '';
  beforeAll(async () => {
    target = await startSandbox({ merchants: [M1] });
    attacker = createServer((_req, res) => {
      const created = (globalThis as { framed?: string }).framed ?? '';
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>decoy</title><h1>Win a prize</h1><iframe id="f" src="${created}" width="600" height="400"></iframe>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
    browser = await launchChromium(['--host-resolver-rules=MAP rebind.example.com 127.0.0.1']);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await target?.close();
    attacker?.close();
  });

  it('a decoy page cannot frame the payment page or the dashboard', async () => {
    const created = await post(`${target.url}/v2/merchants/payins/`, payinBody());
    for (const framed of [created.body.next_action.url as string, `${target.url}/_sandbox/`]) {
      (globalThis as { framed?: string }).framed = framed;
      const page = await browser.newPage();
      await page.goto(attackerUrl);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      // Blocked by X-Frame-Options / frame-ancestors: the frame holds an error page, not ours.
      const content = await frame?.content().catch(() => '');
      expect(content ?? '').not.toContain('Payments sandbox');
      expect(content ?? '').not.toContain('id="pay"');
      await page.close();
    }
    expect((await get(`${target.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
  });

  it('a page under a rebound name reads nothing and changes nothing', async () => {
    await post(`${target.url}/v2/merchants/payins/`, payinBody());
    const before = await transactions(target);
    const page = await browser.newPage();
    const port = new URL(target.url).port;
    const landing = await page.goto(`http://rebind.example.com:${port}/_sandbox/`);
    expect(landing?.status()).toBe(421);
    const results = await page.evaluate(async () => {
      const read = await fetch('/_sandbox/transactions').then((r) => r.status);
      const reset = await fetch('/_sandbox/reset', { method: 'POST' }).then((r) => r.status);
      const advance = await fetch('/_sandbox/clock/advance', { method: 'POST', body: '{"seconds":3600}' }).then((r) => r.status);
      return { read, reset, advance };
    });
    expect(results).toEqual({ read: 421, reset: 421, advance: 421 });
    expect(await transactions(target)).toEqual(before);
    expect((await adminCall(target, 'GET', '/clock')).body.now.slice(0, 13)).toBe(new Date().toISOString().slice(0, 13));
    await page.close();
  });
});
