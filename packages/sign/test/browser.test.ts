// @pay/sign in a real browser (headless Chromium), as its default export condition resolves:
// the built files and @noble/hashes served as they are, no bundler, `#hmac` mapped by an import
// map derived from package.json. The page runs every golden vector and reports back.
// Chromium comes from the system (Debian's `chromium`); without it this test is skipped and says
// so, unless PAY_REQUIRE_BROWSER=1 (set by CI), which makes a missing browser a failure.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { BROWSER_TEST_MS, browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const available = browserAvailable('@pay/sign browser test');

const pkg = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const roots: Record<string, string> = {
  '/sign/': join(pkg, 'dist'),
  '/noble/': realpathSync(join(pkg, 'node_modules', '@noble', 'hashes')),
  '/vectors/': join(pkg, '..', '..', 'vectors'),
};
const vectorFiles = readdirSync(roots['/vectors/']!).filter((f) => /^(sign|verify)_.*\.json$/.test(f));
// What a bundler does for the browser: `#hmac` by its default condition, the entry by `exports`.
const importMap = {
  imports: {
    '#hmac': `/sign/${manifest.imports['#hmac'].default.replace('./dist/', '')}`,
    '@noble/hashes/': '/noble/',
  },
};
const entry = `/sign/${manifest.exports['.'].default.replace('./dist/', '')}`;

const page = `<!doctype html><meta charset="utf-8">
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module">
  let sign;
  try {
    sign = await import(${JSON.stringify(entry)});
  } catch (error) {
    window.result = { error: String(error) };
    throw error;
  }
  const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const failures = [];
  let count = 0;
  for (const file of ${JSON.stringify(vectorFiles)}) {
    const data = await (await fetch('/vectors/' + file)).json();
    for (const v of data.vectors) {
      count++;
      const i = v.input;
      let ok;
      if (data.command === 'sign_request') {
        const r = { merchantId: i.merchant_id, timestamp: i.timestamp, method: i.method, url: i.url, body: b64(i.body_b64) };
        ok = same(sign.signRequest({ ...r, secret: i.secret }), v.expected.headers) && same([...sign.stringToSign(r)], [...b64(v.string_to_sign_b64)]);
      } else if (data.command === 'sign_simplified') {
        ok = same(sign.signSimplified({ merchantId: i.merchant_id, timestamp: i.timestamp, payinId: i.payin_id, secret: i.secret }), v.expected.headers);
      } else {
        const r = sign.verifyRequest({ merchantId: i.merchant_id, secret: i.secret, method: i.method, url: i.url, headers: i.headers, body: b64(i.body_b64), now: Number(i.now) });
        ok = v.expected.verdict === 'invalid' ? !r.ok && r.reason === v.expected.reason : r.ok; // acceptable: accepted, as documented
      }
      if (!ok) failures.push(v.id);
    }
  }
  window.result = { count, failures, node: typeof process !== 'undefined' };
</script>`;

const types: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json' };
let server: Server;
let base = '';
let browser: Browser | undefined;

beforeAll(async () => {
  if (!available) return;
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    const root = Object.keys(roots).find((r) => path.startsWith(r));
    const file = root && normalize(join(roots[root]!, path.slice(root.length)));
    if (!root || !file!.startsWith(roots[root]!) || !existsSync(file!)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[extname(file!)] ?? 'application/octet-stream' }).end(readFileSync(file!));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, BROWSER_TEST_MS);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe('in headless Chromium, without a bundler', () => {
  it.skipIf(!available)(
    'passes every golden vector on the default (pure JavaScript) backend',
    async () => {
      const tab = await browser!.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(String(e)));
      await tab.goto(`${base}/`);
      const result = (
        await tab.waitForFunction(() => (window as unknown as { result?: unknown }).result, null, { timeout: 30_000 })
      ).jsonValue();
      expect(errors).toEqual([]);
      expect(await result).toEqual({ count: expect.any(Number), failures: [], node: false });
      expect(((await result) as { count: number }).count).toBeGreaterThan(160);
    },
    BROWSER_TEST_MS,
  );
});
