// Browser test helpers: Debian's headless Chromium through playwright-core, pages opened under the
// pages' Content-Security-Policy with every script error, dialog and policy violation collected,
// and layout checks (nothing wider than the viewport).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { browserAvailable, launchChromium } from '@pay/test-browser';
import type { Browser, Page } from 'playwright-core';
import { PAGE_CSP } from '../src/http.js';

export { BROWSER_TEST_MS } from '@pay/test-browser';

/** Whether Chromium is there; without it browser tests skip, visibly, unless PAY_REQUIRE_BROWSER=1. */
export const available = browserAvailable('@pay/sandbox browser tests');

/** Where screenshots go. */
export const REPORTS = join(import.meta.dirname, '..', '.reports');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

// One Chromium a test process: a launch costs about a CPU-second, and the files a worker runs share
// its process (filesShareAProcess in vitest.config.ts).
let shared: Promise<Browser> | undefined;

/**
 * Chromium for this test process: launched by the first browser file the process runs, and kept
 * for the next ones (a file does not close it; Playwright ends it when the process exits). Each
 * test opens its own pages, each in a context of its own, so nothing carries over between files.
 */
export async function launch(): Promise<Browser> {
  mkdirSync(REPORTS, { recursive: true });
  const browser = await shared;
  if (browser?.isConnected()) return browser;
  shared = launchChromium();
  return shared;
}

/** A page and what went wrong on it: uncaught errors, dialogs (a script that ran), CSP violations. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  /** Paths of the pages that arrived without PAGE_CSP (the test set it). */
  withoutPolicy: string[];
}

/**
 * A new page on which every page the sandbox serves (GET of `/_sandbox/...` documents) arrives
 * with the Content-Security-Policy of the pages, whoever sets it: the pages must work under it.
 * An inline script or event handler would be refused and reported in `problems`.
 */
export async function watchedPage(browser: Browser, viewport = DESKTOP): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const withoutPolicy: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) problems.push(`csp: ${message.text()}`);
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  await page.route(
    (url) => url.pathname.startsWith('/_sandbox/') && !url.pathname.startsWith('/_sandbox/assets/') && url.pathname !== '/_sandbox/events',
    async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      if (response.headers()['content-security-policy'] !== PAGE_CSP) withoutPolicy.push(new URL(route.request().url()).pathname);
      // A request the page gave up meanwhile (the sign-in page moves on at once) has no one to
      // answer: its fulfil fails with "disposed", which is not a finding. The policy check above
      // has already run.
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': PAGE_CSP } }).catch((error: unknown) => {
        if (!/disposed|closed/i.test(String((error as Error)?.message))) throw error;
      });
    },
  );
  return { page, problems, withoutPolicy };
}

/** How wide the document is against the viewport (it must not scroll sideways). */
export function documentWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/**
 * Elements under `selector` that stick out of its box, or whose content is wider than they are
 * (by more than half a pixel): none may, except inside a box made to scroll sideways (`.scroll`).
 */
export function outside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const container = document.querySelector(sel)!;
    const box = container.getBoundingClientRect();
    // Inside a `.scroll` box that is scrolling sideways: wider content is meant to be there.
    const scrolledAway = (el: Element | null, top: Element): boolean => {
      const box = el?.closest('.scroll');
      if (!box || !top.contains(box)) return false;
      return box.scrollWidth > box.clientWidth || scrolledAway(box.parentElement, top);
    };
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/ /g, '.')}` : ''}`;
    return [...container.querySelectorAll('*')]
      .filter((el) => el.getClientRects().length > 0) // rendered (not a hidden input)
      .filter((el) => !scrolledAway(el.parentElement, container))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        // Wider content is theirs to scroll: an id or reference longer than its box scrolls inside it.
        const scrolls = el.matches('.scroll, .ident, input, select, textarea');
        return r.left < box.left - 0.5 || r.right > box.right + 0.5 || (!scrolls && el.scrollWidth > el.clientWidth + 0.5);
      })
      .map(name);
  }, selector);
}
