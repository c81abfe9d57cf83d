// Polling for what a test cannot be told about (another process's row, a log line): a check run
// every `everyMs` until it gives a value, bounded in real time so a test fails with what it waited
// for rather than hanging. Waits for business time (a schedule, a retry) belong on a test clock,
// not here.
import { setTimeout as delay } from 'node:timers/promises';

/**
 * @template T
 * @param {() => Promise<T | undefined | false | null> | T | undefined | false | null} check
 * @param {{ what: string, timeoutMs?: number, everyMs?: number }} options
 * @returns {Promise<T>}
 */
export async function until(check, { what, timeoutMs = 30_000, everyMs = 25 }) {
  const giveUpAt = performance.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (error) {
      last = error;
    }
    if (performance.now() >= giveUpAt) {
      throw new Error(`waited ${timeoutMs} ms for ${what}${last ? `; the last check threw: ${last.message ?? last}` : ''}`);
    }
    await delay(everyMs);
  }
}
