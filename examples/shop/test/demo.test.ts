// The two commands, spawned as a user runs them (free ports instead of 4010 and 3000):
// `pnpm demo` runs dist/demo.js, which prints both addresses, both answer, its reconciler follows
// the sandbox's clock, Ctrl-C (SIGINT) stops both and exits 0, and with SHOP_DATA_DIR a restart
// keeps everything; dist/main.js runs the shop alone against PAY_BASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@pay/sandbox';
import { describe, expect, it } from 'vitest';
import { closed, MAIN, postForm, spawnScript, waitFor } from './helpers.js';

/** Banner within: an in-memory PGlite runs initdb at each start, many seconds on a loaded machine. */
const STARTUP_MS = 60_000;

describe('pnpm demo (dist/demo.js)', () => {
  it('prints the shop and sandbox addresses, both serve, and SIGINT stops both with exit code 0', async () => {
    const demo = spawnScript({ PAY_SANDBOX_PORT: '0', SHOP_PORT: '0' });
    try {
      const banner = await waitFor('the banner', () => demo.output().includes('Press Ctrl-C') && demo.output(), STARTUP_MS);
      expect(banner).toContain('  database   PGlite, in memory (set SHOP_DATA_DIR to keep it)\n');
      // The journal starts the embedded database and says how long it took (from the cluster it keeps
      // in the cache directory, once any start on this machine has kept one).
      expect(banner).toMatch(/database: starting the embedded PGlite \(in memory\)/);
      expect(banner).toMatch(/database: the embedded PGlite is ready \(\d+\.\d s(, from the cluster kept in the cache directory)?\)/);
      const shopUrl = /shop\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)![1]!;
      const sandboxUrl = /sandbox\s+(http:\/\/127\.0\.0\.1:\d+)\s/.exec(banner)![1]!;
      expect(banner).toContain(`dashboard  ${sandboxUrl}/_sandbox/`);
      expect(banner).not.toContain('sk_sandbox_demo');
      // Every address it prints answers (a browser's request, redirects followed).
      const printed = [...new Set(banner.match(/http:\/\/127\.0\.0\.1:\d+[^\s]*/g) ?? [])];
      expect(printed.length).toBeGreaterThanOrEqual(5);
      for (const url of printed) {
        const answer = await fetch(url, { headers: { accept: 'text/html' } });
        expect(answer.status, url).toBe(200);
      }

      const home = await fetch(`${shopUrl}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('data-action="pay"');
      expect(await (await fetch(`${sandboxUrl}/_sandbox/health`)).json()).toEqual({ ok: true });

      // The two are wired together: Pay sends the customer to this sandbox's payment page.
      const pay = await postForm({ url: shopUrl }, '/checkout', { product: 'mug' });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toMatch(new RegExp(`^${sandboxUrl}/_sandbox/pay/pi_`));
      await waitFor(
        'the shop and the sandbox to log the payin',
        () =>
          /sandbox \| POST \/v2\/merchants\/payins\/ 200/.test(demo.output()) &&
          /shop +\| order-\w+: payin pi_\w+ created/.test(demo.output()),
      );

      // The shop's reconciler runs on the sandbox's clock: 15 minutes on, the unpaid payin is due
      // for its first lookup (on this machine's clock it would be due in 15 real minutes).
      const payinId = pay.headers.get('location')!.split('/').pop()!;
      const advanced = await fetch(`${sandboxUrl}/_sandbox/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 15 * 60 }) });
      expect(advanced.status).toBe(200);
      const lookedUp = await waitFor(
        'the reconciler to look the payin up',
        () =>
          new RegExp(`shop +\\| reconciler: looked up ${payinId} \\(order-\\w+\\): new unchanged; next lookup at (\\S+)`).exec(
            demo.output(),
          ) ?? undefined,
        30_000,
      );
      // The next one 30 min later on the sandbox's clock (the wait doubles from 15 min).
      const sandboxNow = Date.parse(`${((await (await fetch(`${sandboxUrl}/_sandbox/clock`)).json()) as { now: string }).now}Z`);
      expect(Date.parse(lookedUp[1]!) - sandboxNow).toBeGreaterThan(29 * 60_000);
      expect(demo.output()).not.toContain('GET /_sandbox/clock');

      demo.child.kill('SIGINT');
      expect(await demo.exited).toBe(0);
      expect(demo.output()).toContain('demo: stopped');
      expect(await closed(`${shopUrl}/`)).toBe(true);
      expect(await closed(`${sandboxUrl}/_sandbox/health`)).toBe(true);
    } finally {
      demo.child.kill('SIGKILL');
    }
  });

  it('with SHOP_DATA_DIR: the orders, their journal and the sandbox state survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shop-demo-'));
    const env = { PAY_SANDBOX_PORT: '0', SHOP_PORT: '0', SHOP_DATA_DIR: dir };
    const start = async () => {
      const demo = spawnScript(env);
      const banner = await waitFor('the banner', () => demo.output().includes('Press Ctrl-C') && demo.output(), STARTUP_MS);
      return { demo, shopUrl: /shop\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)![1]!, banner };
    };
    const first = await start();
    try {
      expect(first.banner).toContain(`  database   PGlite in ${join(dir, 'pglite')}\n`);
      const paid = await postForm({ url: first.shopUrl }, '/checkout/card', { product: 'poster', card: 'visa-ok' });
      const order = paid.headers.get('location')!.replace(/\/success$/, '');
      await waitFor('the order paid', async () => (await (await fetch(`${first.shopUrl}${order}`)).text()).includes('data-status="paid"'));
      first.demo.child.kill('SIGINT');
      expect(await first.demo.exited).toBe(0);
    } finally {
      first.demo.child.kill('SIGKILL');
    }
    const second = await start();
    try {
      const page = await (await fetch(`${second.shopUrl}/orders`)).text();
      const [, reference, payinId] =
        /data-order="(order-\w+)" data-status="paid">[\s\S]*?<td data-label="Transaction"><span class="ident">(pi_\w+)<\/span><\/td><\/tr>/.exec(
          page,
        )!;
      const history = await (await fetch(`${second.shopUrl}/orders/${reference}`)).text();
      expect(history).toMatch(/data-event="executed" data-source="webhook" data-outcome="change"/);
      const sandboxUrl = /sandbox\s+(http:\/\/127\.0\.0\.1:\d+)\s/.exec(second.banner)![1]!;
      const kept = (await (await fetch(`${sandboxUrl}/_sandbox/transactions`)).json()) as { id: string; status: string }[];
      expect(kept.map((t) => [t.id, t.status])).toEqual([[payinId, 'executed']]);
      second.demo.child.kill('SIGINT');
      expect(await second.demo.exited).toBe(0);
    } finally {
      second.demo.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a port in use: says which variable to set and exits 1', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    const demo = spawnScript({ PAY_SANDBOX_PORT: '0', SHOP_PORT: String(port) });
    try {
      expect(await demo.exited).toBe(1);
      expect(demo.output()).toContain(`demo: port ${port} is in use (set SHOP_PORT; 0 picks a free port)`);
    } finally {
      demo.child.kill('SIGKILL');
      busy.close();
    }
  });
});

describe('pnpm demo while a sandbox already runs on its port', () => {
  it('says a sandbox is already running there, and exits 1 before starting anything', async () => {
    const running = await startSandbox();
    const port = new URL(running.url).port;
    const demo = spawnScript({ PAY_SANDBOX_PORT: port, SHOP_PORT: '0' });
    try {
      expect(await demo.exited).toBe(1);
      expect(demo.output()).toContain(
        `demo: port ${port} is in use: a payments sandbox is already running there (another pnpm demo or pnpm sandbox?); stop it, or set PAY_SANDBOX_PORT (0 picks a free port)`,
      );
    } finally {
      demo.child.kill('SIGKILL');
      await running.close();
    }
  });
});

describe('the shop alone (dist/main.js)', () => {
  it('configured from the environment: prints its addresses (never the secret), takes a payin, stops on SIGTERM with exit code 0', async () => {
    const sandbox = await startSandbox({ merchants: [{ id: 'm_shop', secret: 'sk_shop_secret' }] });
    const shop = spawnScript({ PAY_BASE_URL: sandbox.url, PAY_MERCHANT_ID: 'm_shop', PAY_SECRET: 'sk_shop_secret', SHOP_PORT: '0' }, MAIN);
    try {
      const banner = await waitFor('the banner', () => shop.output().includes('Press Ctrl-C') && shop.output(), STARTUP_MS);
      expect(banner).toContain('database         PGlite, in memory');
      const url = /shop\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)![1]!;
      expect(banner).toContain(`webhook URL      ${url}/webhooks/pay`);
      expect(banner).toContain(`payments service ${sandbox.url} (merchant m_shop)`);
      const pay = await postForm({ url }, '/checkout', { product: 'tee' });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toMatch(new RegExp(`^${sandbox.url}/_sandbox/pay/pi_`));
      await waitFor('the new webhook acknowledged', () => /order-\w+: new from webhook \(a duplicate, acknowledged\)/.test(shop.output()));
      shop.child.kill('SIGTERM');
      expect(await shop.exited).toBe(0);
      expect(shop.output()).not.toContain('sk_shop_secret');
      expect(await closed(`${url}/`)).toBe(true);
    } finally {
      shop.child.kill('SIGKILL');
      await sandbox.close();
    }
  });

  it('an unusable variable: a message naming it, exit code 2', async () => {
    const shop = spawnScript({ PAY_BASE_URL: 'not a url', PAY_SECRET: 'sk_do_not_print' }, MAIN);
    expect(await shop.exited).toBe(2);
    expect(shop.output()).toBe('example shop: PAY_BASE_URL must be an absolute http(s) URL\n');
  });
});
