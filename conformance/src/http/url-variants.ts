// The mistakes a signer makes with a URL, each as the URL it signs instead of the one called: one
// definition of each, for both HTTP modes' cases (and their descriptions).

/** The URL with its path's trailing slash dropped, or added when it has none (query kept). */
export function toggleSlash(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  return (path.endsWith('/') ? path.slice(0, -1) : `${path}/`) + (q < 0 ? '' : url.slice(q));
}

/** The URL without its query string (from the first "?" up to any fragment). */
export function withoutQuery(url: string): string {
  return url.replace(/\?[^#]*/, '');
}

/** The URL over the other scheme, http:// ↔ https://; any other URL as it is. */
export function otherScheme(url: string): string {
  if (url.startsWith('https://')) return `http://${url.slice(8)}`;
  if (url.startsWith('http://')) return `https://${url.slice(7)}`;
  return url;
}

/** The URL's scheme, without "://": what a description names. */
export const schemeOf = (url: string): string => url.split(':')[0]!;

/** The URL with another spelling of its host: 127.0.0.1 ↔ localhost, else the host in capitals. */
export function otherHost(url: string): string {
  const m = /^([a-z]+:\/\/)([^/:?#]+)(.*)$/i.exec(url);
  if (!m) return url;
  const host = m[2]!;
  const other = host === '127.0.0.1' ? 'localhost' : host === 'localhost' ? '127.0.0.1' : host.toUpperCase();
  return `${m[1]}${other}${m[3]}`;
}

/** The URL with its authority replaced by `host`, as a receiver rebuilding it from the request's headers would. */
export function withHost(url: string, host: string): string {
  return url.replace(/^([a-z]+:\/\/)[^/?#]*/i, `$1${host}`);
}
