// A clock for tests that moves only when told to, and moves every package handed it at once.
//
// Time skips; it does not race. `advance` steps from one due timer to the next, fires what is due
// at that instant, then waits until the work those timers set off has finished before it moves
// again: a webhook attempt and the receiver's answer, a reconciler pass and its lookups. Work is
// known through `track` (each package tracks its own: a client call, a delivery, a pass), and
// work sleeping on this clock counts as resting, so a retry's back-off is a timer like any other.
// Which tracked work a sleep belongs to follows the async context (AsyncLocalStorage), so nested
// work (a pass that makes client calls) rests when what it waits for rests.
import type { Clock, SleepOptions, WaitOptions } from './clock.js';
import { alarmArguments, sleepArguments } from './checks.js';
import { type Duration, durationMs } from './duration.js';
import { type Timer, TimerQueue } from './timer-queue.js';
import { TestClockError, TrackedWork } from './tracked-work.js';

// The error's home is tracked-work.ts (settle throws it); the package exports it from here.
export { TestClockError };

/** Options of {@link createTestClock}. */
export interface TestClockOptions {
  /** Where the clock starts: a Date, unix milliseconds or an ISO string. Default: the real time now. */
  start?: Date | number | string | undefined;
  /**
   * How long, in real time, a step waits for tracked work to finish before `advance` fails with
   * the names of the work still busy (a handler that never answers, a server that is down).
   * Default 30 s: real I/O on a loaded machine, not a performance claim.
   */
  idleTimeoutMs?: number | undefined;
}

/** A {@link Clock} that stands still until a test moves it. */
export interface TestClock extends Clock {
  /**
   * Moves the clock forward by `duration`, firing in order every timer that falls due on the way
   * and waiting, after each instant, until the work it set off is done. Resolves with the new now
   * (unix ms). Calls are queued, never interleaved.
   * @throws TestClockError when tracked work stays busy past `idleTimeoutMs`, or what an alarm
   *   threw; the clock then stands at the instant it failed at.
   */
  advance(duration: Duration): Promise<number>;
  /**
   * Advances from timer to timer until none is left but the waits of loops that run for ever
   * (a reconciler's schedule), then resolves with the new now.
   * @param limit The furthest it may go (default one day): a timer still set beyond it fails the call.
   */
  runUntilIdle(limit?: Duration): Promise<number>;
  /** Waits, without moving the clock, until no tracked work is busy. */
  settle(): Promise<void>;
  /** Timers still set, loops' included. */
  readonly pending: number;
  /** The names of the tracked work busy right now (resting work is not listed). */
  readonly busy: string[];
}

function startOf(start: TestClockOptions['start']): number {
  if (start === undefined) return Date.now();
  const ms = start instanceof Date ? start.getTime() : typeof start === 'string' ? Date.parse(start) : start;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError('start must be a valid Date, unix milliseconds or an ISO date string');
  return ms;
}

/** A clock that moves only on `advance`, for tests of code that takes a {@link Clock}. */
export function createTestClock(options: TestClockOptions = {}): TestClock {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  if (typeof idleTimeoutMs !== 'number' || !(idleTimeoutMs > 0)) throw new TypeError('idleTimeoutMs must be a positive number');
  let now = startOf(options.start);
  const queue = new TimerQueue();
  const { timers } = queue;
  const work = new TrackedWork(idleTimeoutMs);
  const settle = () => work.settle();
  let steps: Promise<unknown> = Promise.resolve();
  let failures: unknown[] = [];

  const alarm = (ms: number, fire: () => void, waitOptions?: WaitOptions): (() => void) => {
    alarmArguments(ms, fire, waitOptions);
    const timer = queue.set(now + Math.max(0, ms), fire, waitOptions?.loop === true);
    return () => queue.drop(timer);
  };

  const sleep = (ms: number, sleepOptions?: SleepOptions): Promise<void> => {
    sleepArguments(ms, sleepOptions);
    const signal = sleepOptions?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const task = work.current();
    return new Promise<void>((resolve, reject) => {
      let ended = false;
      const end = () => {
        if (ended) return false;
        ended = true;
        signal?.removeEventListener('abort', stop);
        if (task) task.sleeping--;
        work.changed();
        return true;
      };
      const timer = queue.set(now + Math.max(0, ms), () => end() && resolve(), sleepOptions?.loop === true);
      const stop = () => {
        queue.drop(timer);
        if (end()) reject(signal?.reason);
      };
      signal?.addEventListener('abort', stop, { once: true });
      if (task) task.sleeping++;
      work.changed();
    });
  };

  // Fires every timer due at or before now, in order; what they set for now fires on the next step.
  const fireDue = () => {
    for (const timer of queue.takeDue(now)) {
      try {
        timer.fire();
      } catch (error) {
        failures.push(error);
      }
    }
  };

  const rethrow = () => {
    if (failures.length === 0) return;
    const [first, ...more] = failures;
    failures = [];
    if (more.length === 0) throw first;
    throw new AggregateError([first, ...more], `${more.length + 1} alarms threw while the test clock advanced`);
  };

  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const run = steps.then(step);
    steps = run.catch(() => {});
    return run;
  };

  const runTo = async (target: number, stopWhen: () => boolean) => {
    await settle();
    while (queue.next !== undefined && queue.next.due <= target && !stopWhen()) {
      now = Math.max(now, queue.next.due);
      fireDue();
      await settle();
      rethrow();
    }
  };

  const clock: TestClock = {
    now: () => now,
    sleep,
    alarm,
    track: (name, tracked) => work.track(name, tracked),
    settle,
    advance: (duration) => {
      const ms = durationMs(duration, 'advance');
      return serially(async () => {
        const target = now + ms;
        await runTo(target, () => false);
        now = Math.max(now, target);
        await settle();
        return now;
      });
    },
    runUntilIdle: (limit = '1d') => {
      const ms = durationMs(limit, 'limit');
      return serially(async () => {
        const target = now + ms;
        const onlyLoops = () => timers.every((timer) => timer.loop);
        await runTo(target, onlyLoops);
        if (!onlyLoops()) {
          now = Math.max(now, target);
          const next = timers.find((timer) => !timer.loop) as Timer;
          throw new TestClockError(
            `runUntilIdle stopped at its limit of ${ms} ms with timers still set (the next ${next.due - now} ms later); pass a longer limit or advance`,
          );
        }
        return now;
      });
    },
    get pending() {
      return timers.length;
    },
    get busy() {
      return work.busyNames();
    },
  };
  return Object.freeze(clock);
}
