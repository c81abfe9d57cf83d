// The web-standard core: `createSandbox(options)` gives a Fetch handler (`Request -> Response`)
// for the whole sandbox. This file builds it (its options are checked in options.ts); each
// request's handling is handle-request.ts (the log line, the request log, never an exception
// escaping), around dispatch.ts (the routing and the injected faults).
import { readBody, type Reply } from './http.js';
import type { CoreContext } from './core-context.js';
import { Deliveries, DELIVERY_TIMEOUT_MS, fetchSender, type WebhookSender } from './deliveries.js';
import { isClockAdvance } from './dispatch.js';
import { handleRequest } from './handle-request.js';
import type { HostRequest } from './host-request.js';
import { maskText } from './masking.js';
import { shownWithoutSecret, type Merchant } from './merchants.js';
import { checkSandboxOptions, type SandboxOptions } from './options.js';
import { printable } from './printable.js';
import { Schedule } from './schedule.js';
import { SignInCodes } from './sign-in-codes.js';
import { signInLink } from './sign-in.js';
import { State } from './state.js';

/** How much longer than one webhook attempt's deadline a clock advance waits, at most. */
const ADVANCE_GRACE_MS = 1_000;

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
  // Every option checked, in one place (options.ts), before anything is made.
  const { merchants, adminToken, tolerance, publicUrl, maxTransactions, uniqueReferences, clock, names } = checkSandboxOptions(
    options,
    boundBeyondLoopback,
  );
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
  const core: CoreContext = { state, names, clock, publicUrl, closing: closing.signal, adminToken, signInCodes, logger, onError };
  const handle = (incoming: HostRequest) => handleRequest(core, incoming);
  const track: RequestTracker = (url, work) =>
    state.schedule.movesClock && isClockAdvance(url) ? work() : clock.track('sandbox.request', work);

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

/** A Reply as a Fetch Response (a dropped one marked with DROP_CONNECTION). */
function toResponse(answer: Reply): Response {
  const response = new Response(answer.body, { status: answer.status, headers: answer.headers });
  if (answer.drop) Object.defineProperty(response, DROP_CONNECTION, { value: true });
  return response;
}
