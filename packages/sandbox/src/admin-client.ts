// A typed client of the admin API under /_sandbox/, for tests and tools: the same calls against a
// sandbox over HTTP (`pay-sandbox`, `startSandbox`, a remote one) or in process (`createSandbox`).
//
// Arguments are checked for their types here; the sandbox's own rules (ranges, which statuses,
// what a fault may hold) are the sandbox's to judge, so a sandbox of another version answers with
// its own limits and every field error at once, as a SandboxAdminError.
import type { PayinLookupResponse, PayoutLookupResponse } from '@pay/schema';
import { checkBaseUrl } from './base-url.js';
import type { Fault, FaultKind } from './faults.js';
import type { FieldError } from './http.js';
import type { LoggedRequest } from './request-log.js';
import type { SandboxSnapshot } from './snapshot.js';
import type { TransactionTimeline } from './timeline.js';
import type { DeliveryAttempt } from './deliveries.js';
import { describeFailure } from './failure.js';

/** Something that answers Fetch requests in process, such as a `createSandbox()`. */
export interface SandboxFetcher {
  fetch(request: Request): Promise<Response>;
  /** Its admin token (a `createSandbox()` has one), sent with every call. */
  readonly adminToken?: string;
}

/** Where the admin client sends its calls: a base URL, or an in-process sandbox. */
export type SandboxAdminTarget = string | URL | SandboxFetcher;

/** Options of {@link sandboxAdmin}. */
export interface SandboxAdminOptions {
  /**
   * Longest wait for one call, answer body included, in ms (default {@link ADMIN_TIMEOUT_MS}). A
   * `clock/advance` waits for every webhook attempt it runs, so it can take a while.
   */
  timeoutMs?: number;
  /**
   * The sandbox's admin token, sent as `Authorization: Bearer`: needed from anywhere but the
   * sandbox's own machine (another machine, through a tunnel). An in-process sandbox's own
   * `adminToken` is used when this is absent.
   */
  adminToken?: string;
}

/** The default time limit of one admin call: one minute. */
export const ADMIN_TIMEOUT_MS = 60_000;

/** A payin or a payout. */
export type TransactionKind = 'payin' | 'payout';

/** The lookup record of a kind: what status changes and resends answer. */
export type LookupOf<K extends TransactionKind> = K extends 'payin' ? PayinLookupResponse : PayoutLookupResponse;

/** A status to move a transaction to: the final three, or any other lower-case word except `new`. */
export type AdminStatus = 'executed' | 'failed' | 'expired' | (string & {});

/** What only the sandbox knows about a transaction, beyond its lookup record. */
interface SandboxOnly {
  merchant_id: string;
  /** The last four digits of the card pushed, or null. */
  card_last4: string | null;
}

/** A transaction as `GET /_sandbox/transactions` lists it: the lookup record, its kind, merchant and card. */
export type SandboxTransaction =
  | (PayinLookupResponse & SandboxOnly & { kind: 'payin' })
  | (PayoutLookupResponse & SandboxOnly & { kind: 'payout' });

/** A fault to add: `ms` only for `delay` and `lookup_lag`. */
export interface FaultInput {
  method: string;
  path_prefix: string;
  kind: FaultKind;
  count: number;
  ms?: number;
}

/** The error of a `failed` status (defaults: `declined`, "The transaction was declined."). */
export interface StatusError {
  code?: string;
  message?: string;
}

/** The admin API of one sandbox. Every method rejects with a {@link SandboxAdminError} when the call fails. */
export interface SandboxAdmin {
  /** `GET /_sandbox/health`. */
  health(): Promise<{ ok: boolean }>;
  /** `GET /_sandbox/clock`: now on the schedule clock, as the service writes datetimes. */
  clock(): Promise<{ now: string }>;
  /** `POST /_sandbox/clock/advance`: moves the clock and answers once everything due has run. */
  advance(seconds: number): Promise<{ now: string }>;
  /** `POST /_sandbox/<kind>s/<id>/status`: one webhook per change. */
  setStatus<K extends TransactionKind>(kind: K, id: string, status: AdminStatus, error?: StatusError): Promise<LookupOf<K>>;
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
  requests(options?: { limit?: number }): Promise<LoggedRequest[]>;
  /** `GET /_sandbox/faults`: the faults still waiting. */
  faults(): Promise<Fault[]>;
  /** `POST /_sandbox/faults`: the fault as stored. */
  addFault(fault: FaultInput): Promise<Fault>;
  /** `POST /_sandbox/reset`: transactions, deliveries, faults and requests forgotten; clock on wall time. */
  reset(): Promise<{ ok: boolean }>;
  /** `GET /_sandbox/snapshot`: the state as a state file holds it. */
  snapshot(): Promise<SandboxSnapshot>;
}

/** What went wrong with an admin call, as {@link SandboxAdminError} carries it. */
export interface SandboxAdminErrorInit {
  status: number | null;
  code: string;
  message: string;
  /** The sandbox's own `error.message`, when it answered with its error body. */
  reason?: string;
  errors?: readonly FieldError[];
  hint?: string;
  cause?: unknown;
}

/**
 * An admin call that failed. `status` and `code` are the sandbox's (`404`, `not_found`) when it
 * answered with its error body; otherwise `code` is this client's: `network_error` (no answer:
 * `cause` holds why), `timeout`, or `invalid_response` (an answer that is not the sandbox's JSON,
 * say from another server at that address).
 */
export class SandboxAdminError extends Error {
  /** The HTTP status of the answer; null when there was none. */
  readonly status: number | null;
  /** The sandbox's `error.code`, or `network_error`, `timeout`, `invalid_response`. */
  readonly code: string;
  /**
   * The sandbox's own sentence (`error.message`) when it answered with its error body; the
   * `message` adds its field errors and hint to it.
   */
  readonly reason: string | undefined;
  /** The field errors of a 400 (`error.errors`: each path and message, the first 20); empty otherwise. */
  readonly errors: readonly FieldError[];
  /** The sandbox's `error.hint`, when it gave one. */
  readonly hint: string | undefined;

  constructor(init: SandboxAdminErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SandboxAdminError';
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason;
    this.errors = init.errors ?? [];
    this.hint = init.hint;
  }
}

// An in-process sandbox answers only under its own names; loopback is one of them.
const IN_PROCESS_BASE = 'http://127.0.0.1';
const KINDS: readonly string[] = ['payin', 'payout'];

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
  const send = inProcess ? (request: Request) => (target as SandboxFetcher).fetch(request) : (request: Request) => fetch(request);

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
        throw new TypeError('seconds must be a finite number of seconds, 0 or more');
      return call('POST', '/clock/advance', { seconds });
    },
    setStatus: async (kind, id, status, error) => {
      const path = transactionPath(kind, id, 'status');
      if (typeof status !== 'string' || status === '')
        throw new TypeError('status must be a non-empty string such as executed, failed or expired');
      if (error !== undefined && (error === null || typeof error !== 'object'))
        throw new TypeError('error must be an object { code?, message? }');
      if (error?.code !== undefined && typeof error.code !== 'string') throw new TypeError('error.code must be a string');
      if (error?.message !== undefined && typeof error.message !== 'string') throw new TypeError('error.message must be a string');
      return call('POST', path, {
        status,
        ...(error?.code === undefined ? {} : { error_code: error.code }),
        ...(error?.message === undefined ? {} : { error_message: error.message }),
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
  if (typeof kind !== 'string' || !KINDS.includes(kind)) throw new TypeError("kind must be 'payin' or 'payout'");
  if (typeof id !== 'string' || id === '') throw new TypeError('id must be a non-empty string such as pi_…');
  if (id === '.' || id === '..') throw new TypeError('id must not be . or .. (no transaction has such an id)');
  return `/${kind}s/${encodeURIComponent(id)}/${action}`;
}

interface Exchange {
  send: (request: Request) => Promise<Response>;
  /** The sandbox, in words, for messages. */
  where: string;
  timeoutMs: number;
  method: 'GET' | 'POST';
  url: string;
  /** The call, in words, for messages: `POST /_sandbox/faults`. */
  label: string;
  body: object | undefined;
  /** The admin token, if any. */
  token: string | undefined;
}

/** Sends one call and reads its answer within the time limit; the JSON answer, or a SandboxAdminError. */
async function exchange<T>(x: Exchange): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // An in-process handler may not heed the signal: the race ends the wait all the same.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new SandboxAdminError({ status: null, code: 'timeout', message: `${x.label}: no answer from ${x.where} within ${x.timeoutMs} ms` }),
      );
      controller.abort(); // after the reject: the timeout, not the abort it causes, is the outcome
    }, x.timeoutMs);
  });
  const answered = (async () => {
    let response: Response;
    try {
      const headers: Record<string, string> = {};
      if (x.body !== undefined) headers['content-type'] = 'application/json';
      if (x.token !== undefined) headers['authorization'] = `Bearer ${x.token}`;
      const request = new Request(x.url, {
        method: x.method,
        redirect: 'manual',
        signal: controller.signal,
        headers,
        ...(x.body === undefined ? {} : { body: JSON.stringify(x.body) }),
      });
      response = await x.send(request);
    } catch (error) {
      throw new SandboxAdminError({
        status: null,
        code: 'network_error',
        message: `${x.label}: cannot reach ${x.where} (${describeFailure(error)})`,
        cause: error,
      });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new SandboxAdminError({
        status: response.status,
        code: 'network_error',
        message: `${x.label}: the answer of ${x.where} broke off (${describeFailure(error)})`,
        cause: error,
      });
    }
    return { response, text };
  })();
  answered.catch(() => {}); // lost to the timer, it must not surface as an unhandled rejection
  try {
    const { response, text } = await Promise.race([answered, timedOut]);
    return read<T>(x, response.status, text);
  } finally {
    clearTimeout(timer);
  }
}

/** The value of a 2xx JSON answer, or the SandboxAdminError an answer stands for. */
function read<T>(x: Exchange, status: number, text: string): T {
  let body: unknown;
  let json = true;
  try {
    body = JSON.parse(text);
  } catch {
    json = false;
  }
  if (status >= 200 && status < 300) {
    if (json) return body as T;
    throw new SandboxAdminError({
      status,
      code: 'invalid_response',
      message: `${x.label}: the answer (${status}) of ${x.where} is not JSON; is it a sandbox?`,
    });
  }
  const error = json ? (body as { error?: unknown } | null)?.error : undefined;
  if (
    error === null ||
    typeof error !== 'object' ||
    typeof (error as { code?: unknown }).code !== 'string' ||
    typeof (error as { message?: unknown }).message !== 'string'
  ) {
    throw new SandboxAdminError({
      status,
      code: 'invalid_response',
      message: `${x.label}: ${x.where} answered ${status} without the sandbox's error body; is it a sandbox?`,
    });
  }
  const { code, message, errors, hint } = error as { code: string; message: string; errors?: unknown; hint?: unknown };
  const fields = Array.isArray(errors)
    ? errors
        .slice(0, KEPT_ERRORS)
        .filter(isFieldError)
        .map((e) => ({ path: bounded(e.path), message: bounded(e.message) }))
    : [];
  // The message says all a log line needs: the sandbox's sentence, where the body was wrong, the hint.
  const shown = fields.slice(0, SHOWN_ERRORS).map((e) => (e.path === '' ? e.message : `${e.path}: ${e.message}`));
  const more = (Array.isArray(errors) ? errors.length : 0) - shown.length;
  if (shown.length > 0 && more > 0) shown.push(`and ${more} more`);
  const said = bounded(message, HINT_CHARS);
  const told = typeof hint === 'string' ? bounded(hint, HINT_CHARS) : undefined;
  throw new SandboxAdminError({
    status,
    code,
    message: `${said}${shown.length > 0 ? ` — ${shown.join('; ')}` : ''}${told === undefined ? '' : ` — hint: ${told}`}`,
    reason: message,
    errors: fields,
    ...(typeof hint === 'string' ? { hint } : {}),
  });
}

// Bounds on what an error takes from an answer (another server may answer at the address): its
// message ends up in logs and terminals.
const KEPT_ERRORS = 20;
const SHOWN_ERRORS = 5;
const FIELD_CHARS = 200;
const HINT_CHARS = 500;

/** Text of an answer as an error shows it: control characters made spaces, cut at `max` characters. */
function bounded(text: string, max = FIELD_CHARS): string {
  const clean = text.slice(0, max + 1).replace(/\p{Cc}/gu, ' ');
  return clean.length > max ? `${clean.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')}…` : clean;
}

function isFieldError(value: unknown): value is FieldError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as FieldError).path === 'string' &&
    typeof (value as FieldError).message === 'string'
  );
}
