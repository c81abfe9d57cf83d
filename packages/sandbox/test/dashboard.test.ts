// The dashboard and the hosted payment page in a real browser (Debian's headless Chromium through
// playwright-core): it refreshes by itself, a click changes a status and the delivery it causes
// shows up, and the hosted page redirects the customer. Screenshots go to .reports/.
// Without Chromium this is skipped, visibly, unless PAY_REQUIRE_BROWSER=1 (CI) makes it a failure.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, BROWSER_TEST_MS, launch, REPORTS } from './browser.js';
import { adminCall, CARD, get, payinBody, post, push, receiver, start } from './helpers.js';

let browser: Browser | undefined;
let sb: Awaited<ReturnType<typeof start>>;
let hooks: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  if (!available) return;
  sb = await start();
  hooks = await receiver();
  browser = await launch();
}, BROWSER_TEST_MS);

afterAll(async () => {
  await sb?.close();
  await hooks?.close();
});

describe('dashboard in headless Chromium', () => {
  it.skipIf(!available)(
    'shows a new payin by itself; Execute changes its status and the webhook it causes appears',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(sb.dashboardUrl);
      await expect(page.locator('main').textContent()).resolves.toContain('No transactions yet');

      // Created behind the page's back: the change feed makes it appear.
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'browser-1', webhook_url: hooks.url() }));
      const id = created.body.id as string;
      const row = page.locator(`tr[data-transaction="${id}"]`);
      await row.waitFor();
      await expect(row.locator('.status').textContent()).resolves.toBe('new');
      expect(JSON.parse((await hooks.next(id)).body).status).toBe('new');

      // The click: Execute.
      await row.locator('button[data-status="executed"]').click();
      await page.locator(`tr[data-transaction="${id}"] .status-executed`).waitFor();
      const delivered = page.locator(`tr[data-deliveries="${id}"] tr[data-webhook-status="executed"] .answer`);
      await delivered.filter({ hasText: '200' }).waitFor();

      // What the page shows is what happened: the record, and the webhook the receiver verified.
      expect((await get(`${sb.url}/v2/merchants/payins/${id}`)).body.status).toBe('executed');
      const webhook = await hooks.next(id);
      expect(JSON.parse(webhook.body)).toEqual({ id, reference_id: 'browser-1', status: 'executed' });
      const log = (await adminCall(sb, 'GET', `/deliveries?transaction_id=${id}`)).body;
      expect(log.map((a: { status: string; response_status: number }) => [a.status, a.response_status])).toEqual([
        ['new', 200],
        ['executed', 200],
      ]);
      // No more Execute button on a final transaction.
      await expect(page.locator(`tr[data-transaction="${id}"] button[data-status]`).count()).resolves.toBe(0);

      // Card data on the page: the last four digits only.
      const card = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({ method: 'card', reference_id: 'browser-card', webhook_url: hooks.url() }),
      );
      await push(card.body.next_action.url, card.body.id, CARD);
      await page.locator(`tr[data-transaction="${card.body.id}"] .status-executed`).waitFor();
      const html = await page.content();
      expect(html).toContain('•••• 4242');
      expect(html).not.toContain(CARD.pan);
      expect(html).not.toContain('sk_test');

      // Advance the clock from the page: +1 h.
      const before = await page.locator('#clock').getAttribute('datetime');
      await page.locator('button[data-action="advance"][data-seconds="3600"]').click();
      await page.waitForFunction((old) => document.getElementById('clock')?.getAttribute('datetime') !== old, before);
      const moved = Date.parse((await page.locator('#clock').getAttribute('datetime'))!) - Date.parse(before!);
      expect(moved).toBeGreaterThanOrEqual(3600_000);

      await page.screenshot({ path: join(REPORTS, 'dashboard.png'), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'Resend last webhook starts a new delivery',
    async () => {
      const page = await browser!.newPage();
      await page.goto(sb.dashboardUrl);
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'browser-resend', webhook_url: hooks.url() }));
      await hooks.next(created.body.id);
      const row = page.locator(`tr[data-transaction="${created.body.id}"]`);
      await row.waitFor();
      // With the webhook attempts, under the transaction's row.
      await page.locator(`tr[data-deliveries="${created.body.id}"] button[data-action="resend"]`).click();
      expect(JSON.parse((await hooks.next(created.body.id)).body)).toMatchObject({ id: created.body.id, status: 'new' });
      await page.locator(`tr[data-deliveries="${created.body.id}"] tr[data-webhook-status="new"]`).nth(1).waitFor();
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('hosted payment page in headless Chromium', () => {
  it.skipIf(!available)(
    'Pay redirects the customer to redirect_urls.success and executes the payin',
    async () => {
      const page = await browser!.newPage();
      const created = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({
          reference_id: 'browser-pay',
          webhook_url: hooks.url(),
          redirect_urls: { success: hooks.url('/thanks'), fail: hooks.url('/sorry') },
        }),
      );
      await page.goto(created.body.next_action.url);
      await expect(page.locator('#amount').textContent()).resolves.toBe('10.50 EUR');
      await page.screenshot({ path: join(REPORTS, 'hosted-page.png') });
      await Promise.all([page.waitForURL(hooks.url('/thanks')), page.locator('#pay').click()]);
      expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'Decline redirects to redirect_urls.fail and fails the payin',
    async () => {
      const page = await browser!.newPage();
      const created = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({
          reference_id: 'browser-decline',
          webhook_url: hooks.url(),
          redirect_urls: { success: hooks.url('/thanks'), fail: hooks.url('/sorry') },
        }),
      );
      await page.goto(created.body.next_action.url);
      await Promise.all([page.waitForURL(hooks.url('/sorry')), page.locator('#decline').click()]);
      expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body).toMatchObject({
        status: 'failed',
        error_code: 'declined',
      });
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});
