/// <reference types="node" />
// The work a test clock (test-clock.ts) waits for: each piece of work a package tracks, nested by
// the async context it runs in (AsyncLocalStorage), and whether it is busy or resting (sleeping on
// the clock, or waiting only for work that rests). `settle` waits until none is busy.
import { AsyncLocalStorage } from 'node:async_hooks';

/** A test clock could not finish a step: work that never rests, or an alarm that threw. */
export class TestClockError extends Error {
  override readonly name = 'TestClockError';
  /** A brand other packages recognise it by, instead of `instanceof`. */
  readonly code = 'test_clock';
}

interface Task {
  name: string;
  parent: Task | undefined;
  children: Set<Task>;
  // Sleeps on this clock it is waiting for: above zero, it rests.
  sleeping: number;
}

/**
 * The tracked work the caller runs in, for every test clock of the process at once: one storage,
 * not one per clock. Node runs the hook of every AsyncLocalStorage that has held a store on every
 * promise and async resource made afterwards, for the life of the process; with one per clock, a
 * process that made a hundred clocks (a test per clock, the README's outage run a hundred times)
 * paid a hundred of them on every promise, more with each clock made. Each clock finds its own
 * task in the map, so clocks nested in each other's work keep their own.
 */
const contexts = new AsyncLocalStorage<ReadonlyMap<TrackedWork, Task>>();

// One turn of the event loop: microtasks and I/O callbacks that are ready run before it ends.
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class TrackedWork {
  readonly #live = new Set<Task>();
  #version = 0;
  #onChange: (() => void)[] = [];

  /** @param idleTimeoutMs How long, in real time, `settle` waits for busy work before it fails. */
  constructor(readonly idleTimeoutMs: number) {}

  /** The tracked work the caller runs in, if any. */
  current(): Task | undefined {
    return contexts.getStore()?.get(this);
  }

  /** Something that may end a wait changed: a task started, ended, slept or woke. */
  changed(): void {
    this.#version++;
    const waiting = this.#onChange;
    this.#onChange = [];
    for (const wake of waiting) wake();
  }

  /** The names of the tracked work busy right now (resting work is not listed). */
  busyNames(): string[] {
    return this.#busyTasks().map((task) => task.name);
  }

  #busyTasks(): Task[] {
    const resting = (task: Task): boolean => task.sleeping > 0 || (task.children.size > 0 && [...task.children].every(resting));
    return [...this.#live].filter((task) => !resting(task));
  }

  async track<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (typeof name !== 'string') throw new TypeError('track: name must be a string');
    if (typeof work !== 'function') throw new TypeError('track: work must be a function returning a promise');
    const outer = contexts.getStore();
    const parent = outer?.get(this);
    const task: Task = { name, parent, children: new Set(), sleeping: 0 };
    parent?.children.add(task);
    this.#live.add(task);
    this.changed();
    try {
      return await contexts.run(new Map(outer).set(this, task), work);
    } finally {
      this.#live.delete(task);
      parent?.children.delete(task);
      this.changed();
    }
  }

  // Waits until no tracked work is busy, and nothing changed over two turns of the event loop.
  async settle(): Promise<void> {
    const idleTimeoutMs = this.idleTimeoutMs;
    const giveUpAt = performance.now() + idleTimeoutMs;
    for (;;) {
      const seen = this.#version;
      await turn();
      if (this.#busyTasks().length === 0) {
        await turn();
        if (this.#version === seen && this.#busyTasks().length === 0) return;
        continue;
      }
      const left = giveUpAt - performance.now();
      if (left <= 0) {
        const names = this.busyNames();
        throw new TestClockError(
          `the test clock waited ${idleTimeoutMs} ms of real time for work to finish, and ${names.length} still ${names.length === 1 ? 'is' : 'are'} busy: ${names.slice(0, 10).join(', ')}`,
        );
      }
      let giveUp: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#onChange.push(resolve);
        giveUp = setTimeout(resolve, left);
      });
      clearTimeout(giveUp);
    }
  }
}
