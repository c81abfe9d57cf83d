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
  /** What the job belongs to (a transaction id), so that all its jobs can be cancelled at once. */
  key: string | undefined;
  cancelled: boolean;
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
  #ticks = 0;
  #jobs = new Queue();
  // Jobs by key, to cancel those of a transaction the sandbox forgets.
  #byKey = new Map<string, Set<Entry>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  // The schedule time the timer is set for: a job due no earlier needs no new timer.
  #armedFor = Infinity;
  #running = new Set<Promise<void>>();
  #advancing = false;
  #queue: Promise<unknown> = Promise.resolve();
  #generation = new AbortController();
  #closed = false;
  readonly #onError: (error: unknown) => void;
  readonly #waitMs: number;

  /**
   * @param waitMs The longest an advance waits for jobs (webhook attempts) in wall time: past it,
   *   jobs still running are left to finish in the background, jobs still due in the window are
   *   started without waiting, and the advance answers. Jobs that finish later plan their
   *   follow-ups from the clock as it is then.
   */
  constructor(onError: (error: unknown) => void, waitMs = Infinity) {
    this.#onError = onError;
    this.#waitMs = waitMs;
  }

  /** Now on the schedule clock, in milliseconds since the epoch. */
  now(): number {
    return this.#frozen ?? Date.now() + this.#offset;
  }

  /**
   * A number that grows with every call: what happens on the clock (a request arriving, a status
   * changing, a webhook attempt starting) takes one, so that things within the same millisecond
   * keep the order they happened in.
   */
  tick(): number {
    return ++this.#ticks;
  }

  /** Aborted when the schedule is reset or closed: work in flight stops and schedules nothing more. */
  get signal(): AbortSignal {
    return this.#generation.signal;
  }

  /** Number of jobs waiting. */
  get pending(): number {
    return this.#jobs.size;
  }

  /**
   * Runs `run` when the schedule clock reaches `due` (at once when it is already past). A `key`
   * (a transaction id) lets {@link cancel} drop every job of that key still waiting.
   */
  at(due: number, run: Job, key?: string): void {
    if (this.#closed) return;
    const entry: Entry = { due, seq: this.#seq++, run, key, cancelled: false };
    this.#jobs.push(entry);
    if (key !== undefined) {
      const jobs = this.#byKey.get(key);
      if (jobs === undefined) this.#byKey.set(key, new Set([entry]));
      else jobs.add(entry);
    }
    if (due < this.#armedFor) this.#arm();
  }

  /** Drops every waiting job planned with `key`; a job already running finishes. */
  cancel(key: string): void {
    const jobs = this.#byKey.get(key);
    if (jobs === undefined) return;
    this.#byKey.delete(key);
    for (const entry of jobs) entry.cancelled = true;
    this.#jobs.dropCancelled(jobs.size);
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

  /** How far the schedule clock is ahead of wall time, in ms (a state file saves it). */
  get offset(): number {
    return this.#offset;
  }

  /** Puts the schedule clock `ms` ahead of wall time (a state file being loaded; never backwards of wall time). */
  setOffset(ms: number): void {
    this.#offset = Math.max(0, ms);
    this.#arm();
  }

  /** Drops every job and goes back to wall time; work in flight is aborted. */
  reset(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#jobs = new Queue();
    this.#byKey = new Map();
    this.#offset = 0;
    this.#frozen = null;
    this.#arm();
  }

  /** Stops the timer and aborts work in flight; nothing runs afterwards. */
  close(): void {
    this.#closed = true;
    this.#generation.abort();
    this.#jobs = new Queue();
    this.#byKey = new Map();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  async #advance(ms: number): Promise<number> {
    this.#advancing = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const deadline = Date.now() + this.#waitMs;
    try {
      while (this.#running.size > 0 && Date.now() < deadline) await inTime(deadline, Promise.all(this.#running));
      const start = this.now();
      const target = start + ms;
      const generation = this.#generation;
      let until = start;
      this.#frozen = start;
      for (let next = this.#jobs.peek(); !this.#closed && next !== undefined && next.due <= target; next = this.#jobs.peek()) {
        until = Math.max(until, next.due); // never backwards
        this.#frozen = until;
        const batch = this.#take(until);
        // Past the deadline, the rest of the window is started as the timer would start it.
        if (Date.now() >= deadline) this.#background(batch);
        else await this.#runAll(batch, deadline);
      }
      // A reset while advancing put the clock back on wall time; it stays there.
      if (generation !== this.#generation) return this.now();
      // Never behind wall time (an advance of 0 s that took a while would otherwise leave a
      // negative offset, which a state file cannot hold).
      this.#offset = Math.max(0, target - Date.now());
      return target;
    } finally {
      this.#frozen = null;
      this.#advancing = false;
      this.#arm();
    }
  }

  /**
   * Runs a batch, BATCH_CONCURRENCY jobs at a time, until done or `deadline` (wall time): then the
   * jobs still running are left to finish in the background and the rest are started there.
   */
  async #runAll(batch: Entry[], deadline: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < batch.length) await this.#run(batch[next++]!);
    };
    const all = Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, batch.length) }, worker));
    if (
      await inTime(
        deadline,
        all.then(() => true),
      )
    )
      return;
    const rest = batch.slice(next);
    next = batch.length; // the workers stop after the job in hand
    const running = all.then(() => {}).finally(() => this.#running.delete(running));
    this.#running.add(running);
    this.#background(rest);
  }

  /** Starts jobs without waiting for them, as the timer does. */
  #background(entries: readonly Entry[]): void {
    for (const entry of entries) {
      // `then`, not `finally`, which makes three promises where this makes one.
      const done = () => void this.#running.delete(running);
      const running: Promise<void> = this.#run(entry).then(done, done);
      this.#running.add(running);
    }
  }

  /** Takes every job due at or before `time` off the queue, in order. */
  #take(time: number): Entry[] {
    const due = this.#jobs.popUntil(time);
    for (const entry of due) {
      if (entry.key === undefined) continue;
      const jobs = this.#byKey.get(entry.key);
      jobs?.delete(entry);
      if (jobs?.size === 0) this.#byKey.delete(entry.key);
    }
    return due;
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
    this.#armedFor = Infinity;
    const first = this.#jobs.peek();
    if (this.#closed || this.#advancing || first === undefined) return;
    const delay = Math.min(Math.max(0, first.due - this.now()), MAX_TIMER_MS);
    // Anything due before the timer fires is run by it (a job due "now" is late by then anyway).
    this.#armedFor = Math.max(first.due, this.now());
    this.#timer = setTimeout(() => this.#fire(), delay);
    // The clock never keeps a process alive by itself; the server does.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    if (this.#advancing) return;
    this.#background(this.#take(this.now()));
    this.#arm();
  }
}

/**
 * Waits for `work` until `deadline` (wall time, ms): its value, or false once the deadline passed.
 */
function inTime<T>(deadline: number, work: Promise<T>): Promise<T | false> {
  if (deadline - Date.now() > MAX_TIMER_MS) return work; // no deadline (setTimeout would fire at once)
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A binary min-heap of entries by (due, seq): the earliest first, ties in the order planned.
 * Cancelled entries are skipped when they come up, and swept out once they are the majority, so
 * a sandbox that forgets transactions as fast as it creates them holds no more jobs than it runs.
 */
class Queue {
  #heap: Entry[] = [];
  #cancelled = 0;

  /** Entries waiting, cancelled ones excluded. */
  get size(): number {
    return this.#heap.length - this.#cancelled;
  }

  peek(): Entry | undefined {
    while (this.#heap.length > 0 && this.#heap[0]!.cancelled) {
      this.#pop();
      this.#cancelled--;
    }
    return this.#heap[0];
  }

  /** Counts `n` entries just marked cancelled, and sweeps them out when they are most of the heap. */
  dropCancelled(n: number): void {
    this.#cancelled += n;
    if (this.#cancelled > 64 && this.#cancelled * 2 > this.#heap.length) {
      // A sorted array is a valid heap.
      this.#heap = this.#heap.filter((e) => !e.cancelled).sort((a, b) => (before(a, b) ? -1 : 1));
      this.#cancelled = 0;
    }
  }

  push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const child = heap[i]!;
      const above = heap[parent]!;
      if (!before(child, above)) break;
      // Swapped through locals: a destructuring swap allocates an array each time.
      heap[i] = above;
      heap[parent] = child;
      i = parent;
    }
  }

  /** Removes and returns, in order, every entry due at or before `time`. */
  popUntil(time: number): Entry[] {
    const out: Entry[] = [];
    for (let next = this.peek(); next !== undefined && next.due <= time; next = this.peek()) out.push(this.#pop());
    return out;
  }

  #pop(): Entry {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        const moved = heap[i]!;
        heap[i] = heap[smallest]!;
        heap[smallest] = moved;
        i = smallest;
      }
    }
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
