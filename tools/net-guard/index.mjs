// The net guard: tests never leave loopback, not even with a DNS query. Every way Node resolves a
// name goes through `node:dns`: `dns.lookup` (which node:net, and so node:http, node:https,
// node:tls and Node's own fetch, call for each connection to a name), its promise form, and the
// `resolve*` family with its `Resolver` classes (c-ares, which always asks a DNS server). Each is
// replaced here by one that refuses a name beyond loopback, records it, and answers ENOTFOUND, as
// a real resolver would for a name that does not exist: code that handles a missing name still
// runs its usual path, and the setup file (setup.mjs) fails the test that made the lookup.
//
// What `dns.lookup` may still resolve: an address (nothing is asked), `localhost`, and the names of
// the hosts file (/etc/hosts), which the system resolver answers without a query. `resolve*` and
// `reverse` read no hosts file, so every call is refused. `lookupService` is allowed for loopback
// addresses only (a reverse lookup of any other address is a DNS query).
import dns from 'node:dns';
import { appendFileSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';

/** The hosts file read for the names the system resolver answers without asking a DNS server. */
export const HOSTS_FILE = '/etc/hosts';

// One state per process: vitest runs the setup file again for every test file, with fresh modules,
// but `node:dns` is the same object throughout; the guard wraps it once.
const STATE = Symbol.for('@pay/test-net-guard');

/** A name as compared here: lower case, without a trailing dot. */
function canonical(name) {
  const lower = String(name).toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The names of the hosts file, read once per process; none when there is no such file. */
function hostsFileNames() {
  let text = '';
  try {
    text = readFileSync(HOSTS_FILE, 'utf8');
  } catch {
    // no hosts file: only addresses and localhost are local
  }
  const names = new Set();
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address === undefined || isIP(address) === 0) continue;
    for (const alias of aliases) names.add(canonical(alias));
  }
  return names;
}

/**
 * Whether `dns.lookup` may resolve `name` without a query leaving the machine: an address, a
 * loopback name (`localhost`), or a name of the hosts file.
 */
export function isLocalName(name) {
  const host = canonical(name);
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // An empty name is answered with no address at all, without a query.
  if (bare === '' || isIP(bare) !== 0) return true;
  if (host === 'localhost') return true;
  return state().hosts.has(host) || state().allowed.has(host);
}

/** Whether an address is this machine's loopback (127.0.0.0/8, ::1, or ::ffff:127.x.y.z). */
function isLoopbackAddress(address) {
  const a = canonical(address);
  return /^127\.\d+\.\d+\.\d+$/.test(a) || a === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(a);
}

function state() {
  globalThis[STATE] ??= { installed: false, hosts: hostsFileNames(), allowed: new Set(), violations: [], report: undefined };
  return globalThis[STATE];
}

/** The error a refused lookup answers with: ENOTFOUND, as for a name that does not exist, saying why. */
function refusal(how, name) {
  return Object.assign(
    new Error(
      `net guard: ${how}(${JSON.stringify(String(name))}) refused: a test may resolve only addresses, localhost and ` +
        `the names of ${HOSTS_FILE}; point the test at 127.0.0.1 or at a name under .invalid`,
    ),
    { code: 'ENOTFOUND', hostname: String(name), syscall: how },
  );
}

/** Records a refused lookup, in this process and (in a child) in the parent's report file. */
function record(how, name) {
  const s = state();
  const violation = { how, name: String(name), pid: process.pid };
  s.violations.push(violation);
  if (s.report !== undefined) {
    try {
      appendFileSync(s.report, `${JSON.stringify(violation)}\n`);
    } catch {
      // the parent's report is gone (its test file ended): the lookup is still refused
    }
  }
  return refusal(how, name);
}

/** The callback of a callback-style dns call: its last argument. */
const callbackOf = (args) => args.findLast((a) => typeof a === 'function');

/**
 * Installs the guard in this process (once; later calls only set `report`). `report`: a file each
 * refused lookup is appended to as a JSON line, read by the parent process's setup; none in a test
 * process (a suite started by another suite's test checks its own tests, and reports to nobody).
 */
export function installNetGuard({ report } = {}) {
  const s = state();
  s.report = report;
  if (s.installed) return;
  s.installed = true;

  const lookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname, ...rest) {
    if (isLocalName(hostname)) return lookup.call(this, hostname, ...rest);
    const error = record('dns.lookup', hostname);
    const callback = callbackOf(rest);
    if (typeof callback !== 'function') throw error;
    process.nextTick(callback, error);
    return {};
  };
  const lookupService = dns.lookupService;
  dns.lookupService = function guardedLookupService(address, ...rest) {
    if (isLoopbackAddress(address)) return lookupService.call(this, address, ...rest);
    const error = record('dns.lookupService', address);
    const callback = callbackOf(rest);
    if (typeof callback !== 'function') throw error;
    process.nextTick(callback, error);
  };

  const promises = dns.promises;
  const lookupAsync = promises.lookup;
  promises.lookup = function guardedLookup(hostname, ...rest) {
    if (isLocalName(hostname)) return lookupAsync.call(this, hostname, ...rest);
    return Promise.reject(record('dns.promises.lookup', hostname));
  };
  const lookupServiceAsync = promises.lookupService;
  promises.lookupService = function guardedLookupService(address, ...rest) {
    if (isLoopbackAddress(address)) return lookupServiceAsync.call(this, address, ...rest);
    return Promise.reject(record('dns.promises.lookupService', address));
  };

  // The resolve* family: every method of both Resolver classes, and the module's own functions
  // (bound, at load, to a default resolver's original methods, so replaced one by one as well).
  const queries = Object.getOwnPropertyNames(dns.Resolver.prototype).filter((n) => n.startsWith('resolve') || n === 'reverse');
  for (const name of queries) {
    const callbackStyle = function guardedQuery(hostname, ...rest) {
      const error = record(`dns.${name}`, hostname);
      const callback = callbackOf(rest);
      if (typeof callback !== 'function') throw error;
      process.nextTick(callback, error);
      return {};
    };
    const promiseStyle = function guardedQuery(hostname) {
      return Promise.reject(record(`dns.promises.${name}`, hostname));
    };
    dns.Resolver.prototype[name] = callbackStyle;
    if (typeof dns[name] === 'function') dns[name] = callbackStyle;
    promises.Resolver.prototype[name] = promiseStyle;
    if (typeof promises[name] === 'function') promises[name] = promiseStyle;
  }
  // `import { lookup } from 'node:dns'` reads the named exports, which follow the module object
  // only once told to.
  syncBuiltinESMExports();
}

/**
 * Lets `dns.lookup` resolve `name` in this process from now on: the one declared exception, for
 * a test whose purpose needs a package registry (the release rehearsal's local registry proxies
 * third-party packages from the npm registry, the only network this project's machines reach).
 * `why` is required so that every exception says itself where it is made.
 */
export function allowLookup(name, why) {
  if (typeof why !== 'string' || why.trim() === '') throw new TypeError('allowLookup needs a reason');
  state().allowed.add(canonical(name));
}

/** The lookups refused in this process since the last call, which empties the list. */
export function takeViolations() {
  return state().violations.splice(0);
}
