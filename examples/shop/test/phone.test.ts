// Every page of the shop fits the window, on a desktop (1280 px) and on a phone (390 px): nothing
// scrolls sideways, with long names, e-mail addresses, references and transaction ids in the
// rows. Real Chromium (playwright-core) against the real shop and sandbox. Screenshots of the
// phone pages go to .reports/. Without Chromium this file is skipped and says so, unless
// PAY_REQUIRE_BROWSER=1 (set by CI).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, type Running, referenceIn, startBoth } from './helpers.js';

const available = browserAvailable('examples/shop phone test');
const SHOTS = join(import.meta.dirname, '..', '.reports');

let run: Running;
let browser: Browser | undefined;
/** The order pages to look at, by name. */
const orders: Record<string, string> = {};

/** Creates an order through the shop's own form; returns the order page's path. */
async function order(path: string, fields: Record<string, string>): Promise<string> {
  const response = await postForm(run.shop, path, fields);
  expect(response.status).toBe(303);
  return `/orders/${encodeURIComponent(referenceIn(response.headers.get('location')!))}`;
}

beforeAll(async () => {
  if (!available) return;
  mkdirSync(SHOTS, { recursive: true });
  run = await startBoth();
  browser = await launchChromium();
  // Rows with the longest values a page shows: a paid and a declined card payin (with events and
  // a reason), a hosted-page payin still pending, and a payout to someone with a long name.
  orders['paid'] = await order('/checkout/card', { product: 'mug', card: 'visa-ok' });
  orders['declined'] = await order('/checkout/card', { product: 'tee', card: 'visa-declined' });
  const hosted = await postForm(run.shop, '/checkout', { product: 'poster' });
  const payinId = hosted.headers.get('location')!.split('/').pop();
  const pending = (await run.shop.orders.list()).find((o) => o.transactionId === payinId)!;
  orders['pending'] = `/orders/${encodeURIComponent(pending.reference)}`;
  orders['payout'] = await order('/payouts', {
    first_name: 'Maximiliana-Alexandra',
    last_name: 'Wolfeschlegelsteinhausenbergerdorff',
    email: 'maximiliana.wolfeschlegelsteinhausenbergerdorff@a-rather-long-domain.example',
    country_code: '+33',
    phone: '612345678',
    amount: '1234567.89',
    currency: 'EUR',
  });
});

afterAll(async () => {
  await browser?.close();
  await run?.close();
});

/**
 * The page's viewport meta and how far it scrolls sideways (the document's width past the
 * window's), read in one evaluation. A page waiting for the service reloads itself (the orders
 * list while an order waits): a reload in the middle destroys the evaluation, so it is read again
 * from the page that reload brought.
 */
async function measure(page: Page): Promise<{ viewport: string | null; scrollWidth: number; innerWidth: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.waitForLoadState('load');
      return await page.evaluate(() => ({
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null,
        scrollWidth: document.scrollingElement!.scrollWidth,
        innerWidth: window.innerWidth,
      }));
    } catch (error) {
      if (attempt >= 5 || !/context was destroyed|navigat/i.test(String(error))) throw error;
    }
  }
}

/**
 * The references, transaction ids (`.ident`) and kinds (payin, payout: "payi n" once) of a page
 * whose text takes more than one line: its line boxes (a Range's rectangles) at more than one height.
 */
function brokenIdentifiers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.ident, td[data-label="Kind"]')]
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
      })
      .map((el) => el.textContent ?? ''),
  );
}

/** The payout form refused, its errors shown above it (submitted without the browser's own checks). */
async function refusedPayoutForm(page: Page): Promise<void> {
  await page.goto(`${run.shop.url}/payouts/new`);
  await page.fill('input[name="first_name"]', 'S');
  await page.fill('input[name="last_name"]', 'Roe');
  await page.fill('input[name="email"]', 'not-an-address-but-a-very-long-string-without-any-at-sign-in-it');
  await page.fill('input[name="amount"]', '12,50');
  await Promise.all([
    page.waitForURL(`${run.shop.url}/payouts`),
    page.evaluate(() => {
      const form = document.querySelector('form[action="/payouts"]') as HTMLFormElement;
      form.noValidate = true;
      form.requestSubmit();
    }),
  ]);
  await page.locator('#errors li').first().waitFor();
}

describe.skipIf(!available)(`the shop's pages fit the window${available ? '' : ' (SKIPPED: no Chromium)'}`, () => {
  const pages: [string, (page: Page) => Promise<unknown>][] = [
    ['the product page', (page) => page.goto(`${run.shop.url}/`)],
    // At its last reload (it stops reloading, and says so), so that it holds still to be measured.
    ['the orders list', (page) => page.goto(`${run.shop.url}/orders?reloads=60`)],
    ['a paid order', (page) => page.goto(`${run.shop.url}${orders['paid']}`)],
    ['a declined order', (page) => page.goto(`${run.shop.url}${orders['declined']}`)],
    ['a payout order', (page) => page.goto(`${run.shop.url}${orders['payout']}`)],
    ['a pending order that stopped reloading', (page) => page.goto(`${run.shop.url}${orders['pending']}?reloads=60`)],
    ['the payout form', (page) => page.goto(`${run.shop.url}/payouts/new`)],
    ['the payout form with its errors', refusedPayoutForm],
  ];

  for (const width of [1280, 390]) {
    it.each(pages)(`${width} px: %s does not scroll sideways`, async (name, open) => {
      const context = await browser!.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        await open(page);
        const { viewport, scrollWidth, innerWidth } = await measure(page);
        expect(viewport?.split(',').map((s) => s.trim())).toEqual(['width=device-width', 'initial-scale=1']);
        expect(innerWidth).toBe(width);
        await page.screenshot({
          path: join(SHOTS, `${width === 390 ? 'phone' : 'desktop'}-${name.replaceAll(' ', '-')}.png`),
          fullPage: true,
        });
        expect(scrollWidth, `${name} at ${width} px is ${scrollWidth} px wide`).toBeLessThanOrEqual(innerWidth);
        // On a wide screen a reference or a transaction id is never broken across lines: its box is one line high.
        if (width === 1280) expect(await brokenIdentifiers(page), `${name}: identifiers on more than one line`).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a pending order reloads itself in Chromium, counting its reloads, and after the last one stops and says so', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${run.shop.url}${orders['pending']}`);
      await page.waitForURL(`${run.shop.url}${orders['pending']}?reloads=1`);
      await page.waitForURL(`${run.shop.url}${orders['pending']}?reloads=2`);
      // The last reload (after 30 s): the page stays, says it stopped, and its link starts over.
      await page.goto(`${run.shop.url}${orders['pending']}?reloads=59`);
      await expect(page.locator('meta[http-equiv="refresh"]').getAttribute('content')).resolves.toBe(
        `30; url=${orders['pending']}?reloads=60`,
      );
      await page.goto(`${run.shop.url}${orders['pending']}?reloads=60`);
      await expect(page.locator('meta[http-equiv="refresh"]').count()).resolves.toBe(0);
      await expect(page.locator('#stopped').textContent()).resolves.toMatch(
        /^Still waiting for the payments service after about 9 minutes/,
      );
      await Promise.all([page.waitForURL(`${run.shop.url}${orders['pending']}`), page.locator('#stopped a').click()]);
      await page.waitForURL(`${run.shop.url}${orders['pending']}?reloads=1`);
    } finally {
      await context.close();
    }
  });

  it('on a phone the orders list is stacked rows, each value under its column name', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${run.shop.url}/orders`);
      // The list reloads itself every second while an order waits for its webhook: read it in one
      // evaluation, again if a reload came in the middle of one.
      const read = () =>
        page.evaluate(() => {
          const row = document.querySelector('table.rows tbody tr');
          const head = document.querySelector('table.rows thead');
          const amount = row?.querySelector('td[data-label="Amount"]');
          return {
            row: row ? getComputedStyle(row).display : null,
            head: head ? getComputedStyle(head).display : null,
            label: amount ? getComputedStyle(amount, '::before').getPropertyValue('content') : null,
          };
        });
      let seen: Awaited<ReturnType<typeof read>> | undefined;
      for (let attempt = 0; seen === undefined && attempt < 10; attempt++) {
        seen = await read().catch(async () => {
          await page.waitForLoadState();
          return undefined;
        });
      }
      expect(seen).toEqual({ row: 'block', head: 'none', label: '"Amount: "' });
    } finally {
      await context.close();
    }
  });
});
