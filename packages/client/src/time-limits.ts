// Every attempt's time limit, on one timer. Starting and clearing a timer per attempt costs more
// than all the rest of the client's own work on a lookup: Node keeps a list per duration and
// re-arms the event loop's timer whenever a list is created or emptied, which a client making one
// call at a time does on every call. So attempts in flight are kept in a set, and one timer is
// armed for the earliest limit among them. An attempt that ends just leaves the set; the timer is
// left to fire, finds nothing due, and is armed again only if attempts remain. It never keeps a
// process alive (unref'd where the runtime can), so a script exits as soon as its calls end.

/** A running attempt's time limit: `controller` is aborted at `at` unless the attempt ends first. */
export interface TimeLimit {
  /** When, in epoch milliseconds. */
  readonly at: number;
  /** What to abort then. */
  readonly controller: AbortController;
  /** True once the limit passed and the controller was aborted for it. */
  expired: boolean;
}

const running = new Set<TimeLimit>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** When the timer fires, or Infinity when none is armed. */
let armedFor = Number.POSITIVE_INFINITY;

/** Aborts `controller` `ms` milliseconds from now, unless {@link endTimeLimit} comes first. */
export function startTimeLimit(controller: AbortController, ms: number): TimeLimit {
  const limit: TimeLimit = { at: Date.now() + ms, controller, expired: false };
  running.add(limit);
  if (limit.at < armedFor) arm(limit.at);
  return limit;
}

/** The attempt is over (answered or failed): its limit no longer applies. */
export function endTimeLimit(limit: TimeLimit): void {
  running.delete(limit);
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  armedFor = at;
  timer = setTimeout(fire, Math.max(0, at - Date.now()));
  unref(timer);
}

function fire(): void {
  timer = undefined;
  armedFor = Number.POSITIVE_INFINITY;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const limit of running) {
    if (limit.at <= now) {
      running.delete(limit); // deleting the current entry is safe while iterating a Set
      limit.expired = true;
      limit.controller.abort();
    } else if (limit.at < next) {
      next = limit.at;
    }
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next);
}

/** Lets the process exit while the timer is armed: Node and Bun have `unref()`, Deno `Deno.unrefTimer`. */
function unref(handle: ReturnType<typeof setTimeout>): void {
  if (typeof handle === 'object' && handle !== null && typeof (handle as { unref?: unknown }).unref === 'function') {
    (handle as { unref(): void }).unref();
    return;
  }
  const deno = (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno;
  if (typeof handle === 'number' && typeof deno?.unrefTimer === 'function') deno.unrefTimer(handle);
}

/** Attempts whose limit is being watched: for tests. */
export function runningTimeLimits(): number {
  return running.size;
}
