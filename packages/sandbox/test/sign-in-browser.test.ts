// The sign-in link in a real Chromium: a sandbox reachable from elsewhere (publicUrl) keeps its
// dashboard shut to a browser on this machine too, and the link the terminal printed opens it,
// once, without leaving the code in the address bar or the history, and without the page ever
// breaking its Content-Security-Policy. Chromium resolves no name here (every name maps to
// nothing): the public name is never visited.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@pay/test-browser';
import { available, BROWSER_TEST_MS, watchedPage } from './browser.js';
import { M1, start, type Started } from './helpers.js';

let browser: Browser | undefined;
let sandbox: Started;

beforeAll(async () => {
  sandbox = await start({ merchants: [M1], publicUrl: 'https://sandbox.example.com' });
  if (available) browser = await launchChromium(['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1']);
}, BROWSER_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

describe.skipIf(!available)(`sign-in link in Chromium${available ? '' : ' (SKIPPED: no Chromium)'}`, () => {
  it(
    'the dashboard asks for the token; the printed link opens it once and leaves no code behind; its buttons work',
    async () => {
      const link = sandbox.signInUrl!;
      const code = /#code=(\w+)$/.exec(link)![1]!;
      const { page, problems, withoutPolicy } = await watchedPage(browser!);
      const sent: string[] = [];
      page.on('request', (request) => sent.push(`${request.method()} ${request.url()}`));

      // Without the link, this machine's browser gets the sign-in page, not the dashboard.
      await page.goto(`${sandbox.url}/_sandbox/`);
      expect(page.url()).toBe(`${sandbox.url}/_sandbox/sign-in`);
      expect(await page.locator('input[name="token"]').count()).toBe(1);
      expect(await page.locator('#main').count()).toBe(0);

      // The link: the page reads the code from the fragment, drops it, and posts it.
      await page.goto(link);
      await page.waitForURL(`${sandbox.url}/_sandbox/`);
      await page.locator('#main').waitFor();
      expect(await page.locator('h1').textContent()).toBe('Payments sandbox');
      // The code never went to the sandbox in a URL (so into no log and no proxy's log).
      expect(sent.some((line) => line.includes(code))).toBe(false);
      expect(sandbox.lines.join('\n')).not.toContain(code);
      // The sign-in page's history entry no longer holds the code.
      await page.goBack();
      expect(page.url()).toBe(`${sandbox.url}/_sandbox/sign-in`);
      await page.goForward();
      await page.locator('#main').waitFor();

      // A dashboard button (+1 h) moves the clock: the cookie opens the admin API to the page.
      const before = Date.parse(`${(await sandbox.admin.clock()).now}Z`);
      await page.locator('button[data-action="advance"][data-seconds="3600"]').click();
      await expect
        .poll(async () => Date.parse(`${(await sandbox.admin.clock()).now}Z`) - before, { timeout: 30_000 })
        .toBeGreaterThanOrEqual(3600_000);
      const cookies = await page.context().cookies();
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([['pay_sandbox_admin', true, 'Strict', '/_sandbox']]);
      expect(problems).toEqual([]);
      // Only the first answer, the 303 from the dashboard to the sign-in page (a redirect, no page),
      // came without the pages' policy; every page did.
      expect(withoutPolicy).toEqual(['/_sandbox/']);
      await page.close();

      // The link is spent: another browser (another context, no cookie) stays on the sign-in page.
      const other = await browser!.newContext();
      try {
        const second = await other.newPage();
        await second.goto(link);
        await second.locator('.problem').waitFor();
        expect(await second.locator('.problem').textContent()).toMatch(/used already/);
        expect(second.url()).toBe(`${sandbox.url}/_sandbox/sign-in`);
        expect(await second.locator('#main').count()).toBe(0);
        expect(await other.cookies()).toEqual([]);
      } finally {
        await other.close();
      }
    },
    BROWSER_TEST_MS,
  );
});
