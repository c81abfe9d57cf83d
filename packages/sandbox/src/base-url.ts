// The base URL of a sandbox as a caller gives it (`http://127.0.0.1:4010`, a proxy's
// `https://sandbox.example/pay`), checked once and written the way `fetch` will send it, so that a
// URL built on it and signed is byte for byte the URL the sandbox receives.

/**
 * Checks a sandbox base URL and returns it normalised: the URL parser's form of origin and path,
 * without a trailing slash.
 *
 * @param name How the caller calls the value (`target`, `--url`), for the error message.
 * @throws TypeError naming `name` when it is not an absolute http(s) URL, or carries credentials,
 *   a query or a fragment. The message never repeats the value: it could hold a password.
 */
export function checkBaseUrl(value: unknown, name: string): string {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new TypeError(`${name} must be a base URL such as http://127.0.0.1:4010, got ${value === null ? 'null' : typeof value}`);
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`${name} must be an absolute URL such as http://127.0.0.1:4010`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${name} must be an http or https URL`);
  // fetch refuses a URL with credentials, and a password has no business in a printed URL.
  if (url.username !== '' || url.password !== '') throw new TypeError(`${name} must not carry credentials (user:password@)`);
  if (url.search !== '' || url.hash !== '') throw new TypeError(`${name} must be a base URL without a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
