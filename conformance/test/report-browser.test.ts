// The pages of a report directory and of a merged report, in Debian's Chromium (playwright-core),
// served over loopback HTTP: at 390 px (a phone) and at 1280 px (a desktop), the document never
// scrolls sideways, nothing sticks out of the window or out of its own box, a phone reads one card
// per case and a desktop a table whose cells sit side by side; the page runs no script and asks
// for nothing but itself. The badge is parsed as SVG by the browser and its texts fit their boxes.
// Screenshots go to .reports/. Without Chromium this file is skipped and says so, unless
// PAY_REQUIRE_BROWSER=1 (CI sets it).
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BROWSER_TEST_MS, browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeSvg } from '../src/report/badge.js';
import { toHtmlPage } from '../src/report/html.js';
import { mergeSummaries } from '../src/report/merge.js';
import { toSummaryFile } from '../src/report/summary-file.js';
import { tableHtml } from '../src/report/table-html.js';
import type { CaseStatus } from '../src/types.js';
import { aCase, aRun, helloOf } from './report-runs.js';
import { pkgDir } from './helpers.js';

const available = browserAvailable('@pay/conformance report pages');
const SHOTS = join(pkgDir, '.reports');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const context = { toolkit: { name: '@pay/conformance', version: '0.0.0' }, exit_code: 1 };

// The widest things a case shows: a long id without a space, a diagnosis with a 200-character
// token, an answer holding base64 and a long URL, stderr with a long line.
const token = 'A'.repeat(200);
const VERDICTS: CaseStatus[] = ['pass', 'fail', 'skip', 'error', 'timeout', 'crash', 'not_run'];
const cases = VERDICTS.flatMap((v, i) => [
  aCase(`client_exactly_once/${v}-lost-after-commit-without-a-reference-and-every-lookup-failing-${i}`, v, {
    ...(v === 'fail' ? { mistake: 'blind_resend_after_a_lost_answer_without_proof' } : {}),
    ...(v !== 'pass' && v !== 'skip' ? { diagnosis: `re-sent the create after a lost answer: ${token}\nsecond line` } : {}),
    got: {
      outcome: 'error',
      url: `http://127.0.0.1:4010/gateway/pay/v2/merchants/payins/?reference_id=${'%E2%82%AC'.repeat(30)}`,
      body_b64: token,
    },
    ...(v === 'crash'
      ? { stderr: `Traceback (most recent call last):\n  File "/home/someone/${'deep/'.repeat(30)}adapter.py", line 1\n` }
      : {}),
  }),
  aCase(`client_bytes/c${i}`, 'pass'),
]);
const run = aRun(cases, { hello: helloOf('pay-python-example-with-a-rather-long-name', '1.0.0') });
const summary = toSummaryFile(run, context);

// A merged table as wide as they come: an implementation judged in every mode, ten groups.
const groups = ['sign_request_get', 'sign_request_post', 'sign_simplified', 'verify_webhook', 'verify_request', 'client_bytes'];
const wide = [
  toSummaryFile(
    aRun(
      groups.map((g, i) => aCase(`${g}/x`, i % 3 ? 'pass' : 'fail')),
      { mode: 'run', hello: helloOf('pay-go') },
    ),
    context,
  ),
  toSummaryFile(
    aRun(
      ['client_answers', 'client_errors', 'client_exactly_once', 'client_bytes'].map((g) => aCase(`${g}/x`, 'pass')),
      { hello: helloOf('@pay/sign + @pay/client', 'unreleased 0.0.0') },
    ),
    context,
  ),
  toSummaryFile(
    aRun([aCase('server_accepts/x', 'fail')], { mode: 'server', hello: null, command: `https://${'staging.'.repeat(8)}example/pay` }),
    context,
  ),
];
const merged = mergeSummaries(
  wide.map((s, i) => ({ dir: `/r/${i}`, summary: s })),
  { versions: true },
);

const PAGES: Record<string, { type: string; body: string }> = {
  '/index.html': { type: 'text/html; charset=utf-8', body: toHtmlPage(summary) },
  '/merged.html': { type: 'text/html; charset=utf-8', body: tableHtml(merged) },
  '/badge.svg': { type: 'image/svg+xml', body: badgeSvg(41, 43) },
};

let server: Server;
let origin = '';
/** Every request the server got, by path (the page's own and the browser's, a favicon's). */
const served: string[] = [];
let browser: Browser | undefined;

beforeAll(async () => {
  if (!available) return;
  mkdirSync(SHOTS, { recursive: true });
  server = createServer((req, res) => {
    served.push(req.url ?? '');
    const page = PAGES[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': page?.type ?? 'text/plain' });
    res.end(page?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, BROWSER_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** The page at `path` in a window of `viewport`, with every request it made (the document's included). */
async function open(path: string, viewport: { width: number; height: number }): Promise<{ page: Page; requests: string[] }> {
  const page = await browser!.newPage({ viewport });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${origin}${path}`);
  await page.waitForLoadState('load');
  return { page, requests };
}

/** What the layout checks read, measured in the page. */
function measure(page: Page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).replace(/ /g, '.')}` : ''}`;
    const shown = [...document.body.querySelectorAll('*')].filter((el) => el.getClientRects().length > 0);
    return {
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: vw,
      scripts: document.scripts.length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
      // Anything past the window's right edge, or whose content is wider than its own box.
      outside: shown
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.left < -0.5 || r.right > vw + 0.5 || el.scrollWidth > el.clientWidth + 0.5;
        })
        .map(name),
      smallestText: Math.min(
        ...shown
          // The badge is a picture: its 11 px text is drawn to its own scale.
          .filter((el) => !el.closest('svg') && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()))
          .map((el) => parseFloat(getComputedStyle(el).fontSize)),
      ),
      headers: [...document.querySelectorAll('thead th')].map((th) => (th as HTMLElement).offsetHeight),
      rows: [...document.querySelectorAll('tbody tr')].map((tr) => {
        const r = tr.getBoundingClientRect();
        const cells = [...tr.querySelectorAll(':scope > td')].map((td) => td.getBoundingClientRect());
        return { top: r.top, bottom: r.bottom, width: r.width, cells: cells.map((c) => ({ left: c.left, top: c.top })) };
      }),
    };
  });
}

describe.skipIf(!available)('report pages in Chromium', () => {
  it.each([
    ['/index.html', 'a run', PHONE],
    ['/index.html', 'a run', DESKTOP],
    ['/merged.html', 'the merged table', PHONE],
    ['/merged.html', 'the merged table', DESKTOP],
  ])(
    '%s (%s) at %o: fits the window, no script, nothing fetched',
    async (path, what, viewport) => {
      const before = served.length;
      const { page, requests } = await open(path, viewport);
      try {
        // What the browser asks for on its own (a favicon) comes after the load: wait for quiet.
        await page.waitForLoadState('networkidle');
        expect(served.slice(before), what).toEqual([path]);
        await page.screenshot({ path: join(SHOTS, `report${path.replace(/\W+/g, '-')}${viewport.width}.png`), fullPage: true });
        const m = await measure(page);
        expect(requests, what).toEqual([`${origin}${path}`]);
        expect([m.scripts, m.handlers]).toEqual([0, 0]);
        expect(m.scrollWidth).toBeLessThanOrEqual(m.innerWidth);
        expect(m.outside).toEqual([]);
        expect(m.smallestText).toBeGreaterThanOrEqual(12);
        expect(m.rows.length).toBeGreaterThan(2);
        if (viewport === PHONE) {
          // One card per row, as wide as the window allows, one under the other; no column headings.
          expect(m.headers.every((h) => h <= 1)).toBe(true);
          for (const [i, r] of m.rows.entries()) {
            expect(r.width).toBeLessThanOrEqual(m.innerWidth - 20);
            if (i > 0) expect(r.top).toBeGreaterThanOrEqual(m.rows[i - 1]!.bottom);
          }
        } else {
          // A table: headings shown, and a row's cells side by side on one line.
          expect(m.headers.every((h) => h > 10)).toBe(true);
          for (const r of m.rows.filter((x) => x.cells.length > 1)) {
            const lefts = r.cells.map((c) => c.left);
            expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
            expect(new Set(lefts).size).toBe(lefts.length);
            expect(new Set(r.cells.map((c) => Math.round(c.top))).size).toBe(1);
          }
        }
      } finally {
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it(
    'a failure shows its diagnosis and evidence open; a pass keeps its evidence folded',
    async () => {
      const { page } = await open('/index.html', DESKTOP);
      try {
        const open_ = await page.evaluate(() =>
          [...document.querySelectorAll('tbody tr')].map((tr) => [
            tr.querySelector('.tag')!.textContent,
            tr.querySelector('details')!.open,
          ]),
        );
        expect(open_).toContainEqual(['fail', true]);
        expect(open_).toContainEqual(['not run', true]);
        expect(open_).toContainEqual(['pass', false]);
        expect(open_).toContainEqual(['skip', false]);
      } finally {
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it(
    'the badge is SVG the browser parses, its texts inside its boxes',
    async () => {
      const { page } = await open('/badge.svg', { width: 400, height: 100 });
      try {
        const m = await page.evaluate((text) => {
          const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
          const svg = document.documentElement as unknown as SVGSVGElement;
          const rects = [...document.querySelectorAll('rect')].map((r) => ({ x: r.x.baseVal.value, w: r.width.baseVal.value }));
          const texts = [...document.querySelectorAll('text')].map((t) => {
            const b = (t as SVGTextElement).getBBox();
            return { text: t.textContent, left: b.x, right: b.x + b.width };
          });
          return {
            errors: parsed.getElementsByTagName('parsererror').length,
            root: svg.tagName,
            width: svg.width.baseVal.value,
            labelBox: rects[1]!,
            texts,
          };
        }, PAGES['/badge.svg']!.body);
        expect([m.errors, m.root]).toEqual([0, 'svg']);
        const [label, count] = m.texts;
        expect([label!.text, count!.text]).toEqual(['conformance', '41/43']);
        expect(label!.left).toBeGreaterThanOrEqual(2);
        expect(label!.right).toBeLessThanOrEqual(m.labelBox.w - 2);
        expect(count!.left).toBeGreaterThanOrEqual(m.labelBox.w + 2);
        expect(count!.right).toBeLessThanOrEqual(m.width - 2);
      } finally {
        await page.close();
      }
    },
    BROWSER_TEST_MS,
  );
});
