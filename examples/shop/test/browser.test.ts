// The whole flow in a real browser (headless Chromium from the system, driven by playwright-core):
// the customer clicks Pay in the shop, pays or declines on the sandbox's hosted payment page,
// comes back to the shop, and sees the order settled by the webhook. Then the webhook endpoint
// fails twice, the sandbox's clock is advanced, and the third attempt settles the order, once.
// Screenshots go to .reports/ as artifacts. Without Chromium this file is skipped and says so,
// unless PAY_REQUIRE_BROWSER=1 (set by CI), which makes a missing browser a failure.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, deliveries, handled, referenceIn, startBoth, waitFor, type Running } from './helpers.js';

const available = browserAvailable('examples/shop browser test');

const SHOTS = join(import.meta.dirname, '..', '.reports');
/** How long a page may take to show what the test waits for (the page reloads itself each second). */
const SETTLE_MS = 10_000;

let run: Running;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  if (!available) return;
  mkdirSync(SHOTS, { recursive: true });
  run = await startBoth({ testControls: true });
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await run?.close();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** From the product page to the hosted payment page: returns the payin's id. */
async function checkout(product: string): Promise<string> {
  await page.goto(`${run.shop.url}/`);
  await Promise.all([
    page.waitForURL(`${run.sandbox.url}/_sandbox/pay/*`),
    page.locator(`[data-product="${product}"] button[data-action="pay"]`).click(),
  ]);
  return page.url().split('/').pop()!;
}

/** Waits until the order page (which reloads itself while pending) shows this status. */
async function statusShown(status: string): Promise<void> {
  await page.locator(`#status [data-status="${status}"]`).waitFor({ timeout: SETTLE_MS });
}

describe.skipIf(!available)(`the shop in Chromium${available ? '' : ' (SKIPPED: no Chromium)'}`, () => {
  it('pay on the hosted page: back on the success page, the order is marked paid by the webhook', async () => {
    await page.goto(`${run.shop.url}/`);
    await shot('0-product-page');
    const payinId = await checkout('mug');
    await expect(page.locator('#amount').textContent()).resolves.toContain('12.5');
    await shot('1-hosted-payment-page');

    await Promise.all([page.waitForURL(`${run.shop.url}/orders/*/success`), page.locator('#pay').click()]);
    const reference = referenceIn(page.url());
    await expect(page.locator('#arrival').getAttribute('data-arrival')).resolves.toBe('success');
    await statusShown('paid');
    await shot('2-success-page-paid');

    expect(await run.shop.orders.get(reference)).toMatchObject({ transactionId: payinId, status: 'paid', kind: 'payin', amount: '12.50' });
    expect(handled(run.log, reference, 'executed', 'webhook')).toBe(1);
    await expect(page.locator('#history [data-event="executed"]').getAttribute('data-source')).resolves.toBe('webhook');

    await page.goto(`${run.shop.url}/orders`);
    await expect(page.locator(`tr[data-order="${reference}"]`).getAttribute('data-status')).resolves.toBe('paid');
    await shot('3-orders-page');
  });

  it('decline on the hosted page: back on the fail page, the order is marked failed', async () => {
    await checkout('tee');
    await Promise.all([page.waitForURL(`${run.shop.url}/orders/*/fail`), page.locator('#decline').click()]);
    const reference = referenceIn(page.url());
    await statusShown('failed');
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment not completed');
    await shot('4-fail-page-failed');
    expect((await run.shop.orders.get(reference))!.status).toBe('failed');
    expect(handled(run.log, reference, 'failed', 'webhook')).toBe(1);
  });

  it('the webhook endpoint fails twice; after the clock moves 15 min the third attempt marks the order paid, exactly once', async () => {
    const control = await fetch(`${run.shop.url}/_test/webhook-failures`, {
      method: 'POST',
      body: JSON.stringify({ count: 2, status: 'executed' }),
    });
    expect(control.status).toBe(200);

    const payinId = await checkout('poster');
    await Promise.all([page.waitForURL(`${run.shop.url}/orders/*/success`), page.locator('#pay').click()]);
    const reference = referenceIn(page.url());

    // Attempts 1 and 2 (at once) were answered 500; attempt 3 is planned 15 min later.
    const executed = async () => (await deliveries(run.sandbox, payinId)).filter((d) => d.status === 'executed');
    const failedTwice = await waitFor('two failed attempts and a third planned', async () => {
      const log = await executed();
      return log.length === 3 && log[1]!.sent_at !== null && log;
    });
    expect(failedTwice.map((d) => [d.attempt, d.response_status])).toEqual([
      [1, 500],
      [2, 500],
      [3, null],
    ]);
    expect(failedTwice[2]!.sent_at).toBeNull();
    expect(Date.parse(`${failedTwice[2]!.due_at}Z`) - Date.parse(`${failedTwice[1]!.sent_at}Z`)).toBeGreaterThanOrEqual(15 * 60 * 1000);
    await page.reload();
    await statusShown('pending');
    await shot('5-success-page-pending-while-webhooks-fail');
    expect((await run.shop.orders.get(reference))!.status).toBe('pending');
    expect(handled(run.log, reference, 'executed')).toBe(0);

    // The clock moves 15 min: the third attempt is answered 200 and the order is paid.
    await advanceClock(run.sandbox, 15 * 60);
    const settled = await executed();
    expect(settled.map((d) => [d.attempt, d.response_status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    await statusShown('paid');
    await shot('6-success-page-paid-after-retry');

    // A resend of the same status is acknowledged and not processed again.
    const resend = await fetch(`${run.sandbox.url}/_sandbox/payins/${payinId}/resend`, { method: 'POST' });
    expect(resend.status).toBe(200);
    await waitFor('the resend answered', async () => (await executed()).length === 4 && (await executed())[3]!.response_status !== null);
    expect((await executed()).map((d) => [d.attempt, d.response_status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
      [1, 200],
    ]);

    // The handler ran three times for it; the first two threw (the test control) and rolled back.
    expect(handled(run.log, reference, 'executed', 'webhook')).toBe(1);
    expect(run.log.filter((l) => l.startsWith('webhook answered 500 (handler_failed)'))).toHaveLength(2);
    expect(run.log).toContain(`${reference}: executed from webhook (a duplicate, acknowledged)`);
    await page.reload();
    await expect(page.locator('#history [data-source="webhook"][data-event="executed"]').count()).resolves.toBe(1);
  });
});
