// The web-standard core: `createSandbox(options)` gives a Fetch handler (`Request -> Response`)
// for the whole sandbox. It routes, applies injected faults, logs one line per request, and
// never lets anything a request contains escape as an exception.
import { type Clock, clockOption } from '@pay/clock';
import { admin } from './admin.js';
import { fail, json, readBody, redirect, reply, view, type Incoming, type Reply } from './http.js';
import { ENDPOINTS, isLoopbackAddress, isLoopbackHost } from '@pay/schema';
import { readHeader } from '@pay/sign';
import { checkAdminToken, isForwarded, newAdminToken } from './admin-access.js';
import type { PeerAccount } from './peer-account.js';
import { checkMerchants, hasPublishedSecret, shownWithoutSecret, type Merchant } from './merchants.js';
import { Names } from './names.js';
import { loggedBody, loggedErrors } from './request-log.js';
import { maskedCut, maskHeader, maskText } from './masking.js';
import { printable } from './printable.js';
import { Schedule } from './schedule.js';
import { CARD_PROXY_PREFIX, routesAt, service } from './endpoints.js';
import { serviceDateTime } from './records.js';
import { State } from './state.js';
import { SignInCodes } from './sign-in-codes.js';
import { signInLink } from './sign-in.js';
import { Deliveries, DELIVERY_TIMEOUT_MS, fetchSender, type WebhookSender } from './deliveries.js';

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

/** Transactions a sandbox keeps by default; the oldest is forgotten past it. */
export const MAX_TRANSACTIONS = 10_000;
/** How much longer than one webhook attempt's deadline a clock advance waits, at most. */
const ADVANCE_GRACE_MS = 1_000;
/** The most ports the sandbox remembers being reached on. */
const MAX_PORTS = 8;

/** What the host knows about a request beyond the Fetch `Request` (the Node adapter fills it). */
export interface RequestContext {
  /**
   * The exact URL called: scheme, the `Host` header and the request target as received. A
   * `Request`'s own `url` is normalised by the URL parser, so a host that has the raw target
   * passes it here, and that is what the signature is checked against.
   */
  url?: string | undefined;
  /**
   * The peer's address. Only a loopback peer, with no forwarding header and not under the public
   * URL's host, is this machine's developer, and only while the sandbox is not reachable from
   * elsewhere (no publicUrl other than a loopback name, no allowHttpHosts, no localReceivers);
   * anyone else needs the admin token for the admin API and dashboard. Absent: not local (a Fetch
   * host says where a request came from, or nothing is).
   */
  remoteAddress?: string | undefined;
  /** Names of single-valued headers received more than once (answered 400 `duplicate_header`). */
  duplicateHeaders?: readonly string[] | undefined;
}

/** What a host adapter hands the core: the request as read, and what the host knows about it. */
export interface HostRequest extends Incoming {
  remoteAddress?: string;
  duplicateHeaders?: readonly string[];
  /** The local port the request arrived on (the Node adapter knows it; elsewhere the URL's). */
  localPort?: number;
  /**
   * Whose process the loopback peer is (the Node adapter asks the kernel; see peer-account.ts).
   * Asked only for the admin area: another account of the machine is not the developer.
   */
  account?: () => PeerAccount;
}

/** A sandbox: its Fetch handler and its merchants. */
export interface Sandbox {
  /** The merchants it accepts (the demo merchant when none were given). */
  readonly merchants: readonly Merchant[];
  /** The admin token (the one given, or a random one): what a caller from elsewhere needs for the admin area. */
  readonly adminToken: string;
  /**
   * A new sign-in link for the developer's browser: `<base>/_sandbox/sign-in#code=<one-time code>`.
   * The sign-in page posts the code (never sent in a URL, so in no log) and gets the admin cookie;
   * each link opens the dashboard once, and the 16 newest unused links are kept. Needed once the
   * sandbox is reachable from elsewhere (a publicUrl that is not a loopback name, allowHttpHosts,
   * localReceivers, a Node host beyond loopback): then the admin area asks everyone for the token.
   *
   * @param base Where the developer's browser reaches this sandbox (`http://127.0.0.1:4010`).
   * @throws TypeError when `base` is not an http(s) base URL.
   */
  signInLink(base: string): string;
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

// The core's own entry for host adapters in this package (the Node adapter), skipping the Fetch
// `Request` and `Response` objects, which cost more than everything else a request does; and its
// state, which the Node adapter saves to and loads from a file.
const HANDLE: unique symbol = Symbol('handle');
const STATE: unique symbol = Symbol('state');
const TRACK: unique symbol = Symbol('track');
type Core = Sandbox & { [HANDLE]: (incoming: HostRequest) => Promise<Reply>; [STATE]: State; [TRACK]: RequestTracker };

/**
 * Runs the handling of one request (from its arrival to its answer, the body of a stream excepted)
 * as tracked work on the sandbox's clock. `url` is the URL called, as the core receives it.
 */
export type RequestTracker = <T>(url: string, work: () => Promise<T>) => Promise<T>;

const URL_PARTS = /^(https?:\/\/[^/?#\s]+)(\/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$/i;
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const ADMIN = '/_sandbox';
// The admin API's clock step: with a clock that moves itself, the request that moves it is not
// tracked work, or the clock would wait for the very request that is waiting for it.
const ADVANCE = `${ADMIN}/clock/advance`;
const FAVICON = '/favicon.ico';

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
  return createCore(options, fetchSender);
}

/** createSandbox with the webhook transport of the host (the Node adapter has a faster one). */
export function createCore(options: SandboxOptions, send: WebhookSender, boundBeyondLoopback = false): Sandbox {
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
  // Every line passes the masking rule (masking.ts) and is made printable: paths, hints and
  // webhook URLs carry text a caller chose. This is the one writer of log lines, so a line a new
  // code path adds is masked too.
  const logger = options.log === undefined ? undefined : (line: string) => options.log!(printable(maskText(line)));
  const log = logger ?? (() => {});
  const onError = (error: unknown) => log(`sandbox error: ${error instanceof Error ? error.name : 'unknown'}`);
  // An advance waits for webhook attempts one attempt's deadline and a little more, at most.
  const schedule = new Schedule(onError, DELIVERY_TIMEOUT_MS + ADVANCE_GRACE_MS, clock);
  let state: State;
  const deliveries = new Deliveries({
    schedule,
    changed: () => state.changed(),
    log: logger,
    send,
    refusal: (url) => names.webhookProblem(url, state.ports),
  });
  state = new State(merchants, schedule, deliveries, tolerance, maxTransactions, names, uniqueReferences);
  // Ends the sleeps of requests held by a `delay` fault at once when the sandbox closes.
  const closing = new AbortController();
  const signInCodes = new SignInCodes();

  async function dispatch(incoming: HostRequest, arrivedAt: number, note: Note): Promise<Reply> {
    const { url, method } = incoming;
    // First of all, the name the request was sent to: nothing is done for a page that reached
    // the sandbox under a name of its own (DNS rebinding).
    const misdirected = names.hostProblem(AUTHORITY.exec(url)?.[1]);
    if (misdirected !== undefined) return fail(421, 'misdirected_request', misdirected);
    const parts = URL_PARTS.exec(url);
    if (parts === null) return fail(400, 'invalid_url', 'the request URL is not an absolute http URL');
    const [, origin, rawPath, query = null] = parts;
    const path = rawPath || '/';
    if (incoming.duplicateHeaders !== undefined && incoming.duplicateHeaders.length > 0) {
      const name = incoming.duplicateHeaders[0]!;
      return fail(400, 'duplicate_header', `header ${name} was sent more than once; send it once`);
    }
    if (state.ports.size < MAX_PORTS) state.ports.add(incoming.localPort ?? portOf(origin!));
    const base = publicUrl ?? origin!;
    if (path === '/') return index(incoming, base);
    // What a browser asks for by itself: no icon (the pages carry an empty one), not a service call.
    if (path === FAVICON && (method === 'GET' || method === 'HEAD')) return view(reply(204, { 'cache-control': 'max-age=86400' }, null));
    // The developer at this machine: a loopback peer that no proxy speaks for, calling the
    // sandbox by a name other than its public one. Anyone else is from outside.
    const proxied = isForwarded(incoming.headers) || names.isPublicName(AUTHORITY.exec(url)?.[1]);
    const peer = incoming.remoteAddress;
    const local = peer !== undefined && !proxied && isLoopbackAddress(peer);
    if (path === ADMIN || path.startsWith(`${ADMIN}/`)) {
      // The admin area asks more: once the sandbox was told it may be reached from elsewhere, a
      // proxy that adds no forwarding header, or a tunnel whose client calls it localhost, looks
      // just like the developer, so no one is taken for them (the developer's browser signs in
      // with the link the terminal printed). And every account of the machine can connect to
      // loopback: the peer's process must be the developer's own (where the platform says; see
      // peer-account.ts).
      const isDeveloper = () => local && !names.adminTokenFromEveryone && incoming.account?.() !== 'other';
      const sub = path.slice(ADMIN.length);
      return admin(state, { incoming, method, path: sub, query, origin: origin!, base, isDeveloper, adminToken, signInCodes });
    }
    // A service call is taken for one from outside only on evidence (a peer elsewhere, a proxy's
    // headers, the public name): a Fetch host that gives no peer address is not refused service.
    const fromOutside = !local && (peer !== undefined || proxied);
    note.service = true;
    const fault = state.faults.take(method, query === null ? path : `${path}?${query}`);
    if (fault !== undefined) {
      note.fault = fault.kind;
      state.changed(); // a fault used up is visible at once (GET /_sandbox/faults, the change feed)
    }
    if (fault?.kind === 'drop_before_commit') {
      await incoming.read();
      return dropped();
    }
    // A slow service, on the sandbox's clock: a test clock skips it (the request rests meanwhile).
    if (fault?.kind === 'delay') await clock.sleep(fault.ms!, { signal: closing.signal }).catch(() => {});
    const signedUrl = publicUrl === undefined ? url : publicUrl + url.slice(origin!.length);
    const call = { incoming, method, url: signedUrl, pathname: path, query, base, arrivedAt, fault, fromOutside };
    const answer = (await service(state, call)) ?? notFound(method, path);
    const replacement =
      fault?.kind === 'drop_after_commit'
        ? dropped()
        : fault?.kind === 'status_500_after_commit'
          ? fail(500, 'internal_error', 'injected fault status_500_after_commit: the request was handled, then this 500 was sent')
          : undefined;
    if (replacement === undefined) return answer;
    // The request log still says which transaction the request made.
    if (answer.note?.transactionId !== undefined) replacement.note = { ...replacement.note, transactionId: answer.note.transactionId };
    return replacement;
  }

  async function handle(incoming: HostRequest): Promise<Reply> {
    // Arrival on the sandbox's clock: what signatures are judged by, and the request log's `at`.
    const arrivedAt = clock.now();
    // How long it took, for the log line and the request log only: real time, whatever the clock.
    const started = performance.now();
    // Where it arrived on the schedule clock, and among what else happened in that millisecond.
    const arrival = { at: state.schedule.now(), order: state.schedule.tick() };
    const note: Note = {};
    let answer: Reply;
    try {
      answer = await dispatch(incoming, arrivedAt, note);
    } catch (error) {
      onError(error);
      answer = fail(500, 'internal_error', 'the sandbox failed on this request');
    }
    const target = redactPath(incoming.url);
    const { code, hint } = answer.note ?? {};
    if (logger !== undefined && answer.note?.view !== true) {
      logger(
        `${incoming.method} ${target} ${answer.drop ? 'dropped' : answer.status} ${elapsed(started)}ms` +
          `${code ? ` ${code}` : ''}${note.fault ? ` fault=${note.fault}` : ''}${hint ? ` hint: ${hint}` : ''}`,
      );
    }
    if (note.service) await record(incoming, answer, target, { arrivedAt, started }, arrival, note);
    // The service's Date header, on the sandbox's clock: a client reads it to see how far the
    // service's clock is from its own (Node would otherwise write the machine's time).
    answer.headers['date'] = new Date(clock.now()).toUTCString();
    return answer;
  }

  const track: RequestTracker = (url, work) =>
    state.schedule.movesClock && URL_PARTS.exec(url)?.[2] === ADVANCE ? work() : clock.track('sandbox.request', work);

  /** Adds a request to a service endpoint to the request log. */
  async function record(
    incoming: HostRequest,
    answer: Reply,
    target: string,
    { arrivedAt, started }: { arrivedAt: number; started: number },
    arrival: { at: number; order: number },
    note: Note,
  ): Promise<void> {
    let body: Uint8Array | undefined;
    try {
      body = await incoming.read();
    } catch {
      body = new Uint8Array(0);
    }
    const claimed = readHeader(incoming.headers, 'x-merchant-id');
    state.requests.add(
      {
        seq: 0, // numbered by the log
        at: new Date(arrivedAt).toISOString(),
        clock_at: serviceDateTime(arrival.at),
        merchant_id: claimed === undefined ? null : maskedCut(maskHeader('x-merchant-id', claimed), 64),
        method: maskedCut(incoming.method, 16),
        path: target,
        status: answer.drop ? null : answer.status,
        code: answer.note?.code ?? null,
        message: answer.note?.message ?? null,
        hint: answer.note?.hint ?? null,
        errors: loggedErrors(answer.note?.errors),
        duration_ms: elapsed(started),
        transaction_id: answer.note?.transactionId ?? null,
        fault: note.fault ?? null,
        body: incoming.method === 'GET' && body?.byteLength === 0 ? null : loggedBody(body, incoming.parsed),
      },
      arrival.order,
    );
    state.changed();
  }

  const sandbox: Core = {
    merchants: merchants.map(shownWithoutSecret),
    adminToken,
    signInLink: (base: string) => signInLink(signInCodes, base),
    async fetch(request: Request, context: RequestContext = {}): Promise<Response> {
      let body: Promise<Uint8Array | undefined> | undefined;
      const incoming: HostRequest = {
        method: request.method.toUpperCase(),
        url: context.url ?? request.url,
        headers: request.headers,
        read: () => (body ??= readBody(request)), // a stream is read once; the request log reads it again
        ...(context.remoteAddress === undefined ? {} : { remoteAddress: context.remoteAddress }),
        ...(context.duplicateHeaders === undefined ? {} : { duplicateHeaders: context.duplicateHeaders }),
      };
      return toResponse(await track(incoming.url, () => handle(incoming)));
    },
    close(): void {
      closing.abort();
      state.close();
    },
    [HANDLE]: handle,
    [STATE]: state,
    [TRACK]: track,
  };
  return sandbox;
}

/** The core handler of a sandbox made by createSandbox, for this package's adapters. */
export function coreHandler(sandbox: Sandbox): (incoming: HostRequest) => Promise<Reply> {
  return (sandbox as Core)[HANDLE];
}

/** How a sandbox made by createSandbox tracks a request on its clock, for this package's adapters. */
export function coreTracker(sandbox: Sandbox): RequestTracker {
  return (sandbox as Core)[TRACK];
}

/** The state of a sandbox made by createSandbox, for this package's adapters. */
export function coreState(sandbox: Sandbox): State {
  return (sandbox as Core)[STATE];
}

function dropped(): Reply {
  const answer = fail(500, 'connection_dropped', 'injected fault: this host cannot drop connections, so it answers 500 instead');
  answer.drop = true;
  return answer;
}

/** A Reply as a Fetch Response (a dropped one marked with DROP_CONNECTION). */
function toResponse(answer: Reply): Response {
  const response = new Response(answer.body, { status: answer.status, headers: answer.headers });
  if (answer.drop) Object.defineProperty(response, DROP_CONNECTION, { value: true });
  return response;
}

/** What the dispatcher found out about a request, for the log line and the request log. */
interface Note {
  fault?: string;
  /** A request to a service endpoint (it goes into the request log). */
  service?: boolean;
}

/** What the index says the sandbox is: how a sandbox whose port is taken recognises another one there. */
export const SANDBOX_SERVICE = 'payments sandbox';

/**
 * `GET /`: a browser is sent to the dashboard; anything else gets an index of the sandbox's
 * addresses as JSON, so the printed base URL never answers a bare 404.
 */
function index(incoming: Incoming, base: string): Reply {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD')
    return fail(405, 'method_not_allowed', `${incoming.method} is not allowed here; use GET`, {}, { allow: 'GET' });
  if (/\btext\/html\b/i.test(readHeader(incoming.headers, 'accept') ?? '')) return view(redirect(303, `${base}/_sandbox/`));
  return json(200, {
    service: SANDBOX_SERVICE,
    base_url: base,
    card_proxy_url: `${base}${CARD_PROXY_PREFIX}`,
    dashboard: `${base}/_sandbox/`,
    requests: `${base}/_sandbox/requests`,
    endpoints: ENDPOINT_LIST,
  });
}

/** The port of an origin (`http://host:port`), or the scheme's default. */
function portOf(origin: string): number {
  const port = /:(\d{1,5})$/.exec(origin)?.[1];
  return port === undefined ? (/^https:/i.test(origin) ? 443 : 80) : Number(port);
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

/** A 404 for a path no endpoint has, with a hint when a slash more or less would have matched one. */
function notFound(method: string, path: string): Reply {
  let hint: string | undefined;
  if (routesAt(`${path}/`).length > 0) hint = `the endpoint ends with a slash: ${path}/`;
  else if (path.endsWith('/') && routesAt(path.slice(0, -1)).length > 0) hint = `this endpoint has no trailing slash: ${path.slice(0, -1)}`;
  else if (/^\/(?:v[0-9]+\/)?merchants\//.test(path)) hint = `the endpoints are ${ENDPOINT_LIST.join(', ')}`;
  return fail(
    404,
    'not_found',
    `no endpoint ${method} ${maskedCut(path, 200)}${hint === undefined ? '' : `; ${hint}`}`,
    hint === undefined ? {} : { hint },
  );
}

// The table's endpoints as a person reads them: `GET /v2/merchants/payins/<id>`.
const ENDPOINT_LIST = Object.values(ENDPOINTS).map(
  (e) => `${e.method} ${e.base === 'card_proxy_url' ? CARD_PROXY_PREFIX : ''}${e.path.replace(/\{([a-z_]+)\}/g, '<$1>')}`,
);

/** The request target for a log line and the request log: path and query, masked (the card push token too), then cut. */
function redactPath(url: string): string {
  return maskedCut(url.replace(/^https?:\/\/[^/?#]*/i, '') || '/', 300);
}

/** Whole milliseconds since `started` (a performance.now() reading). */
function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
