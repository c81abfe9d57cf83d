// A typed client of the admin API under /_sandbox/, for tests and tools: the same calls against a
// sandbox over HTTP (`pay-sandbox`, `startSandbox`, a remote one) or in process (`createSandbox`).
//
// Arguments are checked for their types here; the sandbox's own rules (ranges, which statuses,
// what a fault may hold) are the sandbox's to judge, so a sandbox of another version answers with
// its own limits and every field error at once, as a SandboxAdminError. It speaks the wire types
// (../wire/) and nothing of the server.
import { isTransactionKind } from '@pay/schema/statuses';
import { checkBaseUrl } from '../base-url.js';
import type { DeliveryAttempt } from '../wire/deliveries.js';
import type { Fault, FaultInput } from '../wire/faults.js';
import type { LoggedRequest } from '../wire/requests.js';
import type { SandboxSnapshot } from '../wire/snapshot.js';
import type { TransactionTimeline } from '../wire/timeline.js';
import type { AdminStatus, LookupOf, SandboxTransaction, SetStatusOptions, StatusError, TransactionKind } from '../wire/transactions.js';
import { exchange } from './exchange.js';
import { fetchTransport, handlerTransport, type Transport } from './transport.js';

/** Something that answers Fetch requests in process, such as a `createSandbox()`. */
export interface SandboxFetcher {
  fetch(request: Request): Promise<Response>;
  /** Its admin token (a `createSandbox()` has one), sent with every call. */
  readonly adminToken?: string | undefined;
}

/** Where the admin client sends its calls: a base URL, or an in-process sandbox. */
export type SandboxAdminTarget = string | URL | SandboxFetcher;

/** Options of {@link sandboxAdmin}. */
export interface SandboxAdminOptions {
  /**
   * Longest wait for one call, answer body included, in ms (default {@link ADMIN_TIMEOUT_MS}). A
   * `clock/advance` waits for every webhook attempt it runs, so it can take a while.
   */
  timeoutMs?: number | undefined;
  /**
   * The sandbox's admin token, sent as `Authorization: Bearer`: needed from anywhere but the
   * sandbox's own machine (another machine, through a tunnel). An in-process sandbox's own
   * `adminToken` is used when this is absent.
   */
  adminToken?: string | undefined;
}

/** The default time limit of one admin call: one minute. */
export const ADMIN_TIMEOUT_MS = 60_000;

/** The admin API of one sandbox. Every method rejects with a {@link SandboxAdminError} when the call fails. */
export interface SandboxAdmin {
  /** `GET /_sandbox/health`. */
  health(): Promise<{ ok: boolean }>;
  /** `GET /_sandbox/clock`: now on the schedule clock, as the service writes datetimes. */
  clock(): Promise<{ now: string }>;
  /** `POST /_sandbox/clock/advance`: moves the clock and answers once everything due has run. */
  advance(seconds: number): Promise<{ now: string }>;
  /**
   * `POST /_sandbox/<kind>s/<id>/status`: one webhook per change. `status` is one of the
   * interface's (executed, failed, expired); another is refused (400, with the status it most
   * likely meant) unless `options.unknownStatus` asks for it on purpose.
   */
  setStatus<K extends TransactionKind>(
    kind: K,
    id: string,
    status: AdminStatus,
    error?: StatusError,
    options?: SetStatusOptions,
  ): Promise<LookupOf<K>>;
  /** `POST /_sandbox/<kind>s/<id>/resend`: a new delivery of the current status. */
  resend<K extends TransactionKind>(kind: K, id: string): Promise<LookupOf<K>>;
  /**
   * `GET /_sandbox/<kind>s/<id>/timeline`: the transaction now, and what happened to it in order
   * on the schedule clock: the requests about it, its status changes with their cause, resends,
   * and every webhook attempt with the receiver's answer and when the next one is due.
   */
  timeline(kind: TransactionKind, id: string): Promise<TransactionTimeline>;
  /** `GET /_sandbox/transactions`: every transaction kept. */
  transactions(): Promise<SandboxTransaction[]>;
  /** `GET /_sandbox/deliveries`: every webhook attempt, oldest first; of one transaction if given. */
  deliveries(transactionId?: string): Promise<DeliveryAttempt[]>;
  /** `GET /_sandbox/requests`: requests to the service endpoints, newest first (100 unless told). */
  requests(options?: { limit?: number | undefined }): Promise<LoggedRequest[]>;
  /** `GET /_sandbox/faults`: the faults still waiting. */
  faults(): Promise<Fault[]>;
  /** `POST /_sandbox/faults`: the fault as stored. */
  addFault(fault: FaultInput): Promise<Fault>;
  /** `POST /_sandbox/reset`: transactions, deliveries, faults and requests forgotten; clock on wall time. */
  reset(): Promise<{ ok: boolean }>;
  /** `GET /_sandbox/snapshot`: the state as a state file holds it. */
  snapshot(): Promise<SandboxSnapshot>;
}

// An in-process sandbox answers only under its own names; loopback is one of them.
const IN_PROCESS_BASE = 'http://127.0.0.1';

/**
 * The admin client of a sandbox: a base URL (`http://127.0.0.1:4010`; a `RunningSandbox` has one
 * as `admin`), or an in-process sandbox (anything with `fetch(request)`, such as `createSandbox()`).
 *
 * @throws TypeError for a target that is neither (the message never repeats a URL's credentials).
 * @example
 * ```ts
 * const admin = sandboxAdmin('http://127.0.0.1:4010');
 * await admin.setStatus('payin', 'pi_123', 'failed', { code: 'insufficient_funds' });
 * await admin.advance(3600);
 * console.log(await admin.deliveries('pi_123'));
 * ```
 */
export function sandboxAdmin(target: SandboxAdminTarget, options: SandboxAdminOptions = {}): SandboxAdmin {
  return adminClient(target, options, fetchTransport);
}

/**
 * {@link sandboxAdmin} with the transport of a base URL given: the command line's node:http one.
 * An in-process sandbox is always called through its own `fetch`.
 */
export function adminClient(target: SandboxAdminTarget, options: SandboxAdminOptions, overHttp: Transport): SandboxAdmin {
  const { timeoutMs = ADMIN_TIMEOUT_MS } = options ?? {};
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('options.timeoutMs must be a positive number of milliseconds');
  const inProcess =
    typeof target === 'object' && target !== null && !(target instanceof URL) && typeof (target as SandboxFetcher).fetch === 'function';
  const token = options?.adminToken ?? (inProcess ? (target as { adminToken?: unknown }).adminToken : undefined);
  if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(token)))
    throw new TypeError('options.adminToken must be the admin token the sandbox printed (visible ASCII, no spaces)');
  const base = inProcess ? IN_PROCESS_BASE : checkBaseUrl(target, 'target');
  const where = inProcess ? 'the in-process sandbox' : `the sandbox at ${base}`;
  const send = inProcess ? handlerTransport(target as SandboxFetcher) : overHttp;

  const call = <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> =>
    exchange<T>({
      send,
      where,
      timeoutMs,
      method,
      url: `${base}/_sandbox${path}`,
      label: `${method} /_sandbox${path.split('?')[0]}`,
      body,
      token,
    });

  // Every method is async, so a bad argument is a rejection like any other failure of a call.
  return {
    health: async () => call('GET', '/health'),
    clock: async () => call('GET', '/clock'),
    advance: async (seconds) => {
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        throw new TypeError('seconds must be a finite number of seconds, 0 or more: the schedule clock never goes back');
      return call('POST', '/clock/advance', { seconds });
    },
    setStatus: async (kind, id, status, error, options) => {
      const path = transactionPath(kind, id, 'status');
      if (typeof status !== 'string' || status === '')
        throw new TypeError('status must be a non-empty string such as executed, failed or expired');
      if (error !== undefined && (error === null || typeof error !== 'object'))
        throw new TypeError('error must be an object { code?, message? }');
      if (error?.code !== undefined && typeof error.code !== 'string') throw new TypeError('error.code must be a string');
      if (error?.message !== undefined && typeof error.message !== 'string') throw new TypeError('error.message must be a string');
      if (options !== undefined && (options === null || typeof options !== 'object'))
        throw new TypeError('options must be an object { unknownStatus? }');
      const onPurpose = options?.unknownStatus;
      if (onPurpose !== undefined && typeof onPurpose !== 'boolean') throw new TypeError('options.unknownStatus must be true or false');
      return call('POST', path, {
        status,
        ...(error?.code === undefined ? {} : { error_code: error.code }),
        ...(error?.message === undefined ? {} : { error_message: error.message }),
        // Sent only when asked: a sandbox of an earlier version refuses a property it does not know.
        ...(onPurpose ? { unknown_status: true } : {}),
      });
    },
    resend: async (kind, id) => call('POST', transactionPath(kind, id, 'resend')),
    timeline: async (kind, id) => call('GET', transactionPath(kind, id, 'timeline')),
    transactions: async () => call('GET', '/transactions'),
    deliveries: async (transactionId) => {
      if (transactionId === undefined) return call('GET', '/deliveries');
      if (typeof transactionId !== 'string' || transactionId === '') throw new TypeError('transactionId must be a non-empty string');
      return call('GET', `/deliveries?${new URLSearchParams({ transaction_id: transactionId })}`);
    },
    requests: async (options = {}) => {
      if (options === null || typeof options !== 'object') throw new TypeError('options must be an object { limit? }');
      const { limit } = options;
      if (limit === undefined) return call('GET', '/requests');
      if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1)
        throw new TypeError('options.limit must be a whole number, 1 or more');
      return call('GET', `/requests?limit=${limit}`);
    },
    faults: async () => call('GET', '/faults'),
    addFault: async (fault) => {
      // Only the shape is checked here: the sandbox lists every wrong field at once.
      if (fault === null || typeof fault !== 'object' || Array.isArray(fault))
        throw new TypeError('fault must be an object { method, path_prefix, kind, count, ms? }');
      return call('POST', '/faults', fault);
    },
    reset: async () => call('POST', '/reset'),
    snapshot: async () => call('GET', '/snapshot'),
  };
}

/**
 * `/payins/<id>/<action>`, the id percent-encoded so that no id can reach another path: a `/`,
 * `?` or `#` in it stays part of the id. Dot segments are the exception (the URL parser removes
 * `.` and `..`, escaped or not), so those two are refused.
 */
function transactionPath(kind: unknown, id: unknown, action: string): string {
  if (!isTransactionKind(kind)) throw new TypeError("kind must be 'payin' or 'payout'");
  if (typeof id !== 'string' || id === '') throw new TypeError('id must be a non-empty string such as pi_…');
  if (id === '.' || id === '..') throw new TypeError('id must not be . or .. (no transaction has such an id)');
  return `/${kind}s/${encodeURIComponent(id)}/${action}`;
}
