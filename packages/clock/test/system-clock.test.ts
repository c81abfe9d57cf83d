import { describe, expect, it } from 'vitest';
import { clockOption, systemClock } from '../src/index.js';

describe('systemClock', () => {
  it('reads the machine clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('sleeps, and its methods work unbound', async () => {
    const { sleep, now } = systemClock;
    const started = now();
    await sleep(20);
    expect(now() - started).toBeGreaterThanOrEqual(19);
  });

  it("ends a sleep with the signal's reason, at once or later", async () => {
    const early = new AbortController();
    early.abort(new Error('gone'));
    await expect(systemClock.sleep(10, { signal: early.signal })).rejects.toThrow('gone');
    const later = new AbortController();
    const sleeping = systemClock.sleep(60_000, { signal: later.signal, unref: true });
    later.abort(new Error('stopped'));
    await expect(sleeping).rejects.toThrow('stopped');
  });

  it('fires an alarm unless it was cancelled', async () => {
    const fired: string[] = [];
    systemClock.alarm(5, () => fired.push('kept'));
    const cancel = systemClock.alarm(5, () => fired.push('cancelled'));
    cancel();
    await systemClock.sleep(30);
    expect(fired).toEqual(['kept']);
  });

  it('runs tracked work as it is', async () => {
    await expect(systemClock.track('work', async () => 42)).resolves.toBe(42);
    await expect(systemClock.track('work', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  });

  it.each([
    [() => systemClock.sleep('5' as unknown as number), /sleep: ms must be a number/],
    [() => systemClock.sleep(5, { unref: 'yes' as unknown as boolean }), /sleep: options.unref must be a boolean/],
    [() => systemClock.sleep(5, { signal: {} as AbortSignal }), /sleep: options.signal must be an AbortSignal/],
    [() => systemClock.alarm(5, 'x' as unknown as () => void), /alarm: fire must be a function/],
    [() => systemClock.alarm(5, () => {}, { loop: 1 as unknown as boolean }), /alarm: options.loop must be a boolean/],
    [() => systemClock.track(1 as unknown as string, async () => {}), /track: name must be a string/],
  ])('refuses a wrong argument with a TypeError saying which (%#)', (call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});

describe('clockOption', () => {
  it('is the real clock when none is given, and the given one otherwise', () => {
    expect(clockOption(undefined)).toBe(systemClock);
    const mine = { ...systemClock };
    expect(clockOption(mine)).toBe(mine);
  });

  it.each([
    [null, 'clock must be a Clock'],
    [Date.now, 'clock must be a Clock'],
    [{ now: Date.now }, 'clock.sleep must be a function'],
    [{ ...systemClock, track: undefined }, 'clock.track must be a function'],
  ])('refuses what is not a Clock, naming the option (%#)', (value, message) => {
    expect(() => clockOption(value)).toThrow(TypeError);
    expect(() => clockOption(value)).toThrow(message);
    expect(() => clockOption(value, 'options.clock')).toThrow(/^options\.clock/);
  });
});
