// Debian's Chromium for the browser tests of every package: where it is, whether a test may skip
// without it, and how it is started. One copy, so that the flags this machine's closed network
// needs (no background networking, no component updates) are never missing from one test.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** The browser's path: CHROMIUM_PATH, or Debian's. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Whether Chromium is there. Without it a browser test skips, with a warning naming `what`, unless
 * PAY_REQUIRE_BROWSER=1 (CI sets it), which makes a missing browser a failure.
 */
export function browserAvailable(what) {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['PAY_REQUIRE_BROWSER'] === '1') {
    throw new Error(`PAY_REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  }
  console.warn(`${what} SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return false;
}

/**
 * The time limit of a test (or hook) that drives Chromium: pages load, render and screenshot far
 * slower on a shared two-core machine running other suites. A bound for a hang, not a speed claim.
 */
export const BROWSER_TEST_MS = 180_000;

/** Starts headless Chromium with the flags every test needs, and any of the test's own. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox', // root in CI
      '--disable-gpu',
      // Without these Chromium keeps calling Google's hosts, refused here many at a time.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}
