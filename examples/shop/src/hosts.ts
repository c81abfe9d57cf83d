// The names the shop answers to, and the origins its forms accept: the defence against DNS
// rebinding. A page served as `rebind.example` whose name the attacker then points at 127.0.0.1
// reaches the shop from the victim's browser as its own origin: its requests carry
// `Host: rebind.example:3000` and `Origin: http://rebind.example:3000`, and the browser lets the
// page read the answers. Anything derived from the request (its URL is built from Host) agrees
// with the attacker, so both headers are checked against a fixed list instead: the loopback
// names on the shop's own port, and the host of its public URL. An attacker can re-point their
// own name, never make a browser send one of these.
import { isLoopbackHost } from '@pay/schema';

/** Checks a request's `Host` and `Origin` against the shop's own names. */
export interface ShopNames {
  /** Whether an authority (a `Host` header, a request URL's host) is one of the shop's. */
  host(authority: string | undefined): boolean;
  /** Whether an `Origin` header is exactly one of the shop's origins. */
  origin(origin: string | undefined): boolean;
  /** The names, in words, for the refusal message. */
  readonly description: string;
}

// A host name or bracketed IPv6 address, and an optional port, as a Host header writes them.
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

// Loopback names no resolver decides (not *.localhost): see isLoopbackHost.
const FIXED = { subdomains: false } as const;

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/**
 * The shop's names: loopback ones on `port` (where it listens, plain http) and the host of
 * `publicUrl` (on its port, or its scheme's default: a TLS proxy may be in front).
 */
export function shopNames(port: number, publicUrl: string): ShopNames {
  const listening = String(port);
  const pub = new URL(publicUrl);
  const publicPort = pub.port || defaultPort(pub.protocol);
  return {
    host(authority) {
      const parts = authority === undefined ? null : AUTHORITY.exec(authority.toLowerCase());
      if (parts === null) return false;
      const [, name, explicitPort] = parts as unknown as [string, string, string | undefined];
      // A Host without a port means the default port of the scheme the browser used: http on
      // the shop's own listener, the public URL's scheme under its public name.
      if (isLoopbackHost(name, FIXED) && (explicitPort ?? '80') === listening) return true;
      return name === pub.hostname && (explicitPort ?? defaultPort(pub.protocol)) === publicPort;
    },
    origin(origin) {
      if (origin === undefined) return false;
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      // Only an origin in the form browsers send it: this refuses `null`, paths, odd spellings.
      if (url.origin !== origin) return false;
      if (origin === pub.origin) return true;
      return url.protocol === 'http:' && isLoopbackHost(url.hostname, FIXED) && (url.port || '80') === listening;
    },
    description: `localhost, 127.0.0.1 and [::1] on port ${listening}, and ${pub.host} (its public address, SHOP_PUBLIC_URL)`,
  };
}
