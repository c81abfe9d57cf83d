// The options of createSandbox and of startSandbox, checked once at the boundary: an unusable
// value fails there with a TypeError that names the option, before anything is started. The
// Node host's own options (port, host, state file) are checked here too, so every option of the
// sandbox has one home.
import { type Clock, clockOption } from '@pay/clock';
import { checkAdminToken, newAdminToken } from './admin-access.js';
import { checkMerchants, hasPublishedSecret, type Merchant } from './merchants.js';
import { Names } from './names.js';
import { isLoopbackHost } from '@pay/schema';
import type { Seed } from './seed.js';

/** Options of {@link createSandbox} (and of `startSandbox`). */
export interface SandboxOptions {
  /** The merchants it accepts; none gives the demo merchant (`DEMO_MERCHANT`). */
  merchants?: readonly Merchant[] | undefined;
  /**
   * Largest accepted |now - x-timestamp| in seconds, from 0 to the interface's 60 (the default).
   * Shorten it only for tests that must wait a tolerance out.
   */
  toleranceSeconds?: number | undefined;
  /**
   * The base URL clients call, when it differs from what reaches the sandbox (behind a proxy that
   * rewrites `Host`). By default each request's own scheme, `Host` and path are what is signed.
   */
  publicUrl?: string | undefined;
  /**
   * Host names of a private network (docker-compose service names such as `sandbox` and `shop`)
   * where plain `http` is fine: the sandbox answers requests addressed to them, and accepts
   * `http://` webhook addresses on them. By default plain http is accepted only for loopback.
   */
  allowHttpHosts?: readonly string[] | undefined;
  /**
   * Transactions kept at most (default {@link MAX_TRANSACTIONS}); past it, the oldest is forgotten
   * (its record, its delivery log and its scheduled changes) to make room for a new one.
   */
  maxTransactions?: number | undefined;
  /**
   * Whether a second create with a `reference_id` the merchant already used (for the same
   * resource) is refused with 409 `duplicate_reference_id`, as by default. `false` accepts it as a
   * new transaction, as a service that does not promise unique references may (the interface does
   * not promise it): tests of exactly-once creates then see every duplicate as a second record.
   * A lookup by reference then finds the first transaction created under it (still kept).
   */
  uniqueReferences?: boolean | undefined;
  /** Receives one line per request and per webhook attempt (no secrets, no card data). */
  log?: ((line: string) => void) | undefined;
  /**
   * The token that opens the admin API and the dashboard to a caller that is not this machine's
   * developer (another machine, or anyone behind a tunnel or proxy): sent as
   * `Authorization: Bearer <token>`, or typed once into the dashboard's sign-in page. 16 to 256
   * visible ASCII characters. By default a random one (`sandbox.adminToken`).
   */
  adminToken?: string | undefined;
  /**
   * Origins on this machine (`http://127.0.0.1:3000`) that webhooks may still go to while the
   * sandbox is reachable from outside (a `publicUrl` that is not a loopback name, or a Node host
   * listening beyond loopback). Without it, no webhook goes to a loopback address then: a caller
   * from outside must not make the sandbox post to other services on your machine.
   */
  localReceivers?: readonly string[] | undefined;
  /**
   * Where time comes from (`@pay/clock`): the real clock by default. Signatures are judged and
   * webhooks signed by `clock.now()`; the schedule clock is `clock.now()` plus the offset that
   * `clock/advance` adds; due jobs run from its alarms; each due job and each request is tracked
   * work. A clock that moves itself (a test clock, `createTestClock` of `@pay/clock/test-clock`)
   * is moved by `clock/advance` instead, so every package on it moves together.
   */
  clock?: Clock | undefined;
}

/** Options of {@link startSandbox}. */
export interface StartSandboxOptions extends SandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Interface to listen on; `127.0.0.1` by default. */
  host?: string | undefined;
  /**
   * A state file: loaded at start when it exists, and written back (atomically: a temporary file
   * renamed over it) every few seconds while something changed, and on `close()`. Holds the
   * transactions, their delivery log and the schedule clock; never a merchant or a secret.
   */
  stateFile?: string | undefined;
  /** Transactions to create at start (after the state file is loaded): see `parseSeed`. */
  seed?: Seed | undefined;
}

/** Transactions a sandbox keeps by default; the oldest is forgotten past it. */
export const MAX_TRANSACTIONS = 10_000;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The options of createSandbox, checked, with their defaults filled in. */
interface CheckedOptions {
  readonly merchants: readonly Merchant[];
  readonly adminToken: string;
  readonly tolerance: number;
  readonly publicUrl: string | undefined;
  readonly maxTransactions: number;
  readonly uniqueReferences: boolean;
  readonly clock: Clock;
  /** The names the sandbox answers to, and where it may send webhooks (names.ts). */
  readonly names: Names;
}

/**
 * Checks the options of createSandbox. `boundBeyondLoopback`: the Node host listens beyond
 * loopback, so the sandbox is reachable from elsewhere.
 *
 * @throws TypeError naming the option that cannot be used.
 */
export function checkSandboxOptions(options: SandboxOptions, boundBeyondLoopback: boolean): CheckedOptions {
  const merchants = checkMerchants(options.merchants);
  const adminToken = options.adminToken === undefined ? newAdminToken() : checkAdminToken(options.adminToken);
  const localReceivers = checkLocalReceivers(options.localReceivers);
  const tolerance = options.toleranceSeconds ?? 60;
  if (typeof tolerance !== 'number' || !(tolerance >= 0 && tolerance <= 60)) {
    throw new TypeError('toleranceSeconds must be a number from 0 to 60 (the interface allows 60)');
  }
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  const httpHosts = checkHttpHosts(options.allowHttpHosts);
  const maxTransactions = options.maxTransactions ?? MAX_TRANSACTIONS;
  if (!Number.isInteger(maxTransactions) || maxTransactions < 1 || maxTransactions > 1_000_000) {
    throw new TypeError('maxTransactions must be a whole number from 1 to 1000000');
  }
  const uniqueReferences = options.uniqueReferences ?? true;
  if (typeof uniqueReferences !== 'boolean') throw new TypeError('uniqueReferences must be true or false');
  const clock = clockOption(options.clock);
  const names = new Names({ publicUrl, httpHosts, boundBeyondLoopback, localReceivers });
  if (names.exposed) {
    const published = merchants.find(hasPublishedSecret);
    if (published !== undefined) {
      throw new TypeError(
        `merchant ${published.id} has the demo merchant's published secret, and this sandbox is reachable from outside (publicUrl, or a host beyond loopback): give merchants of your own`,
      );
    }
  }
  for (const m of merchants) {
    if (m.webhookUrl !== undefined && !names.acceptsWebhookUrl(m.webhookUrl)) {
      throw new TypeError(
        `merchant ${m.id}: webhookUrl must be an absolute https URL (plain http only to a loopback host or one in allowHttpHosts)`,
      );
    }
  }
  return { merchants, adminToken, tolerance, publicUrl, maxTransactions, uniqueReferences, clock, names };
}

/** Checks the Node host's state file option (before the file is read). */
export function checkStateFile(stateFile: unknown): void {
  if (stateFile !== undefined && (typeof stateFile !== 'string' || stateFile === '')) throw new TypeError('stateFile must be a path');
}

/** Checks the Node host's address options. */
export function checkListenAddress(port: unknown, host: unknown): void {
  if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535)
    throw new TypeError('port must be a whole number from 0 to 65535');
  if (typeof host !== 'string' || host.length === 0) throw new TypeError('host must be a non-empty string such as 127.0.0.1');
}

function checkHttpHosts(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.some((h) => typeof h !== 'string' || !HOST_NAME.test(h))) {
    throw new TypeError('allowHttpHosts must be an array of host names such as sandbox or shop (no scheme, no port)');
  }
  return new Set((value as string[]).map((h) => h.toLowerCase()));
}

function checkLocalReceivers(value: unknown): Set<string> {
  const problem = 'localReceivers must be an array of origins on this machine, such as http://127.0.0.1:3000';
  if (value === undefined) return new Set();
  if (!Array.isArray(value)) throw new TypeError(problem);
  return new Set(
    value.map((v: unknown) => {
      if (typeof v !== 'string' || !/^https?:\/\/[^/?#@\s]+\/?$/i.test(v)) throw new TypeError(problem);
      let url: URL;
      try {
        url = new URL(v);
      } catch {
        throw new TypeError(problem);
      }
      if (!isLoopbackHost(url.hostname)) throw new TypeError(problem);
      return url.origin;
    }),
  );
}

function checkPublicUrl(value: unknown): string {
  if (typeof value !== 'string' || !/^https?:\/\/[^/?#\s]+\/?$/i.test(value)) {
    throw new TypeError('publicUrl must be an origin such as http://localhost:4010 (scheme, host, optional port; no path)');
  }
  return value.replace(/\/$/, '');
}
