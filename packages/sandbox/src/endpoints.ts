// The eight endpoints of the interface, each checked like the real service: size, content type,
// signature (exact URL, raw bytes, wall-clock tolerance at arrival), JSON, the strict request
// schema of @pay/schema, then the resource itself.
import {
  BODY_SCHEMAS,
  CardPushRequest,
  ENDPOINTS,
  endpointsAt,
  FIRST_STATUS,
  endpointUrl,
  takesQuery,
  validate,
  type Endpoint,
  type EndpointMatch,
  type EndpointName,
  type ValidationError,
} from '@pay/schema';
import { authenticate, authenticatePush, type AuthResult } from './auth.js';
import { cardOutcome, lastFour } from './cards.js';
import { diagnose } from './diagnose.js';
import type { Fault } from './faults.js';
import { readHeader } from '@pay/sign';
import {
  fail,
  invalid,
  isJsonContentType,
  isReply,
  json,
  MAX_BODY_BYTES,
  methodNotAllowed,
  parseJson,
  type Incoming,
  type Reply,
} from './http.js';
import { decimalText } from './format.js';
import { maskedCut } from './masking.js';
import { lookupResponse, payinCreateResponse, payinLookupResponse, payoutCreateResponse, randomId, type Transaction } from './records.js';
import { errorCount } from './wire/errors.js';
import { DEFAULT_LEGACY_CURRENCY, EXPIRY_SECONDS } from './wire/settings.js';
import { hasPublishedSecret, type Merchant } from './merchants.js';
import type { State } from './state.js';

/** One request to a service endpoint, as the dispatcher hands it over. */
export interface Call {
  incoming: Incoming;
  method: string;
  /** The exact URL called (what the signature covers; `publicUrl`'s origin when one is set). */
  url: string;
  /** The raw path, without the query. */
  pathname: string;
  /** The raw query after `?`, or null when the URL has no `?`. */
  query: string | null;
  /** The sandbox's public base URL, no trailing slash. */
  base: string;
  /** Wall-clock arrival, ms: the signature's timestamp is judged against it. */
  arrivedAt: number;
  /** The fault this request matched, if any. */
  fault: Fault | undefined;
  /** Whether it came from outside this machine (another peer, through a proxy, under the public name). */
  fromOutside: boolean;
}

interface CreateRoute {
  kind: Transaction['kind'];
  api: Transaction['api'];
  schema: Schema;
  label: string;
}

/** Where the card-data endpoint lives: `card_proxy_url` is `<base>/card-proxy`. */
export const CARD_PROXY_PREFIX = '/card-proxy';

// What the sandbox adds to the table's create endpoints: the words its refusals use.
const CREATE_LABELS: Partial<Record<EndpointName, string>> = {
  createPayin: 'create-payin (v2)',
  createPayinLegacy: 'create-payin (legacy)',
  createPayout: 'create-payout',
};

const kindOf = (e: Endpoint): Transaction['kind'] => (e.resource === 'payouts' ? 'payout' : 'payin');

/** The endpoints of the table at a raw path (the card-data endpoint under CARD_PROXY_PREFIX). */
export function routesAt(pathname: string): readonly EndpointMatch[] {
  const known = fixedRoutes.get(pathname);
  if (known !== undefined) return known;
  const found = pathname.startsWith(`${CARD_PROXY_PREFIX}/`)
    ? endpointsAt(pathname.slice(CARD_PROXY_PREFIX.length), 'card_proxy_url')
    : endpointsAt(pathname);
  // A path of the table without parameters (a create's) is matched once: at most one per endpoint
  // is kept, and nothing a request chose (ids, tokens, unknown paths) is.
  if (found.length > 0 && found.every((r) => Object.keys(r.params).length === 0)) fixedRoutes.set(pathname, Object.freeze(found));
  return found;
}
const fixedRoutes = new Map<string, readonly EndpointMatch[]>();

/** Answers a call to a service endpoint (routed by @pay/schema's table); undefined when the path is none of them. */
export async function service(state: State, call: Call): Promise<Reply | undefined> {
  const routes = routesAt(call.pathname);
  if (routes.length === 0) return undefined;
  const route = routes.find((r) => r.endpoint.method === call.method);
  if (route === undefined)
    return methodNotAllowed(
      call.method,
      routes.map((r) => r.endpoint.method),
    );
  const { endpoint, params } = route;
  const name = endpoint.operation as EndpointName;
  const label = CREATE_LABELS[name];
  if (label !== undefined) {
    return createTransaction(state, call, {
      kind: kindOf(endpoint),
      api: endpoint.path.startsWith('/v1/') ? 'v1' : 'v2',
      schema: BODY_SCHEMAS[endpoint.request!],
      label,
    });
  }
  if (name === 'pushCard') return pushCard(state, call, params['token']!);
  if (takesQuery(endpoint)) return lookupByReference(state, call, kindOf(endpoint), await getBody(call));
  return lookupById(state, call, kindOf(endpoint), params['id']!, await getBody(call));
}

/** The 401 for a refused signature, with the likely mistake in `error.hint` when it can be told. */
function refused(
  state: State,
  call: Call,
  auth: Extract<AuthResult, { ok: false }>,
  body: Uint8Array,
  push?: { merchant: Transaction['merchantId']; payinId: string },
): Reply {
  const hint = diagnose(
    {
      reason: auth.reason,
      scheme: push === undefined ? 'x-signature' : 'x-simplified-signature',
      merchants: state.merchants,
      ...(push === undefined ? {} : { pushMerchant: state.merchants.get(push.merchant)!, payinId: push.payinId }),
      method: call.method,
      url: call.url,
      headers: call.incoming.headers,
      body,
      now: Math.floor(call.arrivedAt / 1000),
    },
    state.hints,
    // The hints' budget is real time: it bounds the CPU that forged requests can cost, not business time.
    Date.now(),
  );
  return fail(401, auth.reason, auth.message, hint === undefined ? {} : { hint });
}

/**
 * The refusal of a call from outside this machine signed with a published secret (the demo
 * merchant's): anyone can sign as that merchant, so it is the developer's alone.
 */
function published(call: Call, merchant: Merchant): Reply | undefined {
  if (!call.fromOutside || !hasPublishedSecret(merchant)) return undefined;
  return fail(
    403,
    'published_secret',
    `merchant ${merchant.id} signs with the published demo secret, which works only from this machine; start the sandbox with a merchant of your own (--merchant ID:SECRET) to call it from elsewhere`,
  );
}

/** A record answer, noted with its transaction for the request log. */
function record(tx: Transaction, body: unknown): Reply {
  const answer = json(200, body);
  answer.note = { transactionId: tx.id };
  return answer;
}

function fieldErrors(errors: readonly ValidationError[]) {
  return errors.map(({ path, message }) => ({ path, message }));
}

/** Reads and checks a POST body: its bytes, or the answer refusing it (413, 415). */
async function postBody(call: Call): Promise<Uint8Array | Reply> {
  const body = await call.incoming.read();
  if (body === undefined) return fail(413, 'payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  if (!isJsonContentType(readHeader(call.incoming.headers, 'content-type') ?? null)) {
    return fail(415, 'unsupported_media_type', 'header content-type must be application/json (charset, if given, utf-8)');
  }
  return body;
}

/** A GET's body: never signed, but a signature diagnosis may find it was (bounded by the read limit). */
async function getBody(call: Call): Promise<Uint8Array> {
  return (await call.incoming.read()) ?? new Uint8Array(0);
}

function noQuery(call: Call): Reply | undefined {
  if (call.query === null) return undefined;
  return invalid('this endpoint takes no query string', [
    { path: '', message: `unexpected query string "?${maskedCut(call.query, 100)}"` },
  ]);
}

type Schema = Parameters<typeof validate>[0];
/** The value a schema accepts, typed. */
type Valid<S extends Schema> = Extract<ReturnType<typeof validate<S>>, { ok: true }>['value'];

/**
 * What every authenticated POST checks next, in this order: no query string, a JSON body, and the
 * body against its request schema (a 400 listing every field path).
 */
function checkedBody<S extends Schema>(state: State, call: Call, body: Uint8Array, schema: S, label: string): Valid<S> | Reply {
  const queried = noQuery(call);
  if (queried) return queried;
  const parsed = parseJson(body);
  if (!parsed.ok) return fail(400, 'invalid_json', parsed.message);
  call.incoming.parsed = parsed;
  const checked = validate(schema, parsed.value);
  if (checked.ok) return checked.value;
  // A plain-http webhook_url on a host the sandbox was told is on a private network (docker-compose)
  // is the one thing the sandbox accepts beyond the schema.
  const webhookUrl =
    typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as { webhook_url?: unknown }).webhook_url : undefined;
  const errors = checked.errors.filter(
    (e) => !(e.path === 'webhook_url' && typeof webhookUrl === 'string' && state.names.acceptsWebhookUrl(webhookUrl)),
  );
  if (errors.length === 0) return parsed.value as Valid<S>;
  const n = errorCount(errors); // a list cut at 100 ends with "and N more errors", which counts N
  return invalid(`the body does not match the ${label} schema: ${n} error${n === 1 ? '' : 's'}`, fieldErrors(errors));
}

async function createTransaction(state: State, call: Call, route: CreateRoute): Promise<Reply> {
  const body = await postBody(call);
  if (isReply(body)) return body;
  const auth = authenticate(state.merchants, {
    method: 'POST',
    url: call.url,
    headers: call.incoming.headers,
    body,
    now: Math.floor(call.arrivedAt / 1000),
    toleranceSeconds: state.toleranceSeconds,
  });
  if (!auth.ok) return refused(state, call, auth, body);
  const outsider = published(call, auth.merchant);
  if (outsider) return outsider;
  const checked = checkedBody(state, call, body, route.schema, route.label);
  if (isReply(checked)) return checked;
  const input = checked as CreateInput;
  const problem =
    input.webhook_url === undefined ? undefined : state.names.webhookProblem(input.webhook_url, state.ports, call.fromOutside);
  if (problem !== undefined) {
    return invalid('webhook_url is not an address the sandbox sends to', [
      {
        path: 'webhook_url',
        message: `is ${problem}: the sandbox never sends webhooks there (one could drive its admin API or another service on this machine); give your own receiver's address`,
      },
    ]);
  }
  const merchant = auth.merchant;
  const referenceId = input.reference_id ?? null;
  if (referenceId !== null && state.uniqueReferences) {
    const existing = state.references.get(state.referenceKey(merchant.id, route.kind, referenceId));
    if (existing !== undefined) {
      return fail(409, 'duplicate_reference_id', `a ${route.kind} with this reference_id already exists: ${existing}`, { id: existing });
    }
  }
  const lagMs = call.fault?.kind === 'lookup_lag' ? call.fault.ms! : 0;
  const tx = newTransaction(state, { base: call.base, kind: route.kind, api: route.api, merchantId: merchant.id, input, lagMs });
  state.commit(tx, 'create');
  return record(tx, route.kind === 'payin' ? payinCreateResponse(tx) : payoutCreateResponse(tx));
}

/** The fields of the three create bodies the sandbox keeps (all checked by the schema already). */
export interface CreateInput {
  reference_id?: string;
  payment: { amount: number | string; currency?: string };
  method?: string;
  language?: string;
  webhook_url?: string;
  redirect_urls?: { success?: string; fail?: string; in_progress?: string };
  customer: { first_name: string; last_name: string; email: string };
}

/** What a new transaction is made of. */
export interface NewTransaction {
  /** The sandbox's base URL, for next_action. */
  base: string;
  kind: Transaction['kind'];
  api: Transaction['api'];
  merchantId: string;
  input: CreateInput;
  /** How long lookups miss it (the `lookup_lag` fault), in ms of the sandbox's clock (wall time by default). */
  lagMs: number;
}

/** A transaction as a create makes it: `new`, dated now on the schedule clock. */
export function newTransaction(state: State, { base, kind, api, merchantId, input, lagMs }: NewTransaction): Transaction {
  const now = state.schedule.now();
  const id = randomId(kind === 'payin' ? 'pi_' : 'po_');
  const card = kind === 'payin' && input.method === 'card';
  const cardToken = card ? randomId('ct_', 32) : null;
  const digits = decimalText(input.payment.amount);
  return {
    kind,
    id,
    merchantId,
    api,
    referenceId: input.reference_id ?? null,
    status: FIRST_STATUS,
    amount: Number(digits),
    amountDigits: digits,
    currency: input.payment.currency ?? DEFAULT_LEGACY_CURRENCY,
    method: input.method ?? null,
    language: input.language ?? null,
    webhookUrl: input.webhook_url ?? null,
    redirectUrls: redirectUrlsOf(input.redirect_urls),
    createdAt: now,
    updatedAt: now,
    expiresAt: now + EXPIRY_SECONDS * 1000,
    errorCode: null,
    errorMessage: null,
    fee: null,
    nextAction: cardToken
      ? { type: 'card_push', url: endpointUrl(`${base}${CARD_PROXY_PREFIX}`, ENDPOINTS.pushCard, { token: cardToken }, (v) => v) }
      : { type: 'redirect', url: `${base}/_sandbox/pay/${id}` },
    cardToken,
    cardTokenSpent: false,
    cardLast4: null,
    hiddenUntil: lagMs > 0 ? state.schedule.clock.now() + lagMs : 0,
    customer: `${input.customer.first_name} ${input.customer.last_name} <${input.customer.email}>`,
    history: [],
  };
}

/** A create's redirect URLs, copied field by field: nothing else from the body (a `__proto__` key, say) is ever kept. */
function redirectUrlsOf(given: CreateInput['redirect_urls']): Transaction['redirectUrls'] {
  const kept: Transaction['redirectUrls'] = {};
  if (given?.success !== undefined) kept.success = given.success;
  if (given?.fail !== undefined) kept.fail = given.fail;
  if (given?.in_progress !== undefined) kept.in_progress = given.in_progress;
  return kept;
}

function authenticateLookup(state: State, call: Call): AuthResult {
  return authenticate(state.merchants, {
    method: 'GET',
    url: call.url,
    headers: call.incoming.headers,
    body: new Uint8Array(0),
    now: Math.floor(call.arrivedAt / 1000),
    toleranceSeconds: state.toleranceSeconds,
  });
}

/** The record if it exists for this merchant and kind and is visible (not lagging). */
function visible(state: State, id: string | undefined, merchantId: string, kind: Transaction['kind']): Transaction | undefined {
  const tx = id === undefined ? undefined : state.transactions.get(id);
  if (tx === undefined || tx.merchantId !== merchantId || tx.kind !== kind || state.schedule.clock.now() < tx.hiddenUntil) return undefined;
  return tx;
}

function lookupById(state: State, call: Call, kind: Transaction['kind'], id: string, body: Uint8Array): Reply {
  const auth = authenticateLookup(state, call);
  if (!auth.ok) return refused(state, call, auth, body);
  const outsider = published(call, auth.merchant);
  if (outsider) return outsider;
  const queried = noQuery(call);
  if (queried) return queried;
  const tx = visible(state, id, auth.merchant.id, kind);
  if (tx === undefined) return fail(404, 'not_found', `no ${kind} with this id`);
  return record(tx, lookupResponse(tx));
}

function lookupByReference(state: State, call: Call, kind: Transaction['kind'], body: Uint8Array): Reply {
  const auth = authenticateLookup(state, call);
  if (!auth.ok) return refused(state, call, auth, body);
  const outsider = published(call, auth.merchant);
  if (outsider) return outsider;
  const reference = referenceFromQuery(call.query);
  if (!reference.ok) return invalid('the query must be ?reference_id=<your id>', reference.errors);
  const key = state.referenceKey(auth.merchant.id, kind, reference.value);
  const tx = visible(state, state.references.get(key), auth.merchant.id, kind);
  if (tx === undefined) return fail(404, 'not_found', `no ${kind} with this reference_id`);
  return record(tx, lookupResponse(tx));
}

/**
 * `reference_id` from a raw query, decoded as browsers and servers decode queries
 * (application/x-www-form-urlencoded: `%XX` escapes, and `+` for a space).
 */
export function referenceFromQuery(
  query: string | null,
): { ok: true; value: string } | { ok: false; errors: { path: string; message: string }[] } {
  const params = new URLSearchParams(query ?? '');
  const errors: { path: string; message: string }[] = [];
  for (const key of new Set(params.keys())) {
    if (key !== 'reference_id') errors.push({ path: maskedCut(key, 64), message: 'is not an allowed query parameter' });
  }
  const values = params.getAll('reference_id');
  if (values.length === 0) errors.push({ path: 'reference_id', message: 'query parameter is required' });
  else if (values.length > 1) errors.push({ path: 'reference_id', message: 'must be given once' });
  else if ([...values[0]!].length < 1 || [...values[0]!].length > 64)
    errors.push({ path: 'reference_id', message: 'must be 1 to 64 characters' });
  return errors.length === 0 ? { ok: true, value: values[0]! } : { ok: false, errors };
}

async function pushCard(state: State, call: Call, token: string): Promise<Reply> {
  const body = await postBody(call);
  if (isReply(body)) return body;
  const payinId = state.tokens.get(token);
  const payin = payinId === undefined ? undefined : state.transactions.get(payinId);
  if (payin === undefined) return fail(404, 'not_found', 'no card push address with this token');
  const auth = authenticatePush({
    merchant: state.merchants.get(payin.merchantId)!,
    payinId: payin.id,
    headers: call.incoming.headers,
    now: Math.floor(call.arrivedAt / 1000),
    toleranceSeconds: state.toleranceSeconds,
  });
  if (!auth.ok) return refused(state, call, auth, body, { merchant: payin.merchantId, payinId: payin.id });
  const outsider = published(call, auth.merchant);
  if (outsider) return outsider;
  const push = checkedBody(state, call, body, CardPushRequest, 'card push');
  if (isReply(push)) return push;
  if (push.payin_id !== payin.id) {
    return invalid('payin_id is not the payin of this push address', [
      { path: 'payin_id', message: 'must be the id of the payin this push address was issued for' },
    ]);
  }
  if (payin.cardTokenSpent) return fail(409, 'token_used', 'this card push address has already been used');
  if (payin.status !== FIRST_STATUS) return fail(409, 'invalid_state', `the payin is ${payin.status}, not ${FIRST_STATUS}`);
  const outcome = cardOutcome(push.card, state.schedule.now());
  payin.cardTokenSpent = true;
  payin.cardLast4 = lastFour(push.card.pan);
  state.transition(
    payin,
    outcome.status,
    'card_push',
    outcome.error_code === null ? undefined : { code: outcome.error_code, message: outcome.error_message! },
  );
  return record(payin, payinLookupResponse(payin));
}
