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

// Tests never leave loopback, and Chromium resolves names itself (the net guard of
// @pay/test-net-guard sees only Node's lookups): every name but loopback's is answered "not found"
// without a query, such as a payment page's redirect to https://shop.example/ok. A test's own
// mappings (a rebinding name pointed at 127.0.0.1) come first; Chromium reads one such flag only.
const RESOLVER_FLAG = '--host-resolver-rules=';
const LOOPBACK_ONLY = 'MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]';

/** The flags with one resolver rule set: the test's own mappings, then loopback only. */
function loopbackOnly(args) {
  const own = args.filter((a) => a.startsWith(RESOLVER_FLAG)).map((a) => a.slice(RESOLVER_FLAG.length));
  return [...args.filter((a) => !a.startsWith(RESOLVER_FLAG)), `${RESOLVER_FLAG}${[...own, LOOPBACK_ONLY].join(', ')}`];
}

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
      ...loopbackOnly(extraArgs),
    ],
  });
}
