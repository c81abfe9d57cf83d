// The options of createClient, checked once at the boundary: a typo or an unusable value fails
// there with a TypeError that names the option, instead of surfacing as a 401 much later.
import { type Clock, clockOption } from '@pay/clock';
import { isLoopbackHost, WEBHOOK_URL_PATTERN } from '@pay/schema';
import { exchange as defaultExchange } from '#exchange';
import type { Exchanger } from './exchange.js';
import { fetchExchanger } from './exchange-fetch.js';
import type { Hooks } from './hooks.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * The service's base address, `{base_url}` of the interface, for example
   * `https://api.pay.example`. https, or http to a loopback host (a local sandbox) or to a host
   * listed in `allowHttpHosts`.
   */
  baseUrl: string;
  /**
   * The card-data receiving address, `{card_proxy_url}`. Needed only to push card data by token;
   * when set, card data is sent only to addresses under it.
   */
  cardProxyUrl?: string | undefined;
  /**
   * Host names that may be reached over plain http, besides the loopback ones, for `baseUrl`,
   * `cardProxyUrl` and card-push addresses: a sandbox on a private network, such as
   * `['sandbox']` for `http://sandbox:4010` in docker-compose. Exact names, matched without regard
   * to case; no ports, no wildcards. Everything sent to them, the signed requests and card data,
   * travels unencrypted: never list a host reached over a network you do not control.
   */
  allowHttpHosts?: readonly string[] | undefined;
  /** Merchant id from the dashboard, sent as `x-merchant-id`. */
  merchantId: string;
  /** Merchant secret key from the dashboard. Kept in a closure: never in an error, hook or log. */
  secret: string;
  /**
   * A `fetch` to send every request through (called unbound; it must honour `init.signal`): a
   * test double, or a fetch with its own proxy or dispatcher. Without it the client uses Node's
   * own HTTP stack (`node:http`, `node:https` and their global agents) on Node, and
   * `globalThis.fetch` everywhere else (Deno, Bun, browsers, edge workers).
   */
  fetch?: typeof fetch | undefined;
  /**
   * Time limit of one HTTP attempt, headers and body, in milliseconds. Default 30 000.
   */
  timeoutMs?: number | undefined;
  /**
   * Time limit of a whole call, retries and reconciliation included, in milliseconds. Default
   * 120 000: enough to wait out one lost create and send it again with the default tolerance.
   */
  totalTimeoutMs?: number | undefined;
  /**
   * How many times a call sends again after a failure that allows it: a lookup after no answer, a
   * timeout, a 429 or a 5xx; a create or card push that provably never left; a create refused with
   * 429, or proven not created after its answer was lost. The lookups that settle a lost create
   * are bounded by `totalTimeoutMs` instead. Default 2.
   */
  retries?: number | undefined;
  /** The service's timestamp tolerance in seconds. Default 60, as the interface says. */
  toleranceSeconds?: number | undefined;
  /**
   * How long, beyond the tolerance, a create the service accepted may take to show in a lookup
   * by reference_id (processing and replication lag, and clock error when the service sends no
   * `Date` header), in seconds. Default 10.
   */
  settleSeconds?: number | undefined;
  /** Callbacks for logging and metrics. */
  hooks?: Hooks | undefined;
  /**
   * Where time comes from (`@pay/clock`): the machine's clock by default. The signature's
   * `x-timestamp`, the waits between attempts, the settle wait of a lost create and
   * `totalTimeoutMs` follow it, and each call is tracked on it, so a test clock shared with the
   * sandbox moves them all. One attempt's `timeoutMs` stays on real time: it bounds the network.
   */
  clock?: Clock | undefined;
}

/**
 * The time limits a client resolved from its options (defaults applied), for code that must plan
 * around its calls: a create's outcome is settled at most `totalTimeoutMs` after it starts, plus
 * the service's `toleranceSeconds`, one second (whole seconds) and `settleSeconds`.
 */
export interface ClientLimits {
  /** One attempt's limit, ms. */
  readonly timeoutMs: number;
  /** A whole call's limit, every attempt and lookup included, ms. */
  readonly totalTimeoutMs: number;
  /** How many times a request is sent again after a failure that allows it. */
  readonly retries: number;
  /** How far, in seconds, the service accepts a request's timestamp from its clock. */
  readonly toleranceSeconds: number;
  /** How long, in seconds, an accepted create may take to be visible to lookups. */
  readonly settleSeconds: number;
}

/** The limits of `settings`, frozen: the client's own values, never a copy that could drift. */
export function limitsOf(settings: Settings): ClientLimits {
  const { timeoutMs, totalTimeoutMs, retries, toleranceSeconds, settleSeconds } = settings;
  return Object.freeze({ timeoutMs, totalTimeoutMs, retries, toleranceSeconds, settleSeconds });
}

/** The options, checked and with defaults applied. */
export interface Settings {
  readonly baseUrl: string;
  readonly cardProxyUrl: string | undefined;
  /** `allowHttpHosts`, lower-cased: compared with a parsed URL's `hostname`. */
  readonly allowHttpHosts: ReadonlySet<string>;
  readonly merchantId: string;
  /** How requests are sent: `options.fetch`, or this runtime's default. */
  readonly exchange: Exchanger;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly retries: number;
  readonly toleranceSeconds: number;
  readonly settleSeconds: number;
  readonly hooks: Hooks;
  readonly clock: Clock;
}

const KNOWN = new Set([
  'baseUrl',
  'cardProxyUrl',
  'allowHttpHosts',
  'merchantId',
  'secret',
  'fetch',
  'timeoutMs',
  'totalTimeoutMs',
  'retries',
  'toleranceSeconds',
  'settleSeconds',
  'hooks',
  'clock',
]);
const HOOKS = new Set(['onRequest', 'onResponse', 'onRetry', 'onReconcile']);
const MAX_TIMER_MS = 2_147_483_647; // setTimeout's limit

/** Whether plain http may be used to `hostname` (a parsed URL's): a loopback host, or one listed in allowHttpHosts. */
export function plainHttpAllowed(hostname: string, allowHttpHosts: ReadonlySet<string>): boolean {
  return isLoopbackHost(hostname) || allowHttpHosts.has(hostname);
}

const WEBHOOK_URL = new RegExp(WEBHOOK_URL_PATTERN);

/**
 * Whether a `webhook_url` the schema refused is a plain-http address on a host in allowHttpHosts
 * that is otherwise just as valid (its https form passes the schema).
 */
export function httpWebhookAllowed(url: unknown, allowHttpHosts: ReadonlySet<string>): boolean {
  if (allowHttpHosts.size === 0 || typeof url !== 'string' || !/^http:\/\//i.test(url) || !WEBHOOK_URL.test(`https://${url.slice(7)}`))
    return false;
  try {
    return allowHttpHosts.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

function fail(message: string): never {
  throw new TypeError(`createClient: ${message}`);
}

/**
 * allowHttpHosts, checked entry by entry. An entry must be written exactly as the URL parser
 * writes a host name (lower case aside), because it is compared with `url.hostname`: an entry
 * with a port, a scheme or a wildcard would match nothing, so a typo would look like the option
 * not working, or, read loosely, allow more hosts than meant. Refusing it says which entry is wrong.
 */
function httpHosts(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value)) fail('allowHttpHosts must be an array of host names, such as ["sandbox"]');
  const hosts = new Set<string>();
  value.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string' || !isHostName(entry)) {
      const shown = typeof entry === 'string' ? JSON.stringify(entry.slice(0, 100)) : typeof entry;
      fail(`allowHttpHosts[${index}] must be a host name without scheme, port, path or wildcard, such as "sandbox"; got ${shown}`);
    }
    hosts.add(entry.toLowerCase());
  });
  return hosts;
}

/** True when `entry` is the whole host of `http://<entry>`, as the URL parser writes it. */
function isHostName(entry: string): boolean {
  // `*` is a valid host code point for the URL parser, so a wildcard would otherwise pass as a literal name.
  if (entry === '' || entry.includes('*')) return false;
  try {
    // Anything else in the entry (a port, a scheme, a path, credentials) makes the two differ.
    return new URL(`http://${entry}`).hostname === entry.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * An address to build request URLs on, in the form `fetch` will call it (WHATWG-serialised:
 * lower-case scheme and host, no default port), without a trailing slash. The URL signed is the
 * URL called only if what is signed is already in that form.
 */
function address(value: unknown, name: string, allowHttpHosts: ReadonlySet<string>): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} must be a URL string such as https://api.pay.example`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`${name} is not an absolute URL: ${JSON.stringify(value.slice(0, 100))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`${name} must be an http or https URL`);
  if (url.protocol === 'http:' && !plainHttpAllowed(url.hostname, allowHttpHosts)) {
    fail(
      `${name} must use https: plain http is accepted only for loopback hosts (localhost, 127.0.0.1, [::1]) and hosts ` +
        `listed in the allowHttpHosts option (allowHttpHosts: [${JSON.stringify(url.hostname)}] allows this one)`,
    );
  }
  if (url.username !== '' || url.password !== '') fail(`${name} must not contain credentials`);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    fail(`${name} must not have a query or a fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

function integer(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${name} must be a whole number from ${min} to ${max}, got ${typeof value === 'number' ? value : typeof value}`);
  }
  return value;
}

/** Checks the options of createClient; the secret is returned separately so Settings never holds it. */
export function checkOptions(options: unknown): { settings: Settings; secret: string } {
  if (options === null || typeof options !== 'object') fail('expected an options object');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)} (expected one of ${[...KNOWN].join(', ')})`);
  }
  const merchantId = o['merchantId'];
  if (typeof merchantId !== 'string' || !/^[\x21-\x7e]+$/.test(merchantId)) {
    fail('merchantId must be a non-empty string of visible ASCII characters (it is sent as a header)');
  }
  const secret = o['secret'];
  if (typeof secret !== 'string' || secret.length === 0) fail('secret must be a non-empty string');
  if (secret.trim() !== secret) fail('secret has leading or trailing white space (a copy-paste mistake?); remove it');
  const given = o['fetch'];
  if (given !== undefined && typeof given !== 'function') fail('fetch must be a function');
  if (given === undefined && typeof globalThis.fetch !== 'function') fail('there is no global fetch here; pass options.fetch');
  const timeoutMs = integer(o['timeoutMs'], 'timeoutMs', 1, MAX_TIMER_MS, 30_000);
  const hooks = o['hooks'] ?? {};
  if (hooks === null || typeof hooks !== 'object') fail('hooks must be an object of callbacks');
  for (const [key, value] of Object.entries(hooks)) {
    if (!HOOKS.has(key)) fail(`unknown hook ${JSON.stringify(key)} (expected one of ${[...HOOKS].join(', ')})`);
    if (value !== undefined && typeof value !== 'function') fail(`hooks.${key} must be a function`);
  }
  const allowHttpHosts = httpHosts(o['allowHttpHosts']);
  return {
    secret,
    settings: {
      baseUrl: address(o['baseUrl'], 'baseUrl', allowHttpHosts),
      cardProxyUrl: o['cardProxyUrl'] === undefined ? undefined : address(o['cardProxyUrl'], 'cardProxyUrl', allowHttpHosts),
      allowHttpHosts,
      merchantId,
      exchange: given === undefined ? defaultExchange : fetchExchanger(given as typeof fetch),
      timeoutMs,
      totalTimeoutMs: integer(o['totalTimeoutMs'], 'totalTimeoutMs', 1, MAX_TIMER_MS, 120_000),
      retries: integer(o['retries'], 'retries', 0, 10, 2),
      toleranceSeconds: integer(o['toleranceSeconds'], 'toleranceSeconds', 1, 3600, 60),
      settleSeconds: integer(o['settleSeconds'], 'settleSeconds', 0, 3600, 10),
      hooks: hooks as Hooks,
      clock: clockOption(o['clock']),
    },
  };
}
