// Where a webhook URL's requests go: split once per address by the Node sender. The path and
// query are sent exactly as written in the URL that was signed, so nothing here normalises them.
import { isIP } from 'node:net';
import { unresolvableName } from './unresolvable.js';

// What an HTTP/1.1 request target cannot hold: white space and control characters.
const UNSENDABLE = /[\u0000-\u0020\u007f]/;

/** Where a webhook URL's requests go, worked out once per address. */
export interface Target {
  origin: string;
  secure: boolean;
  /** The name or address connected to (an IPv6 address without its brackets). */
  host: string;
  port: number;
  /** The TLS server name: the host name (never an address). */
  servername: string | undefined;
  /** The request line and Host header: `POST <path and query, as written> HTTP/1.1` and the URL's host. */
  head: string;
}

/** @throws TypeError for a URL a request cannot carry; the unresolvableName error for a name never looked up. */
export function targetOf(url: string): Target {
  // The path and query exactly as written in the URL that was signed; the fragment is not sent.
  const [, origin = url, rest = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^#]*)/i.exec(url) ?? [];
  const path = rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
  const parsed = new URL(origin);
  const secure = parsed.protocol === 'https:';
  if (!secure && parsed.protocol !== 'http:') throw new TypeError('a webhook URL is http or https');
  if (UNSENDABLE.test(path)) throw new TypeError('the webhook URL has white space or control characters, which a request cannot carry');
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const unresolvable = unresolvableName(host);
  if (unresolvable !== undefined) throw unresolvable;
  return {
    origin: parsed.origin,
    secure,
    host,
    port: parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port),
    servername: secure && isIP(host) === 0 ? host : undefined,
    head: `POST ${path} HTTP/1.1\r\nhost: ${parsed.host}\r\n`,
  };
}
