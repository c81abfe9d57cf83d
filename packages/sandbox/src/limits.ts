// The sandbox's own bounds on what it keeps, beyond the interface's schemas: the interface gives
// URL fields, `method`, `language` and `user_agent` no maximum length, and times no range, but a
// sandbox that keeps whatever it is sent cannot promise its memory figures, and a time past year
// 9999 cannot be written as the service writes datetimes.

/** The longest URL the sandbox keeps (`webhook_url`, `redirect_urls.*`), in characters. */
export const MAX_URL_CHARS = 2048;
/** The longest `method` or `language` it keeps, in characters. */
const MAX_WORD_CHARS = 64;
/** The longest `browser_data.user_agent` it takes, in characters. */
const MAX_USER_AGENT_CHARS = 1024;
/** The latest time the schedule clock may show (the end of year 9999, UTC), in ms. */
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// The string fields of the create bodies the schemas leave unbounded, by path.
const BOUNDED: readonly [path: readonly string[], max: number][] = [
  [['webhook_url'], MAX_URL_CHARS],
  [['redirect_urls', 'success'], MAX_URL_CHARS],
  [['redirect_urls', 'fail'], MAX_URL_CHARS],
  [['redirect_urls', 'in_progress'], MAX_URL_CHARS],
  [['method'], MAX_WORD_CHARS],
  [['language'], MAX_WORD_CHARS],
  [['browser_data', 'user_agent'], MAX_USER_AGENT_CHARS],
];

/** The field errors of a parsed create body's strings that are longer than the sandbox keeps. */
export function lengthErrors(body: unknown): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  for (const [path, max] of BOUNDED) {
    let value: unknown = body;
    for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && value.length > max) {
      errors.push({ path: path.join('.'), message: `must be at most ${max} characters (the sandbox's limit); got ${value.length}` });
    }
  }
  return errors;
}
