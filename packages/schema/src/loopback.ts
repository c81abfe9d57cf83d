// "Is this host this machine's loopback?": one rule for everything that asks, the client (plain
// http allowed), the webhook_url schema, the sandbox (its own names, webhooks that would come back
// to this machine, the developer's peer) and the example shop (its Host header). @pay/sign keeps
// the three names its signing hints try in turn (url-parts.ts): a list of aliases, not this test,
// and sign depends on nothing. Loopback is what never leaves the machine: `localhost` and its
// subdomains (RFC 6761), 127.0.0.0/8, ::1, and 127.0.0.0/8 mapped into IPv6 (::ffff:127.0.0.1,
// which the URL parser writes [::ffff:7f00:1]). Nothing else: not 0.0.0.0, not a LAN address, and
// never a name a proxy or a forwarding header speaks for (that is a caller's decision: a request
// through a proxy is remote).

/** 127.0.0.0/8 in dotted decimal, each octet checked below. */
const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** 127.0.0.0/8 mapped into IPv6 as the URL parser writes it: ::ffff:7f00:1 (the hex form). */
const MAPPED_HEX = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;
const MAPPED_PREFIX = '::ffff:';

/**
 * The loopback hosts that plain http may go to, as a JSON Schema pattern over URL text (the
 * `webhook_url` pattern, case-sensitive since URL text is): `localhost`, its subdomains,
 * 127.0.0.0/8 and `[::1]`. The same rule as {@link isLoopbackHost}, in the spelling a schema
 * needs; it takes fewer spellings (no upper case, no trailing dot, no IPv4-mapped address), and
 * apart from octets over 255 (which no URL parser lets through) never accepts a host the function
 * refuses (the table test holds both to that).
 */
export const LOOPBACK_HOST_PATTERN = '(?:localhost|[A-Za-z0-9.-]+\\.localhost|127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}|\\[::1\\])';

/**
 * Whether an IP address, as Node's sockets write a peer's (`127.0.0.1`, `::1`,
 * `::ffff:127.0.0.1`; IPv6 without brackets), is a loopback address. Names are not addresses:
 * `localhost` here is false.
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (a === '::1') return true;
  if (MAPPED_HEX.test(a)) return true;
  const v4 = IPV4_LOOPBACK.exec(a.startsWith(MAPPED_PREFIX) ? a.slice(MAPPED_PREFIX.length) : a);
  return v4?.slice(1).every((octet) => Number(octet) <= 255) ?? false;
}

/**
 * Whether a host, as a URL's `hostname` or a Host header's name (without the port; IPv6 in
 * brackets), is this machine's loopback: `localhost` or a subdomain of it, an address of
 * 127.0.0.0/8, `[::1]`, or 127.0.0.0/8 mapped into IPv6. Any case; one trailing dot (the root of
 * the DNS) is the same name. `subdomains: false` leaves out the names under `.localhost`: browsers
 * keep them on this machine, but some resolvers still ask the network for them, so a defence that
 * must not depend on any resolver (the example shop's against DNS rebinding) takes only names no
 * resolver decides.
 */
export function isLoopbackHost(host: string, options: { readonly subdomains?: boolean } = {}): boolean {
  const lower = host.toLowerCase();
  const h = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  if (h === 'localhost') return true;
  if (h.length > '.localhost'.length && h.endsWith('.localhost')) return options.subdomains !== false;
  if (h.startsWith('[') && h.endsWith(']')) return h.includes(':') && isLoopbackAddress(h.slice(1, -1));
  return !h.includes(':') && isLoopbackAddress(h);
}
