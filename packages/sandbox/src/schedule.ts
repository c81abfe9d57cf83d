// The schedule clock: a virtual clock that runs with wall time and can be moved forward, and the
// jobs that fall due on it (webhook attempts, expiry, automatic payout completion).
//
// Left alone, due jobs run from a timer, each on its own, so a slow webhook receiver delays
// nothing else. `advance(ms)` first lets jobs already running finish (their follow-ups may fall
// inside the window), then steps the clock from one due time to the next, running each group of
// jobs due at the same instant before moving on, so a test sees a whole retry schedule, in
// order, in milliseconds.

/** A unit of work due at a time on the schedule clock. It must not throw; errors are reported. */
export type Job = () => void | Promise<void>;

interface Entry {
  due: number;
  seq: number;
  run: Job;
}

// Jobs of one instant run together, at most this many at a time (1,000 deliveries due at once
// should not open 1,000 sockets).
const BATCH_CONCURRENCY = 64;
// setTimeout's largest delay; a job further away is re-armed when the timer fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The virtual clock and its job queue. */
export class Schedule {
  #offset = 0;
  // While advancing, the clock stands at the instant being run, so an attempt's follow-up is
  // planned exactly its delay after it, whatever wall time the attempt took.
  #frozen: number | null = null;
  #seq = 0;
  #jobs: Entry[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = new Set<Promise<void>>();
  #advancing = false;
  #queue: Promise<unknown> = Promise.resolve();
  #generation = new AbortController();
  #closed = false;
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Now on the schedule clock, in milliseconds since the epoch. */
  now(): number {
    return this.#frozen ?? Date.now() + this.#offset;
  }

  /** Aborted when the schedule is reset or closed: work in flight stops and schedules nothing more. */
  get signal(): AbortSignal {
    return this.#generation.signal;
  }

  /** Number of jobs waiting. */
  get pending(): number {
    return this.#jobs.length;
  }

  /** Runs `run` when the schedule clock reaches `due` (at once when it is already past). */
  at(due: number, run: Job): void {
    if (this.#closed) return;
    const entry = { due, seq: this.#seq++, run };
    // Sorted by (due, seq): binary search for the insertion point keeps the queue in order.
    let lo = 0;
    let hi = this.#jobs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#jobs[mid]!.due <= due) lo = mid + 1;
      else hi = mid;
    }
    this.#jobs.splice(lo, 0, entry);
    if (lo === 0) this.#arm();
  }

  /**
   * Moves the clock forward by `ms`, running everything that falls due, in order, and resolves
   * with the new now once it has all run. Calls are queued, never interleaved.
   */
  advance(ms: number): Promise<number> {
    const step = this.#queue.then(() => this.#advance(ms));
    this.#queue = step.catch(() => {});
    return step;
  }

  /** Drops every job and goes back to wall time; work in flight is aborted. */
  reset(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#jobs = [];
    this.#offset = 0;
    this.#frozen = null;
    this.#arm();
  }

  /** Stops the timer and aborts work in flight; nothing runs afterwards. */
  close(): void {
    this.#closed = true;
    this.#generation.abort();
    this.#jobs = [];
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  async #advance(ms: number): Promise<number> {
    this.#advancing = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    try {
      while (this.#running.size > 0) await Promise.all(this.#running);
      const start = this.now();
      const target = start + ms;
      const generation = this.#generation;
      let until = start;
      this.#frozen = start;
      while (!this.#closed && this.#jobs.length > 0 && this.#jobs[0]!.due <= target) {
        until = Math.max(until, this.#jobs[0]!.due); // never backwards
        this.#frozen = until;
        let count = 0;
        while (count < this.#jobs.length && this.#jobs[count]!.due <= until) count++;
        await this.#runAll(this.#jobs.splice(0, count));
      }
      // A reset while advancing put the clock back on wall time; it stays there.
      if (generation !== this.#generation) return this.now();
      this.#offset = target - Date.now();
      return target;
    } finally {
      this.#frozen = null;
      this.#advancing = false;
      this.#arm();
    }
  }

  async #runAll(batch: Entry[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < batch.length) await this.#run(batch[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, batch.length) }, worker));
  }

  async #run(entry: Entry): Promise<void> {
    try {
      await entry.run();
    } catch (error) {
      this.#onError(error);
    }
  }

  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed || this.#advancing || this.#jobs.length === 0) return;
    const delay = Math.min(Math.max(0, this.#jobs[0]!.due - this.now()), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#fire(), delay);
    // The clock never keeps a process alive by itself; the server does.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    if (this.#advancing) return;
    const now = this.now();
    while (this.#jobs.length > 0 && this.#jobs[0]!.due <= now) {
      const entry = this.#jobs.shift()!;
      const running = this.#run(entry).finally(() => this.#running.delete(running));
      this.#running.add(running);
    }
    this.#arm();
  }
}
