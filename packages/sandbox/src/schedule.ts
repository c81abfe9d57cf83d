// The schedule clock: a virtual clock that runs with the sandbox's clock (`@pay/clock`: the real
// one unless a test clock was given) and can be moved forward, and the jobs that fall due on it
// (webhook attempts, expiry, automatic payout completion).
//
// Left alone, due jobs run from an alarm of the clock, each on its own and each as tracked work
// (`clock.track`), so a slow webhook receiver delays nothing else and a test clock waits for them.
// `advance(ms)` first lets jobs already running finish (their follow-ups may fall inside the
// window), then steps the clock from one due time to the next, running each group of jobs due at
// the same instant before moving on, so a test sees a whole retry schedule, in order, in
// milliseconds. Given a clock that moves itself (a test clock, which has `advance`), the schedule
// clock is that clock: `advance(ms)` moves it, and it runs the jobs from their alarms in the same
// order, together with every other package on the same clock.
import { type Clock, systemClock } from '@pay/clock';

/** A unit of work due at a time on the schedule clock. It must not throw; errors are reported. */
export type Job = () => void | Promise<void>;

/** What a job is, as the clock tracks it (a test clock names work that never finishes). */
export type JobName = 'sandbox.webhook' | 'sandbox.expiry' | 'sandbox.payout';

interface Entry {
  due: number;
  seq: number;
  name: JobName;
  run: Job;
  /** What the job belongs to (a transaction id), so that all its jobs can be cancelled at once. */
  key: string | undefined;
  cancelled: boolean;
}

// Jobs of one instant run together, at most this many at a time (1,000 deliveries due at once
// should not open 1,000 sockets).
const BATCH_CONCURRENCY = 64;
// setTimeout's largest delay; a job further away is re-armed when the alarm fires (the real clock
// copes with longer ones, a Clock of someone else's may not), and inTime's bound.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The clock's own `advance`, if it has one (a test clock): then moving the schedule moves it. */
function ownAdvance(clock: Clock): ((ms: number) => Promise<unknown>) | undefined {
  const advance = (clock as { advance?: unknown }).advance;
  return typeof advance === 'function' ? (ms) => advance.call(clock, ms) as Promise<unknown> : undefined;
}

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
  // Cancels the alarm set for the earliest job.
  #cancelAlarm: (() => void) | undefined;
  // The schedule time the alarm is set for: a job due no earlier needs no new alarm.
  #armedFor = Infinity;
  #running = new Set<Promise<void>>();
  #advancing = false;
  #queue: Promise<unknown> = Promise.resolve();
  #generation = new AbortController();
  #closed = false;
  readonly #onError: (error: unknown) => void;
  readonly #waitMs: number;
  readonly #moveClock: ((ms: number) => Promise<unknown>) | undefined;
  /** The clock the schedule clock runs with (and the sandbox signs and judges signatures by). */
  readonly clock: Clock;

  /**
   * @param waitMs The longest an advance waits for jobs (webhook attempts) in real time: past it,
   *   jobs still running are left to finish in the background, jobs still due in the window are
   *   started without waiting, and the advance answers. Jobs that finish later plan their
   *   follow-ups from the clock as it is then. (A clock that moves itself waits by its own rule.)
   * @param clock Where now comes from, and the alarm that runs due jobs: the real clock by default.
   */
  constructor(onError: (error: unknown) => void, waitMs = Infinity, clock: Clock = systemClock) {
    this.#onError = onError;
    this.#waitMs = waitMs;
    this.clock = clock;
    this.#moveClock = ownAdvance(clock);
  }

  /** Whether `advance` moves the clock itself (a test clock) rather than an offset of its own. */
  get movesClock(): boolean {
    return this.#moveClock !== undefined;
  }

  /** Now on the schedule clock, in milliseconds since the epoch: the clock's now plus the offset. */
  now(): number {
    return this.#frozen ?? this.clock.now() + this.#offset;
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
   * Runs `run` when the schedule clock reaches `due` (at once when it is already past), tracked on
   * the clock as `name`. A `key` (a transaction id) lets {@link cancel} drop every job of that key
   * still waiting.
   */
  at(due: number, name: JobName, run: Job, key?: string): void {
    if (this.#closed) return;
    const entry: Entry = { due, seq: this.#seq++, name, run, key, cancelled: false };
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
   * with the new now once it has all run. Calls are queued, never interleaved. With a clock that
   * moves itself, that clock is advanced (every package on it moves too), and the jobs run from
   * their alarms as it passes their times.
   */
  advance(ms: number): Promise<number> {
    const move = this.#moveClock;
    const step = this.#queue.then(() => (move === undefined ? this.#advance(ms) : move(ms).then(() => this.now())));
    this.#queue = step.catch(() => {});
    return step;
  }

  /** How far the schedule clock is ahead of the clock (wall time, by default), in ms (a state file saves it). */
  get offset(): number {
    return this.#offset;
  }

  /** Puts the schedule clock `ms` ahead of the clock (a state file being loaded; never behind it). */
  setOffset(ms: number): void {
    this.#offset = Math.max(0, ms);
    this.#arm();
  }

  /** Drops every job and goes back to the clock's time (no offset); work in flight is aborted. */
  reset(): void {
    this.#generation.abort();
    this.#generation = new AbortController();
    this.#jobs = new Queue();
    this.#byKey = new Map();
    this.#offset = 0;
    this.#frozen = null;
    this.#arm();
  }

  /** Stops the alarm and aborts work in flight; nothing runs afterwards. */
  close(): void {
    this.#closed = true;
    this.#generation.abort();
    this.#jobs = new Queue();
    this.#byKey = new Map();
    this.#cancelAlarm?.();
  }

  // The advance of a clock that cannot move itself: the offset moves. Its wait for jobs under way
  // (the deadline) is real time, as it bounds I/O: a receiver that is slow in real time.
  async #advance(ms: number): Promise<number> {
    this.#advancing = true;
    this.#cancelAlarm?.();
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
        // Past the deadline, the rest of the window is started as the alarm would start it.
        if (Date.now() >= deadline) this.#background(batch);
        else await this.#runAll(batch, deadline);
      }
      // A reset while advancing put the schedule clock back on the clock's time; it stays there.
      if (generation !== this.#generation) return this.now();
      // Never behind the clock (an advance of 0 s that took a while would otherwise leave a
      // negative offset, which a state file cannot hold).
      this.#offset = Math.max(0, target - this.clock.now());
      return target;
    } finally {
      this.#frozen = null;
      this.#advancing = false;
      this.#arm();
    }
  }

  /**
   * Runs a batch, BATCH_CONCURRENCY jobs at a time, until done or `deadline` (real time): then the
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

  /** Starts jobs without waiting for them, as the alarm does. */
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

  // Tracked from its first synchronous step, so that a test clock firing the alarm sees the job
  // busy before it moves on, and waits for its I/O (a webhook attempt) to end.
  async #run(entry: Entry): Promise<void> {
    try {
      await this.clock.track(entry.name, async () => entry.run());
    } catch (error) {
      this.#onError(error);
    }
  }

  #arm(): void {
    this.#cancelAlarm?.();
    this.#cancelAlarm = undefined;
    this.#armedFor = Infinity;
    const first = this.#jobs.peek();
    if (this.#closed || this.#advancing || first === undefined) return;
    const delay = Math.min(Math.max(0, first.due - this.now()), MAX_TIMER_MS);
    // Anything due before the alarm fires is run by it (a job due "now" is late by then anyway).
    this.#armedFor = Math.max(first.due, this.now());
    // The clock never keeps a process alive by itself; the server does.
    this.#cancelAlarm = this.clock.alarm(delay, () => this.#fire(), { unref: true });
  }

  #fire(): void {
    this.#cancelAlarm = undefined;
    this.#armedFor = Infinity;
    if (this.#advancing) return;
    this.#background(this.#take(this.now()));
    this.#arm();
  }
}

/**
 * Waits for `work` until `deadline` (wall time, ms): its value, or false once the deadline passed.
 * Real time on purpose: it bounds how long an advance waits for I/O, not when anything is due.
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
