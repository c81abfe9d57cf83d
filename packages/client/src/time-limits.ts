// Every attempt's time limit, on one timer. Starting and clearing a timer per attempt is a
// measurable part of a short call: Node keeps a list per duration and re-arms the event loop's
// timer whenever a list is created or emptied, which a client making one call at a time does on
// every call. So attempts in flight are kept in a list, and one timer is armed for the earliest
// limit among them. An attempt that ends just leaves the list; the timer is left to fire, finds
// nothing due, and is armed again only if attempts remain. It never keeps a process alive
// (unref'd where the runtime can), so a script exits as soon as its calls end.
// These limits bound the network, so they are real time whatever clock the client was given: the
// machine's timer, and times read on the monotonic clock (`performance.now()`): setting the wall
// clock forward or back neither cuts an attempt short nor lets it run over.

import { systemClock } from '@pay/clock';

/** What a time limit stops: an attempt's exchange (or any AbortController). */
export interface Abortable {
  abort(): void;
}

/** A running attempt's time limit: `target` is aborted at `at` unless the attempt ends first. */
export interface TimeLimit {
  /** When, in milliseconds on `performance.now()`'s clock. */
  readonly at: number;
  /** What to abort then. */
  readonly target: Abortable;
  /** True once the limit passed and the target was aborted for it. */
  expired: boolean;
  // Neighbours in the list of running limits (a linked list: joining and leaving cost no hashing).
  previous: TimeLimit | undefined;
  next: TimeLimit | undefined;
}

/** The running limits, most recent first. */
let first: TimeLimit | undefined;
let cancelTimer: (() => void) | undefined;
/** When the timer fires, or Infinity when none is armed. */
let armedFor = Number.POSITIVE_INFINITY;

/** Aborts `target` `ms` milliseconds from now, unless {@link endTimeLimit} comes first. */
export function startTimeLimit(target: Abortable, ms: number): TimeLimit {
  const limit: TimeLimit = { at: performance.now() + ms, target, expired: false, previous: undefined, next: first };
  if (first !== undefined) first.previous = limit;
  first = limit;
  if (limit.at < armedFor) arm(limit.at);
  return limit;
}

/**
 * The attempt is over (answered or failed): its limit no longer applies. False when it was not
 * running (ended already, or expired).
 */
export function endTimeLimit(limit: TimeLimit): boolean {
  if (limit.previous === undefined && first !== limit) return false;
  if (limit.previous === undefined) first = limit.next;
  else limit.previous.next = limit.next;
  if (limit.next !== undefined) limit.next.previous = limit.previous;
  limit.previous = undefined;
  limit.next = undefined;
  return true;
}

function arm(at: number): void {
  cancelTimer?.();
  armedFor = at;
  cancelTimer = systemClock.alarm(Math.max(0, Math.ceil(at - performance.now())), fire, { unref: true });
}

function fire(): void {
  cancelTimer = undefined;
  armedFor = Number.POSITIVE_INFINITY;
  const now = performance.now();
  const due: TimeLimit[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (let limit = first; limit !== undefined; limit = limit.next) {
    if (limit.at <= now) due.push(limit);
    else if (limit.at < next) next = limit.at;
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  // Aborted only once the list is settled: an abort runs listeners (a fetch's, a request's, a
  // caller's) that may start or end attempts, and so change the list, on the spot. Earliest limit
  // first: a timer that fired late (a busy machine) finds several due, and they still end in the
  // order they were due, not in the list's (most recent first).
  due.sort((a, b) => a.at - b.at);
  for (const limit of due) {
    if (!endTimeLimit(limit)) continue;
    limit.expired = true;
    limit.target.abort();
  }
}

/** Attempts whose limit is being watched: for tests. */
export function runningTimeLimits(): number {
  let count = 0;
  for (let limit = first; limit !== undefined; limit = limit.next) count++;
  return count;
}
