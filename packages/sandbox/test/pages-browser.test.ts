// The pages in headless Chromium, under their Content-Security-Policy, at desktop size (1280x800)
// and on a phone (390x844): screenshots in .reports/, and what they show checked: nothing wider
// than the screen, amounts and times as people write them, webhook attempts in time order,
// filters, links, and hostile values from a merchant shown as text, never run.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../src/http.js';
import { requestsPage } from '../src/requests-page.js';
import type { State } from '../src/state.js';
import { available, BROWSER_TEST_MS, DESKTOP, documentWidth, launch, outside, PHONE, REPORTS, watchedPage } from './browser.js';
import {
  adminCall,
  get,
  HOSTILE,
  logged,
  M1,
  M2,
  offlineState,
  payinBody,
  payoutBody,
  post,
  receiver,
  sandboxForFile,
  type Started,
  until,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));
let browser: Browser | undefined;
let hooks: Awaited<ReturnType<typeof receiver>>;

// Webhooks of payins whose reference starts with `retry-` fail while they announce `new`.
const failsNew = (_n: number, r: { body: string }) => (/"reference_id":"retry-[^"]*","status":"new"/.test(r.body) ? 500 : 200);

beforeAll(async () => {
  if (!available) return;
  hooks = await receiver(failsNew);
  browser = await launch();
}, BROWSER_TEST_MS);

afterAll(async () => {
  await hooks?.close();
});

const CREDENTIALS = 'user:pass';
const TOKEN = 's3cret';
const HOSTILE_WEBHOOK = `https://${CREDENTIALS}@hooks.invalid/pay?token=${TOKEN}`;

/** A customer whose every shown field is hostile: a direction override, a long unbroken name, the longest email. */
// The longest email the interface allows (255), a valid address: a 64-character local part (the
// most an address has) and a domain of long labels.
const LONG_EMAIL = `${'e'.repeat(64)}@${'s'.repeat(63)}.${'h'.repeat(63)}.${'o'.repeat(54)}.example`;

function hostileCustomer() {
  return { ...payinBody().customer, first_name: '\u202Eevil\u202D', last_name: 'W'.repeat(80), email: LONG_EMAIL };
}

const rowIds = (page: Page) =>
  page.locator('tr.transaction').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['transaction']));

/** Checks what no page may ever do: run a merchant's markup, break the policy, show a credential. */
async function expectSafe(page: Page, problems: string[]): Promise<void> {
  expect(problems).toEqual([]);
  await expect(page.locator('img').count()).resolves.toBe(0);
  const html = await page.content();
  const text = await page.evaluate(() => document.body.textContent);
  for (const shown of [html, text]) {
    expect(shown).not.toContain(CREDENTIALS);
    expect(shown).not.toContain(TOKEN);
  }
}

/** Every <time> on the page: readable text with its zone, on one line, the ISO value in datetime. */
async function expectTimes(page: Page): Promise<void> {
  const times = await page
    .locator('time')
    .evaluateAll((els) =>
      els.map((el) => ({ text: el.textContent, datetime: el.getAttribute('datetime'), lines: el.getClientRects().length })),
    );
  expect(times.length).toBeGreaterThan(0);
  for (const t of times) {
    expect(t.text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(t.datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(t.text).toBe(`${t.datetime!.slice(0, 10)} ${t.datetime!.slice(11, 19)} UTC`);
    expect(t.lines).toBe(1);
  }
}

/**
 * A payin whose `new` webhook fails (the receiver answers 500 to a `retry-` reference): resolves
 * with its id once attempts 1 and 2 have failed and attempt 3 is planned 15 minutes later.
 */
async function failingPayin(reference: string): Promise<string> {
  const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: reference, webhook_url: hooks.url() }));
  const id = created.body.id as string;
  await until(
    async () => (await adminCall(sb, 'GET', `/deliveries?transaction_id=${id}`)).body.length === 3,
    'the third attempt of new',
    sb,
  );
  return id;
}

describe('dashboard in Chromium', () => {
  it.skipIf(!available)(
    'shows hostile values as text, runs none, shows no credential, and fits desktop and phone',
    async () => {
      const plain = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({ reference_id: 'order-1001', webhook_url: hooks.url(), payment: { amount: 12.5, currency: 'EUR' } }),
      );
      const evil = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({
          reference_id: HOSTILE,
          customer: hostileCustomer(),
          webhook_url: HOSTILE_WEBHOOK,
          payment: { amount: 1000, currency: 'JPY' },
        }),
      );
      const payout = await post(
        `${sb.url}/v2/merchants/payouts/`,
        payoutBody({ reference_id: `${HOSTILE}\u202E`, webhook_url: HOSTILE_WEBHOOK, payment: { amount: '1.5', currency: 'KWD' } }),
        M2,
      );
      expect([plain.status, evil.status, payout.status]).toEqual([200, 200, 200]);
      await adminCall(sb, 'POST', `/payins/${plain.body.id}/status`, { status: 'executed' });

      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, problems } = await watchedPage(browser!, viewport);
        await page.goto(`${sb.url}/_sandbox/`);
        await page.locator(`#tx-${plain.body.id} .status-executed`).waitFor();
        await page.screenshot({ path: join(REPORTS, `dashboard-${name}.png`), fullPage: true });

        await expectSafe(page, problems);
        await expect(page.locator(`#tx-${evil.body.id} td.reference`).textContent()).resolves.toBe(HOSTILE);
        await expect(page.locator(`#tx-${payout.body.id} td.reference`).textContent()).resolves.toBe(`${HOSTILE}\u202E`);
        // A direction override stays inside the merchant's text.
        await expect(page.locator(`#tx-${evil.body.id} td.customer > bdi`).textContent()).resolves.toContain('\u202Eevil');
        await expect(page.locator(`#tx-${plain.body.id} .amount`).allTextContents()).resolves.toEqual(['12.50 EUR', '0.31 EUR']);
        await expect(page.locator(`#tx-${evil.body.id} .amount`).allTextContents()).resolves.toEqual(['1000 JPY']);
        await expect(page.locator(`#tx-${payout.body.id} .amount`).allTextContents()).resolves.toEqual(['1.500 KWD']);
        await expectTimes(page);
        await expect(page.locator('#count').textContent()).resolves.toBe('3 of 3 transactions');

        // Nothing is wider than the screen; only a box made to scroll sideways (the webhook
        // attempts, on a phone) has wider content.
        const width = await documentWidth(page);
        expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
        expect(await outside(page, 'body'), `${name}: what sticks out`).toEqual([]);
        if (name === 'phone') {
          // The list is stacked into cards, and so are the webhook attempts: nothing scrolls sideways.
          await expect(page.locator('.panel').evaluate((el) => el.scrollWidth <= el.clientWidth)).resolves.toBe(true);
          const boxes = await page
            .locator('tr.deliveries .scroll')
            .evaluateAll((els) => els.map((el) => ({ id: el.closest('tr')!.id, wider: el.scrollWidth > el.clientWidth })));
          expect(boxes.length).toBeGreaterThan(0);
          expect(boxes.filter((b) => b.wider)).toEqual([]);
          // Each attempt's cells are labelled, the hostile address wraps inside the card.
          const to = page.locator(`#deliveries-${evil.body.id} td[data-label="to"]`).first();
          await expect(to.evaluate((el) => getComputedStyle(el, '::before').content)).resolves.toBe('"to"');
          await expect(page.locator(`#deliveries-${evil.body.id} thead`).isVisible()).resolves.toBe(false);
        }
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'runs under the policy: its script is a file, and an inline script is refused',
    async () => {
      const { page, problems, withoutPolicy } = await watchedPage(browser!);
      await page.goto(`${sb.url}/_sandbox/`);
      expect(withoutPolicy).toEqual([]); // the sandbox sent it itself
      // The file script runs (it refreshes the page when a payin arrives behind its back)...
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await page.locator(`#tx-${created.body.id}`).waitFor();
      expect(problems).toEqual([]);
      // ...and the policy is in force: script written into the page does not run.
      const ran = await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.inlineRan = true';
        document.head.append(script);
        return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => problems.some((p) => p.startsWith('csp:'))).toBe(true);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'lists webhook attempts in the order they happen, not the order they were planned',
    async () => {
      const id = await failingPayin('retry-1');
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${sb.url}/_sandbox/`);
      await page.locator(`#tx-${id} button[data-status="executed"]`).click();
      const attempts = page.locator(`#deliveries-${id} tbody tr`);
      await page.locator(`#deliveries-${id} tr[data-webhook-status="executed"] .answer`, { hasText: '200' }).waitFor();
      const shown = await attempts.evaluateAll((rows) =>
        rows.map((r) => `${(r as HTMLElement).dataset['webhookStatus']} ${(r as HTMLElement).dataset['attempt']}`),
      );
      expect(shown).toEqual(['new 1', 'new 2', 'executed 1', 'new 3']);
      // The JSON log keeps the order of planning.
      const planned = (await adminCall(sb, 'GET', `/deliveries?transaction_id=${id}`)).body.map(
        (a: { status: string; attempt: number }) => `${a.status} ${a.attempt}`,
      );
      expect(planned).toEqual(['new 1', 'new 2', 'new 3', 'executed 1']);
      await expect(page.locator(`#deliveries-${id} tbody tr:last-child .answer`).textContent()).resolves.toBe('due');
      await expectTimes(page);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'filters from the form, keeps them while it refreshes itself, and counts',
    async () => {
      const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1001', webhook_url: hooks.url() }));
      const b = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1002', webhook_url: hooks.url() }), M2);
      await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'gift-1', webhook_url: hooks.url() }));
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${sb.url}/_sandbox/`);
      await page.locator('input[name="reference"]').fill('order-');
      await Promise.all([page.waitForURL(/reference=order-/), page.locator('input[name="reference"]').press('Enter')]);
      expect(await rowIds(page)).toEqual([b.body.id, a.body.id]);
      // Choosing from a list applies at once.
      await Promise.all([page.waitForURL(/merchant=m_1/), page.locator('select[name="merchant"]').selectOption('m_1')]);
      expect(await rowIds(page)).toEqual([a.body.id]);
      await expect(page.locator('#count').textContent()).resolves.toBe('1 of 3 transactions');

      // Changes behind the page's back: the refresh keeps the filters.
      const c = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1003', webhook_url: hooks.url() }));
      await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1004', webhook_url: hooks.url() }), M2);
      await page.locator('#count', { hasText: '2 of 5 transactions' }).waitFor();
      expect(await rowIds(page)).toEqual([c.body.id, a.body.id]);
      expect(new URL(page.url()).searchParams.get('reference')).toBe('order-');

      await Promise.all([page.waitForURL(`${sb.url}/_sandbox/`), page.locator('.filters a', { hasText: 'Clear' }).click()]);
      await expect(page.locator('#count').textContent()).resolves.toBe('5 of 5 transactions');
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'links each transaction to its hosted page and its webhooks, and the header to the requests page and back',
    async () => {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      const id = created.body.id as string;
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${sb.url}/_sandbox/`);
      await page.locator(`#tx-${id} a[data-link="deliveries"]`).click();
      await page.waitForURL(`${sb.url}/_sandbox/#deliveries-${id}`);
      await expect(page.locator(`#deliveries-${id}`).evaluate((el) => el.matches(':target'))).resolves.toBe(true);

      await Promise.all([page.waitForURL(created.body.next_action.url), page.locator(`#tx-${id} a[data-link="hosted"]`).click()]);
      await expect(page.locator('#amount').textContent()).resolves.toBe('10.50 EUR');
      await page.goBack();

      await Promise.all([page.waitForURL(`${sb.url}/_sandbox/log`), page.locator('nav a', { hasText: 'Requests' }).click()]);
      await expect(page.locator('nav a[aria-current="page"]').textContent()).resolves.toBe('Requests');
      await Promise.all([page.waitForURL(`${sb.url}/_sandbox/`), page.locator('nav a', { hasText: 'Transactions' }).click()]);
      await page.locator(`#tx-${id}`).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

/**
 * Serves the requests page of `log` at the running sandbox's /_sandbox/log, with the sandbox's own
 * version on it (so it refreshes on the sandbox's change feed) and its script and links. The log
 * is filled by the test: the sandbox records requests into it in a change of its own.
 */
async function serveLog(page: Page, log: State): Promise<void> {
  await page.route(
    (url) => url.pathname === '/_sandbox/log',
    async (route) => {
      const real = await route.fetch();
      const version = /data-version="(\d+)"/.exec(await real.text())![1]!;
      const query = new URL(route.request().url()).search.slice(1);
      const html = requestsPage(log, query || null).replace(/data-version="\d+"/, `data-version="${version}"`);
      await route.fulfill({ status: 200, headers: { ...real.headers(), 'content-security-policy': PAGE_CSP }, body: html });
    },
  );
}

describe('requests page in Chromium', () => {
  const seqs = (page: Page) => page.locator('tr.request').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset['seq'])));

  it.skipIf(!available)(
    'shows each request with its hint, links its transaction, filters, refreshes itself, and fits desktop and phone',
    async () => {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1001', webhook_url: hooks.url() }));
      const log = offlineState();
      const now = Date.now();
      const at = (ago: number) => new Date(now - ago).toISOString();
      log.requests.add(
        logged({ at: at(4000), transaction_id: created.body.id, body: JSON.stringify(payinBody({ reference_id: 'order-1001' })) }),
      );
      log.requests.add(
        logged({
          at: at(3000),
          path: '/v2/merchants/payins',
          status: 404,
          code: 'not_found',
          message: 'no endpoint POST /v2/merchants/payins; the endpoint ends with a slash: /v2/merchants/payins/',
          hint: 'add the trailing slash, and sign the URL with it',
          transaction_id: null,
        }),
      );
      log.requests.add(
        logged({
          at: at(2000),
          merchant_id: HOSTILE,
          path: `/v2/merchants/payins/?reference_id=${HOSTILE}${'Z'.repeat(200)}`,
          status: 401,
          code: 'bad_signature',
          message: 'header x-signature does not match',
          hint: `the signature matches the body re-serialised: sign the exact bytes you send ${HOSTILE}`,
          transaction_id: null,
          body: `{"reference_id":"${HOSTILE}\u202Eevil","blob":"${'B'.repeat(600)}"}`,
        }),
      );
      log.requests.add(
        logged({ at: at(1000), merchant_id: 'm_2', status: null, fault: 'drop_before_commit', transaction_id: null, body: null }),
      );
      log.requests.add(
        logged({
          at: at(500),
          status: 400,
          code: 'invalid_request',
          message: 'the body does not match the create-payin (v2) schema: 3 errors',
          errors: [
            { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' },
            { path: `customer.${'k'.repeat(190)}`, message: 'is not an allowed property' },
            { path: HOSTILE, message: `${HOSTILE}\u202Eevil` },
          ],
          transaction_id: null,
        }),
      );

      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, problems } = await watchedPage(browser!, viewport);
        await serveLog(page, log);
        await page.goto(`${sb.url}/_sandbox/log`);
        expect(await seqs(page)).toEqual([5, 4, 3, 2, 1]);
        await page.locator('#body-3 summary').click();
        // A 400's field errors, each path with its message, visible without a click.
        const fields = page.locator('tr[data-details="5"] .field-errors li');
        await expect(fields.allTextContents()).resolves.toEqual([
          'payment.amount EUR has 2 decimals; got 3',
          `customer.${'k'.repeat(190)} is not an allowed property`,
          `${HOSTILE} ${HOSTILE}\u202Eevil`,
        ]);
        await expect(fields.first().isVisible()).resolves.toBe(true);
        await page.screenshot({ path: join(REPORTS, `requests-${name}.png`), fullPage: true });
        await expectSafe(page, problems);
        await expectTimes(page);
        await expect(page.locator('tr[data-details="3"] .hint').textContent()).resolves.toBe(
          `Hint: the signature matches the body re-serialised: sign the exact bytes you send ${HOSTILE}`,
        );
        await expect(page.locator('tr[data-details="3"] .hint').isVisible()).resolves.toBe(true);
        await expect(page.locator('#body-3 pre').textContent()).resolves.toContain(`${HOSTILE}\u202Eevil`);
        await expect(page.locator('#body-1').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
        const width = await documentWidth(page);
        expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
        expect(await outside(page, 'body'), `${name}: what sticks out`).toEqual([]);
        await expect(page.locator('.panel').evaluate((el) => el.scrollWidth <= el.clientWidth)).resolves.toBe(true);
        await page.close();
      }

      const { page, problems } = await watchedPage(browser!);
      await serveLog(page, log);
      await page.goto(`${sb.url}/_sandbox/log`);
      // The request's transaction, on the dashboard.
      await Promise.all([
        page.waitForURL(`${sb.url}/_sandbox/#tx-${created.body.id}`),
        page.locator('tr[data-seq="1"] a[data-link="transaction"]').click(),
      ]);
      await expect(page.locator(`#tx-${created.body.id}`).evaluate((el) => el.matches(':target'))).resolves.toBe(true);
      await page.goBack();

      await page.locator('input[name="status"]').fill('4xx');
      await Promise.all([page.waitForURL(/status=4xx/), page.locator('input[name="status"]').press('Enter')]);
      expect(await seqs(page)).toEqual([5, 3, 2]);
      await expect(page.locator('#count').textContent()).resolves.toBe('3 of 5 requests');
      await page.locator('#body-3 summary').click();

      // A new refused request and a change on the sandbox: the page catches up, filter kept, the
      // body it had open still open.
      log.requests.add(
        logged({
          at: new Date().toISOString(),
          status: 401,
          code: 'expired',
          message: 'x-timestamp is 75 s from now',
          transaction_id: null,
        }),
      );
      await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await page.locator('tr[data-seq="6"]').waitFor();
      expect(await seqs(page)).toEqual([6, 5, 3, 2]);
      expect(new URL(page.url()).searchParams.get('status')).toBe('4xx');
      await expect(page.locator('#body-3').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('requests page over real requests', () => {
  it.skipIf(!available)('a refused request appears by itself, with the hint that names the mistake', async () => {
    const { page, problems } = await watchedPage(browser!);
    await page.goto(`${sb.url}/_sandbox/log`);
    // Signed without the trailing slash, sent with it: refused, and the page refreshes to show why.
    const url = `${sb.url}/v2/merchants/payins/`;
    const body = JSON.stringify(payinBody({ reference_id: 'real-hint' }));
    const ts = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', M1.secret)
      .update(`${M1.id}${ts}POST${url.slice(0, -1)}${body}`)
      .digest('hex');
    const refused = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-signature': signature },
    });
    expect(refused.status).toBe(401);
    const hint = page.locator('tr.request + tr .hint').first();
    await hint.waitFor();
    await expect(hint.textContent()).resolves.toMatch(/URL without its trailing slash/);
    await expect(page.locator('tr.request').first().textContent()).resolves.toContain('bad_signature');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('transaction timeline in Chromium', () => {
  /** The entries the page shows, as `type status cause`: compared with the JSON timeline. */
  const shownEntries = (page: Page) =>
    page.locator('ol.timeline > li').evaluateAll((items) =>
      items.map((li) => {
        const d = (li as HTMLElement).dataset;
        return [d['type'], d['status'] ?? d['webhookStatus'] ?? d['operation'], d['cause'] ?? d['attempt'] ?? d['requestSeq']].join(' ');
      }),
    );
  const jsonEntries = async (id: string) =>
    ((await adminCall(sb, 'GET', `/payins/${id}/timeline`)).body.entries as Record<string, unknown>[]).map((e) =>
      [e['type'], e['type'] === 'request' ? e['operation'] : e['status'], e['cause'] ?? e['attempt'] ?? e['request_seq']].join(' '),
    );

  it.skipIf(!available)(
    'shows hostile values as text, runs none, shows no credential, and fits desktop and phone',
    async () => {
      const evil = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({ reference_id: HOSTILE, customer: hostileCustomer(), webhook_url: HOSTILE_WEBHOOK }),
      );
      const id = evil.body.id as string;
      // Escaped as fetch would escape it (a `'` too), so that the URL signed is the URL called.
      const looked = await get(`${sb.url}/v2/merchants/payins/?reference_id=${encodeURIComponent(HOSTILE).replace(/'/g, '%27')}`);
      expect(looked.status).toBe(200);
      await adminCall(sb, 'POST', `/payins/${id}/status`, {
        status: 'failed',
        error_code: HOSTILE,
        error_message: `\u202Eevil ${'M'.repeat(200)}`,
      });
      await until(async () => (await adminCall(sb, 'GET', `/deliveries?transaction_id=${id}`)).body.length >= 4, 'both webhooks', sb);

      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, problems } = await watchedPage(browser!, viewport);
        await page.goto(`${sb.url}/_sandbox/timeline/${id}`);
        await page.locator('li[data-type="status"][data-status="failed"]').waitFor();
        await page.screenshot({ path: join(REPORTS, `timeline-${name}.png`), fullPage: true });
        await expectSafe(page, problems);
        await expectTimes(page);
        await expect(page.locator('#reference').textContent()).resolves.toBe(HOSTILE);
        await expect(page.locator('li[data-type="status"][data-status="failed"] .result .bad bdi').first().textContent()).resolves.toBe(
          HOSTILE,
        );
        const width = await documentWidth(page);
        expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
        expect(await outside(page, 'body'), `${name}: what sticks out`).toEqual([]);
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it.skipIf(!available)(
    'is reached from the dashboard, links to its requests, and shows a click on Resend or Execute by itself, as done from the dashboard',
    async () => {
      const id = await failingPayin('retry-timeline');
      const { page, problems } = await watchedPage(browser!);
      await page.goto(`${sb.url}/_sandbox/`);
      await Promise.all([page.waitForURL(`${sb.url}/_sandbox/timeline/${id}`), page.locator(`#tx-${id} a[data-link="timeline"]`).click()]);
      expect(await shownEntries(page)).toEqual(await jsonEntries(id));
      expect(await shownEntries(page)).toEqual([
        'request createPayin 1',
        'status new create',
        'webhook new 1',
        'webhook new 2',
        'webhook new 3',
      ]);

      // Its create request, on the requests page.
      const seq = await page.locator('li[data-type="request"]').getAttribute('data-request-seq');
      await Promise.all([
        page.waitForURL(`${sb.url}/_sandbox/log?transaction=${id}#request-${seq}`),
        page.locator('li[data-type="request"] a[data-link="request"]').click(),
      ]);
      await expect(page.locator(`#request-${seq}`).evaluate((el) => el.matches(':target'))).resolves.toBe(true);
      await page.goBack();

      // Resend, then Execute: the page catches up by itself; the sandbox knows they came from the dashboard.
      await page.locator('button[data-action="resend"]').click();
      await page.locator('li[data-type="resend"][data-cause="dashboard"]').waitFor();
      await page.locator('button[data-status="executed"]').click();
      await page.locator('li[data-type="status"][data-status="executed"][data-cause="dashboard"]').waitFor();
      await page.locator('li[data-webhook-status="executed"] .result', { hasText: 'delivered' }).waitFor();
      // Once nothing changes any more, the page shows the timeline as it is.
      await expect
        .poll(async () => {
          const [shown, json] = [await shownEntries(page), await jsonEntries(id)];
          return JSON.stringify(shown) === JSON.stringify(json) ? 'same' : JSON.stringify({ shown, json });
        })
        .toBe('same');
      await page.screenshot({ path: join(REPORTS, 'timeline.png'), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('hosted payment page in Chromium', () => {
  it.skipIf(!available)(
    'fits a phone and a desktop: the long id wraps inside the card, the amount has its decimals',
    async () => {
      const payin = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({
          reference_id: HOSTILE,
          customer: hostileCustomer(),
          webhook_url: HOSTILE_WEBHOOK,
          payment: { amount: '0.3', currency: 'EUR' },
        }),
      );
      const payout = await post(
        `${sb.url}/v2/merchants/payouts/`,
        payoutBody({ reference_id: 'R'.repeat(64), payment: { amount: '123456789012345678901234567890.125', currency: 'KWD' } }),
      );
      const declined = await post(
        `${sb.url}/v2/merchants/payins/`,
        payinBody({
          redirect_urls: { success: 'https://shop.example/ok', fail: `https://${'s'.repeat(60)}.example/fail?order=${'9'.repeat(80)}` },
        }),
      );
      await adminCall(sb, 'POST', `/payins/${declined.body.id}/status`, {
        status: 'failed',
        error_code: 'do_not_honor',
        error_message: `The issuer refused the card: ${'R'.repeat(150)}`,
      });
      const cases = [
        ['hosted-page', payin.body.next_action.url as string, '0.30 EUR'],
        ['hosted-payout', payout.body.next_action.url as string, '123456789012345678901234567890.125 KWD'],
        ['hosted-declined', declined.body.next_action.url as string, '10.50 EUR'],
        ['hosted-unknown', `${sb.url}/_sandbox/pay/pi_${'x'.repeat(200)}`, null],
      ] as const;
      // One page a screen size, each case loaded into it in turn (a page costs Chromium a process).
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, problems } = await watchedPage(browser!, viewport);
        for (const [name, url, amount] of cases) {
          await page.goto(url);
          await page.screenshot({ path: join(REPORTS, `${name}-${size}.png`), fullPage: true });
          await expectSafe(page, problems);
          const width = await documentWidth(page);
          expect(width.scrollWidth, `${name} ${size}`).toBeLessThanOrEqual(width.innerWidth);
          expect(await outside(page, '.card'), `${name} ${size}: what sticks out of the card`).toEqual([]);
          if (amount !== null) {
            await expect(page.locator('#amount').textContent()).resolves.toBe(amount);
            await expect(page.locator('h1 .id').textContent()).resolves.toMatch(/^p[io]_[0-9a-z]{20}$/);
          }
        }
        await page.close();
      }
      // The reference is text.
      const { page, problems } = await watchedPage(browser!, PHONE);
      await page.goto(payin.body.next_action.url);
      await expect(page.locator('dd').nth(1).textContent()).resolves.toBe(HOSTILE);
      await expect(page.locator('#unattended').textContent()).resolves.toMatch(
        /^Left alone, it expires at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
      );
      // A pending payout says when the sandbox executes it.
      await page.goto(payout.body.next_action.url);
      await expect(page.locator('#unattended').textContent()).resolves.toMatch(
        /^Left alone, it is executed at .* \(by the sandbox, 60 s after it was created; \d+ s from now\)\.$/,
      );
      // A declined one says why, and its link goes back to the merchant's fail address.
      await page.goto(declined.body.next_action.url);
      await expect(page.locator('#reason').textContent()).resolves.toBe(
        `Reason: The issuer refused the card: ${'R'.repeat(150)} do_not_honor`,
      );
      await page.route('https://*.example/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<p>the shop</p>' }),
      );
      await Promise.all([page.waitForURL(/\.example\/fail\?order=9+$/), page.locator('#back').click()]);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

describe('what a browser finds by itself, in Chromium', () => {
  it.skipIf(!available)(
    'an unknown address under /_sandbox/ is a page that fits and leads to the others; the favicon is not a service request',
    async () => {
      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, problems } = await watchedPage(browser!, viewport);
        const answer = await page.goto(`${sb.url}/_sandbox/payins/${'x'.repeat(120)}`);
        expect(answer?.status()).toBe(404);
        await page.screenshot({ path: join(REPORTS, `not-found-${name}.png`), fullPage: true });
        await expect(page.locator('#not-found code.text').textContent()).resolves.toBe(`/_sandbox/payins/${'x'.repeat(120)}`);
        const width = await documentWidth(page);
        expect(width.scrollWidth, name).toBeLessThanOrEqual(width.innerWidth);
        expect(await outside(page, 'body'), `${name}: what sticks out`).toEqual([]);
        await Promise.all([page.waitForURL(`${sb.url}/_sandbox/log`), page.locator('#not-found a', { hasText: 'the requests' }).click()]);
        expect(problems).toEqual([]);
        await page.close();
      }
      // A browser showing a JSON address asks for /favicon.ico (headless Chromium does not, so a
      // page asks): no content, and nothing in the request log. A plain page: under Playwright's
      // request interception (watchedPage) a fetch answered 204 fails in the browser.
      const page = await browser!.newPage();
      await page.goto(`${sb.url}/_sandbox/`);
      await expect(page.evaluate(async () => (await fetch('/favicon.ico')).status)).resolves.toBe(204);
      expect((await adminCall(sb, 'GET', '/requests')).body).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});
