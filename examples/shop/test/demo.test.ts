// The two commands, spawned as a user runs them (free ports instead of 4010 and 3000):
// `pnpm demo` runs dist/demo.js, which prints both addresses, both answer, and Ctrl-C (SIGINT)
// stops both and exits 0; dist/main.js runs the shop alone against PAY_BASE_URL.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox } from '@pay/sandbox';
import { describe, expect, it } from 'vitest';
import { postForm, waitFor } from './helpers.js';

const DEMO = join(import.meta.dirname, '..', 'dist', 'demo.js');

const MAIN = join(import.meta.dirname, '..', 'dist', 'main.js');

function spawnScript(env: Record<string, string>, script = DEMO) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** True once nothing listens at `url` any more (the connection is refused). */
const closed = (url: string) =>
  fetch(url).then(
    () => false,
    (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
  );

describe('pnpm demo (dist/demo.js)', () => {
  it('prints the shop and sandbox addresses, both serve, and SIGINT stops both with exit code 0', async () => {
    const demo = spawnScript({ PAY_SANDBOX_PORT: '0', SHOP_PORT: '0' });
    try {
      const banner = await waitFor('the banner', () => demo.output().includes('Press Ctrl-C') && demo.output(), 15_000);
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

      demo.child.kill('SIGINT');
      expect(await demo.exited).toBe(0);
      expect(demo.output()).toContain('demo: stopped');
      expect(await closed(`${shopUrl}/`)).toBe(true);
      expect(await closed(`${sandboxUrl}/_sandbox/health`)).toBe(true);
    } finally {
      demo.child.kill('SIGKILL');
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

describe('the shop alone (dist/main.js)', () => {
  it('configured from the environment: prints its addresses (never the secret), takes a payin, stops on SIGTERM with exit code 0', async () => {
    const sandbox = await startSandbox({ merchants: [{ id: 'm_shop', secret: 'sk_shop_secret' }] });
    const shop = spawnScript({ PAY_BASE_URL: sandbox.url, PAY_MERCHANT_ID: 'm_shop', PAY_SECRET: 'sk_shop_secret', SHOP_PORT: '0' }, MAIN);
    try {
      const banner = await waitFor('the banner', () => shop.output().includes('Press Ctrl-C') && shop.output(), 15_000);
      const url = /shop\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)![1]!;
      expect(banner).toContain(`webhook URL      ${url}/webhooks/pay`);
      expect(banner).toContain(`payments service ${sandbox.url} (merchant m_shop)`);
      const pay = await postForm({ url }, '/checkout', { product: 'tee' });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toMatch(new RegExp(`^${sandbox.url}/_sandbox/pay/pi_`));
      await waitFor('the new webhook processed', () => / webhook order-\w+ new: recorded/.test(shop.output()));
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
