// The shape every package of the toolkit reads time through. One small interface, so that a test
// can hand the same clock to the sandbox, the client, the journal and the receiver and move them
// all at once; the real clock (system-clock.ts) is everyone's default.

/** What a wait or an alarm is for, as far as the process and a test clock need to know. */
export interface WaitOptions {
  /**
   * The process need not stay up for this wait alone (Node's `unref`): a background schedule,
   * never a wait someone is blocked on.
   */
  unref?: boolean | undefined;
  /**
   * The wait between two rounds of a loop that runs for ever (a reconciler's schedule, a
   * sweeper). A test clock's `runUntilIdle` does not wait for these, or it would never finish.
   */
  loop?: boolean | undefined;
}

/** Options of {@link Clock.sleep}. */
export interface SleepOptions extends WaitOptions {
  /** Ends the sleep early: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * The current time, and the waits and alarms the toolkit needs. Every method is bound, so it may
 * be passed around alone (`const { now } = clock`).
 */
export interface Clock {
  /** Now, in milliseconds since the unix epoch, like `Date.now()`. */
  now(): number;
  /**
   * Resolves `ms` later on this clock. The caller is waiting: inside {@link Clock.track}ed work,
   * a test clock counts that work as resting until the sleep ends, so time may skip ahead.
   */
  sleep(ms: number, options?: SleepOptions): Promise<void>;
  /**
   * Calls `fire` `ms` later on this clock, unless the returned function is called first. An
   * alarm, not a wait: a deadline or a schedule, which never makes tracked work count as resting.
   */
  alarm(ms: number, fire: () => void, options?: WaitOptions): () => void;
  /**
   * Runs `work` as work in flight, named for error messages. The real clock just runs it; a test
   * clock does not move time while tracked work is busy (doing I/O rather than sleeping on the
   * clock), so what a timer set off finishes before the next timer fires.
   */
  track<T>(name: string, work: () => Promise<T>): Promise<T>;
}
