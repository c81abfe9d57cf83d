import { setTimeout as realDelay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../src/test-clock.js';

const MIN = 60_000;
const START = Date.UTC(2026, 0, 1);

describe('createTestClock', () => {
  it('stands still until advanced, then fires timers in order at their due times', async () => {
    const clock = createTestClock({ start: START });
    const seen: [string, number][] = [];
    const at = (label: string) => () => seen.push([label, clock.now() - START]);
    clock.alarm(30 * MIN, at('b'));
    clock.alarm(15 * MIN, at('a'));
    clock.alarm(30 * MIN, at('c')); // same instant as b: fires after it, in the order set
    clock.alarm(3 * 60 * MIN, at('later'));
    await realDelay(20);
    expect(clock.now()).toBe(START);
    expect(seen).toEqual([]);
    await expect(clock.advance('1h')).resolves.toBe(START + 60 * MIN);
    expect(seen).toEqual([
      ['a', 15 * MIN],
      ['b', 30 * MIN],
      ['c', 30 * MIN],
    ]);
    expect(clock.pending).toBe(1);
  });

  it('starts from a Date, unix ms or an ISO string', () => {
    expect(createTestClock({ start: new Date(START) }).now()).toBe(START);
    expect(createTestClock({ start: '2026-01-01T00:00:00Z' }).now()).toBe(START);
    expect(() => createTestClock({ start: 'yesterday' })).toThrow(/start must be/);
  });

  it('waits for tracked work a timer set off before it fires the next timer', async () => {
    const clock = createTestClock({ start: START });
    const seen: string[] = [];
    // A retry loop: an attempt that takes real time (I/O), then a 15-minute back-off.
    const job = clock.track('retries', async () => {
      for (let attempt = 1; attempt <= 3; attempt++) {
        await realDelay(30);
        seen.push(`attempt ${attempt} at ${(clock.now() - START) / MIN} min`);
        await clock.sleep(15 * MIN);
      }
    });
    clock.alarm(20 * MIN, () => seen.push('alarm at 20 min'));
    await clock.advance('1h');
    await job;
    expect(seen).toEqual(['attempt 1 at 0 min', 'attempt 2 at 15 min', 'alarm at 20 min', 'attempt 3 at 30 min']);
    expect(clock.busy).toEqual([]);
  });

  it('skips past untracked work: what track is for (the oracle above can fail)', async () => {
    const clock = createTestClock({ start: START });
    const seen: string[] = [];
    // The same loop, untracked: the clock does not know the attempt is in flight.
    const job = (async () => {
      for (let attempt = 1; attempt <= 2; attempt++) {
        if (attempt > 1) await clock.sleep(15 * MIN);
        await realDelay(30);
        seen.push(`attempt ${attempt} at ${(clock.now() - START) / MIN} min`);
      }
    })();
    await clock.advance('1h');
    expect(seen).toEqual([]); // the hour went by while the first attempt was still in flight
    await realDelay(60);
    expect(seen).toEqual(['attempt 1 at 60 min']);
    await clock.advance('15m');
    await job;
    expect(seen).toEqual(['attempt 1 at 60 min', 'attempt 2 at 75 min']);
  });

  it('counts nested work as resting while what it waits for sleeps, and busy while a child works', async () => {
    const clock = createTestClock({ start: START });
    const seen: string[] = [];
    const pass = clock.track('pass', async () => {
      // A pass making a call that backs off once, then a second call doing real I/O.
      await clock.track('call 1', async () => {
        await clock.sleep(5 * MIN);
        seen.push(`call 1 done at ${(clock.now() - START) / MIN}`);
      });
      await clock.track('call 2', async () => {
        await realDelay(40);
        seen.push(`call 2 done at ${(clock.now() - START) / MIN}`);
      });
    });
    await realDelay(5);
    expect(clock.busy).toEqual([]); // pass rests: call 1 sleeps
    clock.alarm(6 * MIN, () => seen.push('alarm at 6'));
    await clock.advance('10m');
    await pass;
    expect(seen).toEqual(['call 1 done at 5', 'call 2 done at 5', 'alarm at 6']);
  });

  it('does not count an alarm as rest: tracked work with a deadline is still busy', async () => {
    const clock = createTestClock({ start: START });
    let deadlinePassed = false;
    const work = clock.track('exchange', async () => {
      const cancel = clock.alarm(MIN, () => {
        deadlinePassed = true;
      });
      await realDelay(40);
      cancel();
    });
    await clock.advance('2m');
    await work;
    expect(deadlinePassed).toBe(false);
  });

  it("ends a sleep early with the signal's reason and forgets its timer", async () => {
    const clock = createTestClock({ start: START });
    const controller = new AbortController();
    const sleeping = clock.sleep(MIN, { signal: controller.signal });
    expect(clock.pending).toBe(1);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.pending).toBe(0);
    const cancel = clock.alarm(MIN, () => {
      throw new Error('cancelled alarms do not fire');
    });
    cancel();
    await clock.advance('2m');
  });

  it('runs until only loops are left', async () => {
    const clock = createTestClock({ start: START });
    const seen: number[] = [];
    const loop = () => {
      clock.alarm(MIN, () => loop(), { loop: true });
    };
    loop();
    clock.alarm(90 * MIN, () => seen.push((clock.now() - START) / MIN));
    clock.alarm(30 * MIN, () => clock.alarm(120 * MIN, () => seen.push((clock.now() - START) / MIN)));
    await expect(clock.runUntilIdle()).resolves.toBe(START + 150 * MIN);
    expect(seen).toEqual([90, 150]);
    expect(clock.pending).toBe(1); // the loop's next round
  });

  it('fails runUntilIdle at its limit, saying what is still set', async () => {
    const clock = createTestClock({ start: START });
    clock.alarm(3 * 86_400_000, () => {});
    await expect(clock.runUntilIdle('1d')).rejects.toMatchObject({
      code: 'test_clock',
      message: expect.stringMatching(/limit of 86400000 ms.*172800000 ms later/),
    });
  });

  it('fails a step whose work never rests, naming it', async () => {
    const clock = createTestClock({ start: START, idleTimeoutMs: 150 });
    let release = () => {};
    const stuck = clock.track('handler for evt_1', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(clock.advance('1m')).rejects.toMatchObject({
      name: 'TestClockError',
      message: expect.stringMatching(/1 still is busy: handler for evt_1/),
    });
    expect(clock.now()).toBe(START); // it stands where the step failed
    release();
    await stuck;
    await expect(clock.advance('1m')).resolves.toBe(START + MIN);
  });

  it('surfaces an alarm that threw, and keeps going afterwards', async () => {
    const clock = createTestClock({ start: START });
    clock.alarm(MIN, () => {
      throw new Error('alarm broke');
    });
    await expect(clock.advance('2m')).rejects.toThrow('alarm broke');
    expect(clock.now()).toBe(START + MIN); // it stands where the alarm threw
    await expect(clock.advance('1m')).resolves.toBe(START + 2 * MIN);
  });

  it('queues advances instead of interleaving them', async () => {
    const clock = createTestClock({ start: START });
    const seen: number[] = [];
    for (const m of [10, 20, 30]) clock.alarm(m * MIN, () => seen.push((clock.now() - START) / MIN));
    const [a, b] = await Promise.all([clock.advance('15m'), clock.advance('15m')]);
    expect([a - START, b - START]).toEqual([15 * MIN, 30 * MIN]);
    expect(seen).toEqual([10, 20, 30]);
  });

  it('runs a timer set at the current instant in the same advance', async () => {
    const clock = createTestClock({ start: START });
    const seen: string[] = [];
    clock.alarm(MIN, () => {
      seen.push('first');
      clock.alarm(0, () => seen.push('then at once'));
    });
    await clock.advance('1m');
    expect(seen).toEqual(['first', 'then at once']);
  });

  it.each([
    [{ idleTimeoutMs: 0 }, /idleTimeoutMs must be a positive number/],
    [{ start: Number.NaN }, /start must be/],
  ])('refuses bad options (%#)', (options, message) => {
    expect(() => createTestClock(options)).toThrow(message);
  });
});

describe('two test clocks, one inside the other’s work', () => {
  it('keep their work apart: a sleep on one clock rests only for that clock', async () => {
    const a = createTestClock({ start: 0 });
    const b = createTestClock({ start: 0, idleTimeoutMs: 300 });
    let woke = false;
    const work = a.track('a.outer', () =>
      b.track('b.inner', async () => {
        await a.sleep(60_000);
        woke = true;
      }),
    );
    // For b, its work waits on something other than b's own clock, so it is busy, and named.
    await expect(b.advance(0)).rejects.toThrow(/b\.inner/);
    // For a, the same work sleeps on a: a's step runs the timer, and the work ends.
    await a.advance('1m');
    await work;
    expect(woke).toBe(true);
  });
});
