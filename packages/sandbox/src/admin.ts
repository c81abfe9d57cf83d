// The admin API under /_sandbox/: JSON, for tests in any language; open to this machine's
// developer, and to anyone else only with the admin token (admin-access.ts). Also the dashboard and its change feed; the hosted payment page is routed from here
// (payment-page.ts).
import {
  fail,
  html,
  invalid,
  isReply,
  json,
  MAX_BODY_BYTES,
  methodNotAllowed,
  parseJson,
  redirect,
  reply,
  view,
  type FieldError,
  type Reply,
} from './http.js';
import { TERMINAL_STATUSES } from '@pay/schema';
import { readHeader } from '@pay/sign';
import { parseFault } from './faults.js';
import { LATEST_TIME } from './limits.js';
import { PAGE_SCRIPT, PAGE_SCRIPT_PATH } from './page-script.js';
import { presentedToken, sameToken } from './admin-access.js';
import { notFoundPage } from './admin-layout.js';
import { dashboardPage } from './dashboard-page.js';
import { SIGN_IN_PATH, signIn, signInScript } from './sign-in.js';
import { SIGN_IN_SCRIPT_PATH } from './sign-in-script.js';
import { requestsPage } from './requests-page.js';
import { timelineOf } from './timeline.js';
import { timelinePage } from './timeline-page.js';
import { adminRecord, lookupResponse, serviceDateTime, type Cause, type Transaction } from './records.js';
import { maskedCut, redactUrlsIn } from './masking.js';
import { takeSnapshot } from './snapshot.js';
import { paymentPage } from './payment-page.js';
import type { State } from './state.js';
import type { AdminCall } from './admin-call.js';
import { DEFAULT_DECLINE } from './decline.js';
import { statusProblem } from './settable-status.js';

/** Largest clock step accepted by `clock/advance`: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

const SIGNATURE_HEADERS = ['x-signature', 'x-simplified-signature', 'x-merchant-id', 'x-timestamp'];
const TRANSACTION = /^\/(payins|payouts)\/([^/]+)\/(status|resend|timeline)$/;
const PAY = /^\/pay\/([^/]+)$/;
const TIMELINE_PAGE = /^\/timeline\/([^/]+)$/;

/** Answers a request under /_sandbox/. */
export async function admin(state: State, call: AdminCall): Promise<Reply> {
  const { method, path } = call;
  // A web page of another origin must not drive the sandbox through the visitor's browser: a
  // browser names the page's origin on every cross-origin POST; scripts and curl send none.
  const origin = readHeader(call.incoming.headers, 'origin');
  if (method !== 'GET' && method !== 'HEAD' && origin !== undefined && !state.names.allowsOrigin(origin, call.origin)) {
    return fail(403, 'cross_origin', 'the sandbox takes admin and payment page actions only from its own pages (Origin header)');
  }
  // Nothing signed as the service signs ever has business here: a webhook the sandbox was made to
  // send to itself, or a merchant's call to a wrong path, must not reset it or pay a payin.
  const signed = SIGNATURE_HEADERS.find((name) => readHeader(call.incoming.headers, name) !== undefined);
  if (signed !== undefined) {
    return fail(
      403,
      'signed_request',
      `the admin API and pages refuse requests that carry the service's signature headers (header ${signed}): a webhook or a signed call never belongs here`,
    );
  }
  const pay = PAY.exec(path);
  // The hosted payment page is the customer's, who may be on another machine.
  if (pay !== null) return paymentPage(state, call, pay[1]!);
  if (path === SIGN_IN_PATH) return signIn(call, call.signInCodes);
  if (path === SIGN_IN_SCRIPT_PATH) return method === 'GET' ? signInScript() : methodNotAllowed(method, ['GET']);
  if (!sameToken(presentedToken(call.incoming.headers), call.adminToken) && !call.isDeveloper()) {
    // A browser is sent to the sign-in page (on the origin it is on: the sandbox cannot know it
    // behind a proxy that rewrites Host); a script gets the refusal, saying what opens it.
    if (method === 'GET' && /\btext\/html\b/i.test(readHeader(call.incoming.headers, 'accept') ?? '')) {
      return redirect(303, `/_sandbox${SIGN_IN_PATH}`);
    }
    return fail(
      403,
      'forbidden',
      state.names.adminTokenFromEveryone ? FORBIDDEN_TO_EVERYONE : FORBIDDEN_FROM_ELSEWHERE,
      {},
      {
        'www-authenticate': 'Bearer realm="pay-sandbox"',
      },
    );
  }

  const only = (allowed: string, answer: () => Reply | Promise<Reply>) =>
    method === allowed ? answer() : methodNotAllowed(method, [allowed]);

  switch (path) {
    case '':
      return only('GET', () => view(redirect(308, `${call.base}/_sandbox/`)));
    case '/':
      return only('GET', () => view(html(200, dashboardPage(state, call.base, call.query))));
    case '/log':
      return only('GET', () => view(html(200, requestsPage(state, call.query))));
    case PAGE_SCRIPT_PATH:
      return only('GET', () =>
        view(reply(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }, PAGE_SCRIPT)),
      );
    case '/health':
      return only('GET', () => json(200, { ok: true }));
    case '/clock':
      return only('GET', () => json(200, { now: serviceDateTime(state.schedule.now()) }));
    case '/clock/advance':
      return only('POST', () => advance(state, call));
    case '/deliveries':
      return only('GET', () => {
        const id = new URLSearchParams(call.query ?? '').get('transaction_id') ?? undefined;
        return json(200, state.deliveries.list(id));
      });
    case '/snapshot':
      // The state as a state file holds it, with URLs shown as everywhere else (no credentials).
      return only('GET', () =>
        reply(
          200,
          { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
          redactUrlsIn(JSON.stringify(takeSnapshot(state))),
        ),
      );
    case '/requests':
      return only('GET', () => requestLog(state, call));
    case '/transactions':
      return only('GET', () => json(200, [...state.transactions.values()].map(adminRecord)));
    case '/faults':
      if (method === 'GET') return json(200, state.faults.list());
      return method === 'POST' ? addFault(state, call) : methodNotAllowed(method, ['GET', 'POST']);
    case '/reset':
      return only('POST', () => {
        state.reset();
        return json(200, { ok: true });
      });
    case '/events':
      return only('GET', () => view(events(state)));
  }
  const tx = TRANSACTION.exec(path);
  if (tx !== null) {
    const action = tx[3]!;
    const allowed = action === 'timeline' ? 'GET' : 'POST';
    if (method !== allowed) return methodNotAllowed(method, [allowed]);
    const kind = tx[1] === 'payins' ? 'payin' : 'payout';
    const record = state.transactions.get(tx[2]!);
    if (record === undefined || record.kind !== kind) return fail(404, 'not_found', `no ${kind} with this id`);
    if (action === 'timeline') return json(200, timelineOf(state, record));
    return action === 'status' ? setStatus(state, call, record) : resend(state, call, record);
  }
  const page = TIMELINE_PAGE.exec(path);
  if (page !== null) return only('GET', () => view(timelinePage(state, page[1]!)));
  // A person who mistyped an address in a browser gets a page; a script, the JSON error.
  if (method === 'GET' && /\btext\/html\b/i.test(readHeader(call.incoming.headers, 'accept') ?? '')) {
    return view(html(404, notFoundPage(state, `/_sandbox${path}`)));
  }
  return fail(404, 'not_found', `no admin endpoint ${method} /_sandbox${maskedCut(path, 200)}`);
}

// What a refusal says opens the admin area, never the token itself.
const HOW_TO_GIVE_IT =
  'send the admin token it printed at start as Authorization: Bearer <token> (the pay-sandbox commands read it from PAY_SANDBOX_ADMIN_TOKEN)';
const FORBIDDEN_FROM_ELSEWHERE = `the sandbox admin API and dashboard answer without a token only to its developer (loopback, no proxy, the account that runs it); from elsewhere ${HOW_TO_GIVE_IT}`;
const FORBIDDEN_TO_EVERYONE = `this sandbox is reachable from elsewhere (publicUrl, a host beyond loopback, allowHttpHosts or localReceivers), so its admin API and dashboard need the admin token from every caller, this machine's included: ${HOW_TO_GIVE_IT}, or in a browser open the sign-in link it printed`;

/**
 * An admin body: a JSON object (an empty body is `{}`), whatever the content type: scripts in any
 * language post it without ceremony, and browsers are kept out by the Origin and Host checks.
 */
async function adminBody(call: AdminCall): Promise<Record<string, unknown> | Reply> {
  const bytes = await call.incoming.read();
  if (bytes === undefined) return fail(413, 'payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  if (bytes.byteLength === 0) return {};
  const parsed = parseJson(bytes);
  if (!parsed.ok) return fail(400, 'invalid_json', parsed.message);
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    return invalid('the body must be a JSON object', [{ path: '', message: 'must be an object' }]);
  }
  return parsed.value as Record<string, unknown>;
}

function unknownKeys(body: Record<string, unknown>, allowed: readonly string[]): FieldError[] {
  return Object.keys(body)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ path: maskedCut(k, 64), message: 'is not an allowed property' }));
}

async function advance(state: State, call: AdminCall): Promise<Reply> {
  const body = await adminBody(call);
  if (isReply(body)) return body;
  const errors = unknownKeys(body, ['seconds']);
  const { seconds } = body;
  if (typeof seconds === 'number' && seconds < 0) {
    // Webhooks sent and statuses changed cannot be taken back: time only moves forward here.
    errors.push({
      path: 'seconds',
      message: `must be 0 or more: time does not go backwards in the sandbox (a reset puts the schedule clock back on the sandbox's clock)`,
    });
  } else if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds > MAX_ADVANCE_SECONDS) {
    errors.push({ path: 'seconds', message: `must be a number of seconds from 0 to ${MAX_ADVANCE_SECONDS}` });
  } else if (state.schedule.now() + seconds * 1000 > LATEST_TIME) {
    errors.push({ path: 'seconds', message: 'would move the schedule clock past the end of year 9999' });
  }
  if (errors.length > 0) return invalid('the body must be { "seconds": <number> }', errors);
  const now = await state.schedule.advance(Math.round((seconds as number) * 1000));
  state.changed();
  return json(200, { now: serviceDateTime(now) });
}

async function addFault(state: State, call: AdminCall): Promise<Reply> {
  const body = await adminBody(call);
  if (isReply(body)) return body;
  const parsed = parseFault(body);
  if (!parsed.ok) return invalid('the body must be { method, path_prefix, kind, count, ms? }', parsed.errors);
  state.faults.add(parsed.fault);
  return json(200, parsed.fault);
}

async function setStatus(state: State, call: AdminCall, tx: Transaction): Promise<Reply> {
  const body = await adminBody(call);
  if (isReply(body)) return body;
  const errors = unknownKeys(body, ['status', 'error_code', 'error_message', 'unknown_status']);
  const { status, error_code, error_message, unknown_status } = body;
  if (unknown_status !== undefined && typeof unknown_status !== 'boolean')
    errors.push({ path: 'unknown_status', message: 'must be true or false' });
  const problem = statusProblem(status, unknown_status === true, '"unknown_status": true');
  if (problem !== undefined) errors.push({ path: 'status', message: problem });
  for (const [path, value] of [
    ['error_code', error_code],
    ['error_message', error_message],
  ] as const) {
    if (value === undefined) continue;
    if (status !== 'failed') errors.push({ path, message: 'is only given with status failed' });
    else if (typeof value !== 'string' || value.length === 0 || value.length > 255)
      errors.push({ path, message: 'must be a string of 1 to 255 characters' });
  }
  if (errors.length > 0) return invalid('the body must be { status, error_code?, error_message?, unknown_status? }', errors);
  if (!state.isOpen(tx)) {
    return fail(409, 'invalid_transition', `${tx.kind} ${tx.id} is ${tx.status}; ${TERMINAL_STATUSES.join(', ')} are final`);
  }
  if (tx.status === status) return fail(409, 'invalid_transition', `${tx.kind} ${tx.id} is already ${tx.status}`);
  const error =
    status === 'failed' && (error_code !== undefined || error_message !== undefined)
      ? {
          code: (error_code as string | undefined) ?? DEFAULT_DECLINE.code,
          message: (error_message as string | undefined) ?? DEFAULT_DECLINE.message,
        }
      : undefined;
  state.transition(tx, status as string, actor(call), error);
  return json(200, lookupResponse(tx));
}

/**
 * Who made an admin change: a page of the sandbox (a browser names the page's origin on every
 * POST, and only the sandbox's own origin gets this far), or a script or test (no Origin).
 */
function actor(call: AdminCall): Cause {
  return readHeader(call.incoming.headers, 'origin') === undefined ? 'admin_api' : 'dashboard';
}

function resend(state: State, call: AdminCall, tx: Transaction): Reply {
  const merchant = state.merchants.get(tx.merchantId)!;
  if (merchant.webhookUrl === undefined && tx.webhookUrl === null) {
    return fail(409, 'no_webhook_address', `${tx.kind} ${tx.id} has no webhook_url and its merchant no static address`);
  }
  state.resend(tx, actor(call));
  return json(200, lookupResponse(tx));
}

/** Largest `limit` of `GET /_sandbox/requests`. */
const MAX_REQUESTS_LIMIT = 1000;

/** `GET /_sandbox/requests[?limit=N]`: the request log, newest first (100 unless told). */
function requestLog(state: State, call: AdminCall): Reply {
  const given = new URLSearchParams(call.query ?? '').get('limit');
  const limit = given === null ? 100 : Number(given);
  if (!/^[0-9]{1,7}$/.test(given ?? '0') || limit < 1 || limit > MAX_REQUESTS_LIMIT) {
    return invalid('the query must be ?limit=<1 to 1000>', [
      { path: 'limit', message: `must be a whole number from 1 to ${MAX_REQUESTS_LIMIT}` },
    ]);
  }
  return json(200, state.requests.list(limit));
}

/** Server-sent events: one `change` event per change, so the dashboard refreshes by itself. */
function events(state: State): Reply {
  const encoder = new TextEncoder();
  let stop = () => {};
  let unregister = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (version: number) => {
        try {
          controller.enqueue(encoder.encode(`event: change\ndata: ${version}\n\n`));
        } catch {
          stop();
        }
      };
      // The current version first: a page rendered before this stream connected (or reconnected)
      // sees at once whether it missed a change.
      controller.enqueue(encoder.encode(`retry: 1000\n\n`));
      send(state.version);
      stop = state.listen(send);
      unregister = state.onClose(() => {
        stop();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      });
    },
    cancel() {
      stop();
      unregister();
    },
  });
  return reply(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' }, stream);
}
