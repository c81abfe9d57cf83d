import type { Browser } from 'playwright-core';

/** The browser's path: CHROMIUM_PATH, or Debian's. */
export declare const CHROMIUM: string;
/** Whether Chromium is there; warns (naming `what`) and answers false, or throws under PAY_REQUIRE_BROWSER=1. */
export declare function browserAvailable(what: string): boolean;
/** The time limit of a test (or hook) that drives Chromium: a bound for a hang on a loaded machine. */
export declare const BROWSER_TEST_MS: number;
/** Starts headless Chromium with the flags every test needs, and any of the test's own. */
export declare function launchChromium(extraArgs?: readonly string[]): Promise<Browser>;
