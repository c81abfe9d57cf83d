// A token bucket: the one budget of signature diagnoses, whoever's (diagnosis-bounds.ts names the
// rates). No timers: the tokens are worked out from the time of each take.

/** `perSecond` takes a second at most, in bursts of as many; starts full. */
export class TokenBucket {
  readonly #perSecond: number;
  #tokens: number;
  #at: number | undefined;

  constructor(perSecond: number) {
    this.#perSecond = perSecond;
    this.#tokens = perSecond;
  }

  /** A full bucket again (a reset: tests start from the same state). */
  refill(): void {
    this.#tokens = this.#perSecond;
  }

  /**
   * Whether a token is left at `nowMs` (and takes it). A clock set back (a test clock) counts as
   * time passed, never as a debt: the budget bounds work, not the clock's direction.
   */
  take(nowMs: number): boolean {
    const elapsed = this.#at === undefined ? Number.POSITIVE_INFINITY : Math.abs(nowMs - this.#at);
    const refilled = this.#tokens + (elapsed / 1000) * this.#perSecond;
    // NaN (a time that is not a number) empties the bucket and is not kept as the time of the last take.
    this.#tokens = Number.isNaN(refilled) ? 0 : Math.min(this.#perSecond, refilled);
    if (Number.isFinite(nowMs)) this.#at = nowMs;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
