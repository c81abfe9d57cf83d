// A URL's parts as the catalogue of signing mistakes varies them: scheme, authority (host and
// port), path and query. One definition, for the service's view and a receiver's.

/** An http(s) URL in its parts, or undefined for any other string. */
export interface UrlParts {
  scheme: string;
  authority: string;
  path: string;
  query: string;
}

export function urlParts(url: string): UrlParts | undefined {
  const m = /^(https?):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url);
  return m === null ? undefined : { scheme: m[1]!, authority: m[2]!, path: m[3] ?? '', query: m[4] ?? '' };
}

/** `host` and `:port` of an authority (`[::1]:4010` gives `[::1]` and `:4010`). */
export function splitAuthority(authority: string): [host: string, port: string] {
  const m = /^(\[[^\]]*\]|[^:]*)(:[0-9]*)?$/.exec(authority);
  return m === null ? [authority, ''] : [m[1] ?? authority, m[2] ?? ''];
}

/** The names of this machine a caller may sign instead of the one it called. */
export const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The other names of this machine, for a loopback host; none for any other host. */
export function loopbackAliases(host: string): string[] {
  const name = host.toLowerCase();
  return LOOPBACK.includes(name) ? LOOPBACK.filter((n) => n !== name) : [];
}

/** The path with its trailing slash dropped, or added when it has none. */
export const toggleSlash = (path: string): string => (path.endsWith('/') ? path.slice(0, -1) : `${path}/`);
