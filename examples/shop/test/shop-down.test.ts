// The shop down while the customer pays, in a real browser: the shop runs as its own process
// (dist/main.js, its orders in a PGlite data directory, its reconciler on the sandbox's clock).
// The customer reaches the hosted payment page, the shop is killed, the customer pays; every
// webhook attempt of the service's schedule then fails (the sandbox's clock is advanced through
// it), the shop is started again on the same data, and its reconciler finds the payment: the
// order turns paid once, from the reconciler, and the service holds one payin. Skipped without
// Chromium, like browser.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, type RunningSandbox, startSandbox } from '@pay/sandbox';
import { browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, handled, MAIN, spawnScript, waitFor } from './helpers.js';

const available = browserAvailable('examples/shop shop-down test');

const SHOTS = join(import.meta.dirname, '..', '.reports');
/** A shop process's banner within: PGlite starts (and, the first time, runs initdb) on a loaded machine. */
const STARTUP_MS = 60_000;

let sandbox: RunningSandbox;
let browser: Browser | undefined;
let dataDir: string;

beforeAll(async () => {
  if (!available) return;
  sandbox = await startSandbox();
  browser = await launchChromium();
  dataDir = mkdtempSync(join(tmpdir(), 'shop-down-'));
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!available)(`the shop down while the customer pays${available ? '' : ' (SKIPPED: no Chromium)'}`, () => {
  it('every webhook attempt fails; restarted, its reconciler finds the payment: the order is paid once, from the reconciler', async () => {
    // The same port both times: the service's webhook URL and the customer's return address name it.
    const port = await freePort();
    const shopUrl = `http://127.0.0.1:${port}`;
    const env = {
      PAY_BASE_URL: sandbox.url,
      PAY_CARD_PROXY_URL: sandbox.cardProxyUrl,
      SHOP_PORT: String(port),
      SHOP_DATA_DIR: dataDir,
      SHOP_SANDBOX_CLOCK: '1',
    };
    const start = async () => {
      const shop = spawnScript(env, MAIN);
      await waitFor('the shop to start', () => shop.output().includes('Press Ctrl-C'), STARTUP_MS);
      return shop;
    };
    const page = await browser!.newPage();
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

    const first = await start();
    let second: ReturnType<typeof spawnScript> | undefined;
    try {
      await page.goto(`${shopUrl}/`);
      await Promise.all([
        page.waitForURL(`${sandbox.url}/_sandbox/pay/*`),
        page.locator('[data-product="tee"] button[data-action="pay"]').click(),
      ]);
      const payinId = page.url().split('/').pop()!;
      const [payin] = (await sandbox.admin.transactions()).filter((t) => t.id === payinId);
      const reference = payin!.reference_id!;
      expect(handled(lines(first), reference, 'new')).toBe(1);

      // The shop dies (no clean stop), then the customer pays. The way back to the shop fails.
      first.child.kill('SIGKILL');
      await first.exited;
      await page.locator('#pay').click();
      await waitFor(
        'the payin executed',
        async () => (await sandbox.admin.transactions()).find((t) => t.id === payinId)?.status === 'executed',
      );
      await shot('7-shop-down-while-paying');

      // The service's whole schedule: two attempts at once, then one after each delay; all refused.
      const executed = async () => (await sandbox.admin.deliveries(payinId)).filter((d) => d.status === 'executed');
      await waitFor('the first two attempts', async () => (await executed()).filter((d) => d.sent_at !== null).length === 2);
      for (const delay of RETRY_DELAYS_MS.filter((ms) => ms > 0)) await sandbox.admin.advance(delay / 1000);
      const attempts = await executed();
      expect(attempts.map((d) => [d.attempt, d.response_status, d.sent_at !== null])).toEqual(
        Array.from({ length: MAX_ATTEMPTS }, (_, i) => [i + 1, null, true]),
      );
      expect(attempts.every((d) => d.error !== null)).toBe(true);

      // Restarted on the same data: its first reconciler pass finds the payin due (its first status
      // is 1 h 45 min old on the sandbox's clock) and looks it up.
      // The customer's tab still shows Chromium's error page for the way back, which reloads
      // itself once the address answers again: leave it first, or its reload and the visit
      // below interrupt each other.
      await page.goto('about:blank');
      second = await start();
      await page.goto(`${shopUrl}/orders/${encodeURIComponent(reference)}/success`);
      await page.locator('#status [data-status="paid"]').waitFor({ timeout: 30_000 });
      await expect(page.locator('#history [data-event="executed"]').getAttribute('data-source')).resolves.toBe('reconciler');
      await shot('8-paid-by-the-reconciler-after-restart');

      const log = [...lines(first), ...lines(second)];
      // The handler ran once for `executed`, from the reconciler, and never from a webhook.
      expect(handled(log, reference, 'executed')).toBe(1);
      expect(handled(log, reference, 'executed', 'reconciler')).toBe(1);
      expect(log).toContainEqual(`reconciler: looked up ${payinId} (${reference}): executed changed; no more lookups`);
      // The service holds one payin for the order, and has stopped sending webhooks.
      expect((await sandbox.admin.transactions()).filter((t) => t.reference_id === reference)).toHaveLength(1);
      expect(await executed()).toHaveLength(MAX_ATTEMPTS);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGKILL');
      await page.close();
    }
  });
});

/** A shop process's lines, without the time main.js puts before each. */
const lines = (shop: ReturnType<typeof spawnScript>) =>
  shop
    .output()
    .split('\n')
    .map((line) => line.replace(/^\S+Z /, ''));
