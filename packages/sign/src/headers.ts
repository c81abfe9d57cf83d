// Reading request headers from a Fetch `Headers` or a plain object (Node's `req.headers`, a
// framework's, or a test's), case-insensitively, without ever throwing: the headers object comes
// with the request, and a throwing getter or a hostile proxy must read as "absent", not crash.

/** Headers as a framework gives them: a Fetch `Headers`, or an object with any-case names. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined | null>>;

/**
 * The value of header `name` (lowercase), or undefined when absent, from a Fetch `Headers` or an
 * object with any-case names. A header given more than once comes back joined with ", ", as Fetch
 * does, so a duplicate fails the format checks rather than one copy being picked silently. Never
 * throws: a headers object that throws while it is read counts as having no such header.
 *
 * @example
 * ```ts
 * readHeader({ 'X-Timestamp': '1732200000' }, 'x-timestamp'); // '1732200000'
 * ```
 */
export function readHeader(headers: unknown, name: string): string | undefined {
  return readHeaders(headers, [name])[0];
}

/**
 * Several headers at once (names in lowercase), in one pass over a plain object: what
 * `verifyRequest` reads on every request. Never throws; see {@link readHeader}.
 */
export function readHeaders(headers: unknown, names: readonly string[]): (string | undefined)[] {
  const found: (string | undefined)[] = names.map(() => undefined);
  if (headers === null || typeof headers !== 'object') return found;
  try {
    const get = (headers as { get?: unknown }).get;
    if (typeof get === 'function') {
      for (let i = 0; i < names.length; i++) {
        const value: unknown = get.call(headers, names[i]);
        if (typeof value === 'string') found[i] = value;
      }
      return found;
    }
    const record = headers as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // Node gives lowercase names; anything else is lowercased to compare.
      let i = names.indexOf(key);
      if (i < 0) i = names.indexOf(key.toLowerCase());
      if (i < 0) continue;
      let text: string | undefined;
      try {
        const value = record[key];
        text = Array.isArray(value) ? joinValues(value) : scalar(value);
      } catch {
        continue; // a value that throws when read is a header not sent
      }
      if (text === undefined) continue;
      found[i] = found[i] === undefined ? text : `${found[i]}, ${text}`;
    }
    return found;
  } catch {
    return names.map(() => undefined);
  }
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function joinValues(values: readonly unknown[]): string | undefined {
  let text: string | undefined;
  for (const v of values) {
    const s = scalar(v);
    if (s !== undefined) text = text === undefined ? s : `${text}, ${s}`;
  }
  return text;
}
