// The real clock: Date.now and setTimeout. The default of every package.
import type { Clock, SleepOptions, WaitOptions } from './clock.js';
import { alarmArguments, sleepArguments } from './checks.js';

// setTimeout's longest delay; a longer one is set again when the shorter one fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

function unref(handle: ReturnType<typeof setTimeout>): void {
  // Node and Bun return an object with unref; Deno a number with Deno.unrefTimer; browsers neither.
  if (typeof handle === 'object' && handle !== null && typeof (handle as { unref?: unknown }).unref === 'function') {
    (handle as { unref(): void }).unref();
    return;
  }
  const deno = (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno;
  if (typeof handle === 'number' && typeof deno?.unrefTimer === 'function') deno.unrefTimer(handle);
}

function alarm(ms: number, fire: () => void, options?: WaitOptions): () => void {
  alarmArguments(ms, fire, options);
  const due = Date.now() + Math.max(0, ms);
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const left = due - Date.now();
    handle = setTimeout(left > MAX_TIMER_MS ? arm : fire, Math.min(Math.max(0, left), MAX_TIMER_MS));
    if (options?.unref) unref(handle);
  };
  arm();
  return () => clearTimeout(handle);
}

function sleep(ms: number, options?: SleepOptions): Promise<void> {
  sleepArguments(ms, options);
  const signal = options?.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = alarm(
      ms,
      () => {
        signal?.removeEventListener('abort', stop);
        resolve();
      },
      options,
    );
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The machine's clock: `Date.now()` and `setTimeout`. What every package uses when given no clock. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep,
  alarm,
  track: <T>(name: string, work: () => Promise<T>): Promise<T> => {
    if (typeof name !== 'string') throw new TypeError('track: name must be a string');
    if (typeof work !== 'function') throw new TypeError('track: work must be a function returning a promise');
    return work();
  },
});
