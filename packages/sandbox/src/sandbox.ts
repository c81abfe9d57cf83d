// The web-standard core: `createSandbox(options)` gives a Fetch handler (`Request -> Response`)
// for the whole sandbox. It routes, applies injected faults, logs one line per request, and
// never lets anything a request contains escape as an exception.
import { admin } from './admin.js';
import { fail } from './http.js';
import { checkMerchants, type Merchant } from './merchants.js';
import { Schedule } from './schedule.js';
import { service } from './service.js';
import { State } from './state.js';
import { Deliveries } from './webhooks.js';

/** Options of {@link createSandbox} (and of `startSandbox`). */
export interface SandboxOptions {
  /** The merchants it accepts; none gives the demo merchant (`DEMO_MERCHANT`). */
  merchants?: readonly Merchant[];
  /**
   * Largest accepted |now - x-timestamp| in seconds, from 0 to the interface's 60 (the default).
   * Shorten it only for tests that must wait a tolerance out.
   */
  toleranceSeconds?: number;
  /**
   * The base URL clients call, when it differs from what reaches the sandbox (behind a proxy that
   * rewrites `Host`). By default each request's own scheme, `Host` and path are what is signed.
   */
  publicUrl?: string;
  /** Receives one line per request and per webhook attempt (no secrets, no card data). */
  log?: (line: string) => void;
}

/** What the host knows about a request beyond the Fetch `Request` (the Node adapter fills it). */
export interface RequestContext {
  /**
   * The exact URL called: scheme, the `Host` header and the request target as received. A
   * `Request`'s own `url` is normalised by the URL parser, so a host that has the raw target
   * passes it here, and that is what the signature is checked against.
   */
  url?: string;
  /** The peer's address; the admin API and dashboard answer only loopback peers. Absent: local. */
  remoteAddress?: string;
  /** Names of single-valued headers received more than once (answered 400 `duplicate_header`). */
  duplicateHeaders?: readonly string[];
}

/** A sandbox: its Fetch handler and its merchants. */
export interface Sandbox {
  /** The merchants it accepts (the demo merchant when none were given). */
  readonly merchants: readonly Merchant[];
  /** Answers one request. Never rejects. */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /** Stops the clock and webhook deliveries, and ends the dashboard's event streams. */
  close(): void;
}

/**
 * Marks a response whose connection the host must drop without answering (the fault kinds
 * `drop_before_commit` and `drop_after_commit`). Hosts that cannot drop a connection send the
 * response itself: a 500 `connection_dropped`.
 */
export const DROP_CONNECTION: unique symbol = Symbol.for('@pay/sandbox.drop-connection');

/** Whether the host should destroy the connection instead of sending this response. */
export function shouldDropConnection(response: Response): boolean {
  return (response as unknown as Record<symbol, unknown>)[DROP_CONNECTION] === true;
}

function dropped(): Response {
  const response = fail(500, 'connection_dropped', 'injected fault: this host cannot drop connections, so it answers 500 instead');
  Object.defineProperty(response, DROP_CONNECTION, { value: true });
  return response;
}

// Scheme and authority, path, query; nothing may contain white space (verifyRequest refuses it).
const URL_PARTS = /^(https?:\/\/[^/?#\s]+)(\/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$/i;
const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const ADMIN = '/_sandbox';

/**
 * Creates a sandbox: a Fetch handler implementing every endpoint of the service, the card proxy
 * under `/card-proxy`, the admin API, the dashboard and the hosted payment page under
 * `/_sandbox/`. Use it in any Fetch host (Deno, Bun, Hono...), or `startSandbox` on Node.
 *
 * @throws TypeError for unusable options (a bad merchant, a tolerance outside 0 to 60 s).
 * @example
 * ```ts
 * const sandbox = createSandbox({ merchants: [{ id: 'm_1', secret: 'sk_1' }] });
 * const answer = await sandbox.fetch(new Request('http://127.0.0.1/_sandbox/health'));
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const merchants = checkMerchants(options.merchants);
  const tolerance = options.toleranceSeconds ?? 60;
  if (typeof tolerance !== 'number' || !(tolerance >= 0 && tolerance <= 60)) {
    throw new TypeError('toleranceSeconds must be a number from 0 to 60 (the interface allows 60)');
  }
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  const log = options.log ?? (() => {});
  const onError = (error: unknown) => log(`sandbox error: ${error instanceof Error ? error.name : 'unknown'}`);
  const schedule = new Schedule(onError);
  let state: State;
  const deliveries = new Deliveries(schedule, () => state.changed(), log);
  state = new State(merchants, schedule, deliveries, tolerance);
  const closing = new AbortController();

  async function dispatch(request: Request, context: RequestContext, arrivedAt: number, note: { fault?: string }): Promise<Response> {
    const url = context.url ?? request.url;
    const parts = URL_PARTS.exec(url);
    if (parts === null) return fail(400, 'invalid_url', 'the request URL is not an absolute http URL');
    const [, origin, rawPath, query = null] = parts;
    const path = rawPath || '/';
    const method = request.method.toUpperCase();
    if (context.duplicateHeaders !== undefined && context.duplicateHeaders.length > 0) {
      const name = context.duplicateHeaders[0]!;
      return fail(400, 'duplicate_header', `header ${name} was sent more than once; send it once`);
    }
    const base = publicUrl ?? origin!;
    if (path === ADMIN || path.startsWith(`${ADMIN}/`)) {
      const local = context.remoteAddress === undefined || LOOPBACK.test(context.remoteAddress);
      return admin(state, { request, method, path: path.slice(ADMIN.length), query, base, local });
    }
    const fault = state.faults.take(method, query === null ? path : `${path}?${query}`);
    if (fault !== undefined) {
      note.fault = fault.kind;
      state.changed(); // a fault used up is visible at once (GET /_sandbox/faults, the change feed)
    }
    if (fault?.kind === 'drop_before_commit') {
      await request.arrayBuffer().catch(() => {});
      return dropped();
    }
    if (fault?.kind === 'delay') await sleep(fault.ms!, closing.signal);
    const call = { request, method, url: publicUrl === undefined ? url : publicUrl + url.slice(origin!.length), pathname: path, query, base, arrivedAt, fault };
    const answer = (await service(state, call)) ?? notFound(method, path);
    if (fault?.kind === 'drop_after_commit') return dropped();
    if (fault?.kind === 'status_500_after_commit') {
      return fail(500, 'internal_error', 'injected fault status_500_after_commit: the request was handled, then this 500 was sent');
    }
    return answer;
  }

  return {
    merchants: merchants.map((m) => ({ ...m })),
    async fetch(request: Request, context: RequestContext = {}): Promise<Response> {
      const arrivedAt = Date.now();
      const note: { fault?: string } = {};
      let response: Response;
      try {
        response = await dispatch(request, context, arrivedAt, note);
      } catch (error) {
        onError(error);
        response = fail(500, 'internal_error', 'the sandbox failed on this request');
      }
      const target = redactPath(context.url ?? request.url);
      const shown = shouldDropConnection(response) ? 'dropped' : String(response.status);
      log(`${request.method} ${target} ${shown} ${Date.now() - arrivedAt}ms${note.fault ? ` fault=${note.fault}` : ''}`);
      return response;
    },
    close(): void {
      closing.abort();
      state.close();
    },
  };
}

function checkPublicUrl(value: unknown): string {
  if (typeof value !== 'string' || !/^https?:\/\/[^/?#\s]+\/?$/i.test(value)) {
    throw new TypeError('publicUrl must be an origin such as http://localhost:4010 (scheme, host, optional port; no path)');
  }
  return value.replace(/\/$/, '');
}

const CREATE_PATHS = ['/v2/merchants/payins/', '/v2/merchants/payouts/', '/v1/merchants/payins/'];

function notFound(method: string, path: string): Response {
  let hint = '';
  if (CREATE_PATHS.includes(`${path}/`)) hint = `; the endpoint ends with a slash: ${path}/`;
  else if (/^\/v2\/merchants\/(payins|payouts)\/[^/]+\/$/.test(path)) hint = '; lookups by id have no trailing slash';
  else if (/^\/card-proxy\/v1\/push\/[^/]+$/.test(path)) hint = '; the push address ends with a slash';
  return fail(404, 'not_found', `no endpoint ${method} ${path.slice(0, 200)}${hint}`);
}

/** The request target for a log line: path and query, the card push token hidden. */
function redactPath(url: string): string {
  const target = url.replace(/^https?:\/\/[^/?#]*/i, '') || '/';
  return target.replace(/^(\/card-proxy\/v1\/push\/)[^/?#]+/, '$1<token>').slice(0, 300);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
