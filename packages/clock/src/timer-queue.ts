// The test clock's timers (test-clock.ts): ordered by due time, then by the order they were set,
// and taken off the front as the clock reaches them.

/** One timer: an alarm, or the wake-up of a sleep. */
export interface Timer {
  due: number;
  seq: number;
  fire: () => void;
  loop: boolean;
  cancelled: boolean;
}

export class TimerQueue {
  /** Ordered by due time, then by the order they were set. */
  readonly timers: Timer[] = [];
  #seq = 0;

  /** Sets a timer due at `due` (unix ms on the test clock). */
  set(due: number, fire: () => void, loop: boolean): Timer {
    const timer: Timer = { due, seq: this.#seq++, fire, loop, cancelled: false };
    let at = this.timers.length;
    while (at > 0 && (this.timers[at - 1] as Timer).due > timer.due) at--;
    this.timers.splice(at, 0, timer);
    return timer;
  }

  /** Cancels a timer (once; a timer already fired or cancelled is left alone). */
  drop(timer: Timer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    const at = this.timers.indexOf(timer);
    if (at >= 0) this.timers.splice(at, 1);
  }

  /** The first timer due, if any. */
  get next(): Timer | undefined {
    return this.timers[0];
  }

  /** Takes off every timer due at or before `now`, in order, each marked as no longer set. */
  takeDue(now: number): Timer[] {
    const due: Timer[] = [];
    while (this.timers.length > 0 && (this.timers[0] as Timer).due <= now) due.push(this.timers.shift() as Timer);
    for (const timer of due) timer.cancelled = true;
    return due;
  }
}
