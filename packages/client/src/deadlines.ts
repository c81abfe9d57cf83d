// Per-attempt time limits that cost almost nothing when nothing times out. A fresh AbortController
// for every request is the single largest cost a client adds to a bare fetch on Node (measured in
// bench/): undici ties each new signal to its request through weak references and a finalizer.
// So attempts whose deadlines fall in the same short window share one controller, aborted by one
// timer at the end of that window: every attempt still in flight then is past its own deadline,
// and none is aborted more than one window (at most 100 ms, at most 2 % of the limit) late.
// The timer is armed only while an attempt of its window is in flight, so nothing keeps a process
// alive, and no controller serves more than MAX_MEMBERS requests (one abort listener each).

const MAX_MEMBERS = 1000;

interface Window {
  readonly controller: AbortController;
  readonly end: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  inFlight: number;
  members: number;
}

/** A time limit for one attempt: the signal to give fetch, and the release when it is over. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the limit has passed and the signal was aborted for it. */
  readonly expired: () => boolean;
  /** The attempt is over (answered or failed): stop timing it. */
  readonly release: () => void;
}

const windows = new Map<string, Window>();

function fire(key: string, window: Window): void {
  window.timer = undefined;
  if (windows.get(key) === window) windows.delete(key);
  window.controller.abort(new Error('time limit reached'));
}

/** Forgets windows that are over and have nothing in flight. */
function sweep(now: number): void {
  for (const [key, window] of windows) if (window.inFlight === 0 && window.end <= now) windows.delete(key);
}

/** A deadline `limitMs` from now. */
export function deadlineIn(limitMs: number): Deadline {
  if (windows.size > 64) sweep(Date.now());
  const width = Math.max(1, Math.min(100, Math.floor(limitMs / 50)));
  const end = Math.ceil((Date.now() + limitMs) / width) * width;
  const key = `${width}:${end}`;
  let window = windows.get(key);
  if (window === undefined || window.controller.signal.aborted || window.members >= MAX_MEMBERS) {
    window = { controller: new AbortController(), end, timer: undefined, inFlight: 0, members: 0 };
    windows.set(key, window);
  }
  const w = window;
  w.members += 1;
  w.inFlight += 1;
  if (w.timer === undefined) w.timer = setTimeout(() => fire(key, w), Math.max(0, end - Date.now()));
  let released = false;
  return {
    signal: w.controller.signal,
    expired: () => w.controller.signal.aborted,
    release: () => {
      if (released) return;
      released = true;
      w.inFlight -= 1;
      if (w.inFlight === 0 && w.timer !== undefined) {
        clearTimeout(w.timer);
        w.timer = undefined;
        // A window whose end has passed with nothing in flight is never needed again.
        if (Date.now() >= w.end && windows.get(key) === w) windows.delete(key);
      }
    },
  };
}
