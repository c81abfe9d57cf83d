// The checks of single option values, shared by the handler options, verifyWebhook and
// redisStore so that the same mistake gets the same message wherever it is made. Each throws a
// TypeError naming the option and what is wrong with it, never its value: a URL can carry a
// token, and a secret must never be shown.

/** Throws the TypeError of an unusable option. */
export function fail(message: string): never {
  throw new TypeError(message);
}

/** A string that is not empty. */
export function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string') fail(`${name} must be a string`);
  if ((value as string).length === 0) fail(`${name} must not be empty`);
  return value as string;
}

/** A positive whole number, or `fallback` when not given. */
export function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) fail(`${name} must be a positive whole number`);
  return value as number;
}
