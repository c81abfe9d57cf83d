// Adds a host name to this process's resolver for the length of a test, as an /etc/hosts line or
// docker-compose's DNS would: `node:net` (under both node:http and Node's fetch) resolves names
// through `dns.lookup` of the `node:dns` module, read at each connection. Every other name goes
// to the real resolver. The server reached is real; only the name-to-address step is supplied.
import dns from 'node:dns';

type Lookup = typeof dns.lookup;

/** Runs `body` with `name` resolving to `address` (IPv4), then puts the real resolver back. */
export async function withHostsEntry<T>(name: string, address: string, body: (asked: string[]) => Promise<T>): Promise<T> {
  const real = dns.lookup;
  const asked: string[] = [];
  const lookup = (hostname: string, options: unknown, callback?: unknown) => {
    if (hostname.toLowerCase() !== name) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    asked.push(hostname);
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  };
  dns.lookup = lookup as Lookup;
  try {
    return await body(asked);
  } finally {
    dns.lookup = real;
  }
}
