// What a newcomer saw in their first hour, measured in Chromium at 1280 px and 390 px:
// - ids, references and e-mail addresses broke mid-word at 1280 ("payou t",
//   "pi_jakwcqfz1rdabg1j qem9"): each is on one line there now (its box one line high), and a
//   phone still never scrolls sideways;
// - a payout whose receiver failed every attempt pushed the other transactions off the
//   dashboard's first screen: its attempts fold into one line ("10 webhook attempts, last: 500");
// - after an advance the dashboard said 17:17 and the requests page 16:15, unlabelled: every time
//   now names its clock, and the dashboard says how far the schedule clock is ahead.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, BROWSER_TEST_MS, DESKTOP, documentWidth, launch, PHONE, REPORTS } from './browser.js';
import { get, payinBody, payoutBody, post, receiver, sandboxForFile, type Started, until } from './helpers.js';
import { join } from 'node:path';

let sb!: Started;
sandboxForFile((s) => (sb = s));
let browser: Browser | undefined;
// A receiver that answers every webhook of a payout with 500, the others with 200.
let hooks: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  if (!available) return;
  hooks = await receiver((_n, r) => (/"id":"po_/.test(r.body) ? 500 : 200));
  browser = await launch();
}, BROWSER_TEST_MS);

afterAll(async () => {
  await hooks?.close();
});

const EMAIL = 'jane.doe.longname@shop-example-domain.example';

/** Two payins, then two payouts whose receiver fails all five attempts of `new` and of `executed`. */
async function firstHour(): Promise<{ payins: string[]; payouts: string[] }> {
  const payins: string[] = [];
  for (const reference of ['order-2026-11-23-0001', 'order-2026-11-23-0002']) {
    const customer = { ...payinBody().customer, email: EMAIL };
    payins.push(
      (await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: reference, customer, webhook_url: hooks.url() }))).body.id,
    );
  }
  const payouts: string[] = [];
  for (const reference of ['payout-2026-11-23-0001', 'payout-2026-11-23-0002']) {
    payouts.push(
      (await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: reference, webhook_url: hooks.url() }))).body.id,
    );
  }
  // A lookup by id: its path on the requests page holds the id.
  await get(`${sb.url}/v2/merchants/payouts/${payouts[0]}`);
  // Two hours on: each payout executed after 60 s, and both of its webhooks retried to the end.
  await sb.admin.advance(2 * 3600);
  for (const id of payouts) {
    await until(
      async () => (await sb.admin.deliveries(id)).filter((d) => d.response_status !== null).length === 10,
      `10 attempts of ${id}`,
      sb,
    );
  }
  return { payins, payouts };
}

/** The identifiers of a page that are not on one line: each `.ident` box, as many lines as its height holds. */
function brokenIdentifiers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.ident')]
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        const line = Number.parseFloat(getComputedStyle(el).lineHeight);
        return el.getClientRects().length !== 1 || el.getBoundingClientRect().height > line * 1.5;
      })
      .map((el) => el.textContent ?? ''),
  );
}

/** How many lines the text `what` takes where it appears in the element (a Range's line boxes). */
function linesOf(page: Page, selector: string, what: string): Promise<number> {
  return page.evaluate(
    ([sel, text]) => {
      const el = document.querySelector(sel)!;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) nodes.push(n as Text);
      // The text may span several nodes (a <wbr> splits it): find where it starts and ends.
      const whole = nodes.map((n) => n.data).join('');
      const at = whole.indexOf(text);
      if (at < 0) return -1;
      const place = (offset: number): [Text, number] => {
        let left = offset;
        for (const n of nodes) {
          if (left <= n.data.length) return [n, left];
          left -= n.data.length;
        }
        throw new Error('past the end');
      };
      const range = document.createRange();
      range.setStart(...place(at));
      range.setEnd(...place(at + text.length));
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    },
    [selector, what] as const,
  );
}

describe('ids, references and e-mail addresses', () => {
  it.skipIf(!available)(
    'are on one line at 1280 px on the dashboard, the requests page and a timeline; nothing scrolls sideways at 390 px',
    async () => {
      const { payins, payouts } = await firstHour();
      const pages = ['/_sandbox/', '/_sandbox/log', `/_sandbox/timeline/${payouts[0]}`, `/_sandbox/timeline/${payins[0]}`];
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await browser!.newPage({ viewport });
        for (const path of pages) {
          await page.goto(`${sb.url}${path}`);
          await page.screenshot({ path: join(REPORTS, `first-screen-${size}-${path.split('/')[2] || 'dashboard'}.png`), fullPage: true });
          const width = await documentWidth(page);
          expect(width.scrollWidth, `${path} at ${size}`).toBeLessThanOrEqual(width.innerWidth);
          if (size === 'desktop') {
            expect(await page.locator('.ident').count(), path).toBeGreaterThan(0);
            expect(await brokenIdentifiers(page), `${path}: identifiers on more than one line`).toEqual([]);
          }
        }
        if (size === 'desktop') {
          // The lookup's path on the requests page breaks, if at all, after a slash: never inside the id.
          await page.goto(`${sb.url}/_sandbox/log`);
          await expect(linesOf(page, `tr.request[data-seq="5"] td.path`, payouts[0]!)).resolves.toBe(1);
          // An address breaks before its @ at most: each half whole.
          await page.goto(`${sb.url}/_sandbox/`);
          for (const half of ['jane.doe.longname', '@shop-example-domain.example'])
            await expect(linesOf(page, `#tx-${payins[0]} td.customer`, half)).resolves.toBe(1);
        }
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

describe('webhook attempts on the dashboard', () => {
  it.skipIf(!available)(
    'ten attempts fold into one line with the last answer, so every transaction starts on the first screen',
    async () => {
      const { payins, payouts } = await firstHour();
      const page = await browser!.newPage({ viewport: DESKTOP });
      await page.goto(`${sb.url}/_sandbox/`);
      for (const id of payouts) {
        const fold = page.locator(`#attempts-${id}`);
        await expect(fold.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
        await expect(fold.locator('summary').textContent()).resolves.toBe('10 webhook attempts, last: 500 Resend last webhook');
      }
      // A payin's few attempts stay in view.
      await expect(page.locator(`#attempts-${payins[0]}`).evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
      const tops = await page.locator('tr.transaction').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().top));
      expect(tops).toHaveLength(4);
      for (const top of tops) expect(top).toBeLessThan(DESKTOP.height);
      // The link to a payout's webhooks unfolds them; they are all there.
      await page.locator(`#tx-${payouts[0]} a[data-link="deliveries"]`).click();
      await expect(page.locator(`#attempts-${payouts[0]}`).evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
      await expect(page.locator(`#attempts-${payouts[0]} tbody tr`).count()).resolves.toBe(10);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('the clocks', () => {
  it.skipIf(!available)(
    'every time shown names its clock, and after an advance the dashboard says how far ahead the schedule clock is',
    async () => {
      const { payouts } = await firstHour(); // advances two hours
      // A payin still new: its hosted page says when it expires.
      const fresh = (await post(`${sb.url}/v2/merchants/payins/`, payinBody())).body.id as string;
      const page = await browser!.newPage({ viewport: DESKTOP });
      const pages = ['/_sandbox/', '/_sandbox/log', `/_sandbox/timeline/${payouts[0]}`, `/_sandbox/pay/${fresh}`];
      for (const path of pages) {
        await page.goto(`${sb.url}${path}`);
        const times = await page.locator('time').evaluateAll((els) => els.map((el) => el.getAttribute('data-clock')));
        expect(times.length, path).toBeGreaterThan(0);
        const text = await page.locator('body').textContent();
        for (const clock of new Set(times)) {
          // A time on a clock the page does not name is a time nobody can place.
          expect(['schedule', 'wall'], `${path}: data-clock`).toContain(clock);
          expect(text, `${path} names the ${clock} clock`).toContain(`${clock} clock`);
        }
      }
      await page.goto(`${sb.url}/_sandbox/`);
      await expect(page.locator('#clock-ahead').textContent()).resolves.toBe('2 h 0 min ahead of the wall clock');
      // The dashboard's own button moves it on, and the page that refreshes itself says so.
      await page.locator('button[data-action="advance"][data-seconds="900"]').click();
      await page.locator('#clock-ahead', { hasText: '2 h 15 min ahead of the wall clock' }).waitFor();
      // The requests page shows a request made after the advances on both clocks, that far apart.
      await get(`${sb.url}/v2/merchants/payouts/${payouts[1]}`);
      await page.goto(`${sb.url}/_sandbox/log`);
      const [scheduled, wall] = await page
        .locator('tr.request')
        .first()
        .locator('time')
        .evaluateAll((els) => els.map((el) => ({ clock: el.getAttribute('data-clock'), at: Date.parse(el.getAttribute('datetime')!) })));
      expect([scheduled!.clock, wall!.clock]).toEqual(['schedule', 'wall']);
      const ahead = (2 * 3600 + 15 * 60) * 1000;
      expect(scheduled!.at - wall!.at).toBeGreaterThanOrEqual(ahead - 1000);
      expect(scheduled!.at - wall!.at).toBeLessThan(ahead + 60_000);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});
