// Reading request headers from a Fetch `Headers` or a plain object (Node's `req.headers`, a
// framework's, or a test's), case-insensitively, without ever throwing.

/** Headers as a framework gives them: a Fetch `Headers`, or an object with any-case names. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined | null>>;

/**
 * The value of header `name` (lowercase), or undefined when absent, from a Fetch `Headers` or an
 * object with any-case names. A header given more than once comes back joined with ", ", as Fetch
 * does, so a duplicate fails the format checks rather than one copy being picked silently. Never
 * throws.
 *
 * @example
 * ```ts
 * readHeader({ 'X-Timestamp': '1732200000' }, 'x-timestamp'); // '1732200000'
 * ```
 */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    try {
      const value = (headers as { get(n: string): unknown }).get(name);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const values: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== name) continue;
    const value = (headers as Record<string, unknown>)[key];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string' || typeof v === 'number') values.push(String(v));
    }
  }
  return values.length === 0 ? undefined : values.join(', ');
}
