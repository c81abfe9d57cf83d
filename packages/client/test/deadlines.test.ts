// Shared time-limit windows: attempts ending in the same window share one signal; a window's
// signal is aborted only while one of its attempts is still in flight.
import { describe, expect, it } from 'vitest';
import { deadlineIn } from '../src/deadlines.js';

const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('deadlines', () => {
  it('attempts ending in the same window share one signal', () => {
    const a = deadlineIn(30_000);
    const b = deadlineIn(30_000);
    const c = deadlineIn(5_000);
    expect(a.signal).toBe(b.signal);
    expect(c.signal).not.toBe(a.signal);
    for (const d of [a, b, c]) d.release();
  });

  it('a window serves at most 1000 attempts', () => {
    const all = Array.from({ length: 1001 }, () => deadlineIn(40_000));
    const signals = new Set(all.map((d) => d.signal));
    expect(signals.size).toBeGreaterThanOrEqual(2);
    for (const d of all) d.release();
  });

  it('an attempt still in flight at its limit is aborted; one released before is not', async () => {
    const released = deadlineIn(20);
    released.release();
    const pending = deadlineIn(80);
    expect(pending.signal).not.toBe(released.signal);
    await aborted(pending.signal);
    expect(pending.expired()).toBe(true);
    expect(released.expired()).toBe(false);
    pending.release();
    pending.release(); // twice is harmless
  });
});
