// The one reader of the journal's numeric options (openJournal's, recover()'s and the
// reconciler's): each is undefined (its default, documented where the option is declared) or a
// whole number in its range, else a TypeError naming the option. The range's top is what a timer
// can wait (2^31-1 ms), so no duration is silently cut short by setTimeout.

/** The longest duration a timer can wait, ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `value`, a whole number from `min` to `max`; `fallback` when undefined. */
export function wholeOption(value: unknown, name: string, fallback: number, { min = 1, max = MAX_TIMER_MS } = {}): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Throws unless `options` is undefined or an object: `what` names whose options they are. */
export function optionsObject<T extends object>(options: T | undefined, what: string): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object') throw new TypeError(`${what} options must be an object`);
  return options;
}

/** `value`, a number above 0 and at most `max`; `fallback` when undefined. */
export function rateOption(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0 && value <= max)) throw new TypeError(`${name} must be a number above 0, at most ${max}`);
  return value;
}
