// createClient: the eight endpoints of the interface, each checked before anything is sent,
// signed over the exact URL and bytes sent, and answered with a typed result or a typed error.
import {
  BODY_SCHEMAS,
  CardPushRequest,
  type CreatePayinRequest,
  type CreatePayinRequestV1,
  CreatePayoutRequest,
  CreatePayoutRequestPaymentPage,
  ENDPOINTS,
  type PayinCreateResponse,
  type PayinLookupResponse,
  type PayoutCreateResponse,
  type PayoutLookupResponse,
  ReferenceId,
  validate,
  type Endpoint,
} from '@pay/schema';
import type { Card, PushTarget } from './card-push.js';
import { pushAddress, pushCard } from './card-push.js';
import type { CreateResult } from './create.js';
import type { CreateSpec } from './create-run.js';
import { createOnce } from './create.js';
import { checkCreate, type CreateSchema } from './create-check.js';
import type { Operation } from './errors.js';
import { InvalidRequestError } from './errors.js';
import type { Result } from './lookup.js';
import { lookup } from './lookup.js';
import type { ClientLimits, ClientOptions, Settings } from './options.js';
import { checkOptions, limitsOf } from './options.js';
import type { Dated } from './response.js';
import { createSigner, type Signer } from './signer.js';
import type { Call } from './call-types.js';
import { startCall } from './call.js';
import { observeCall } from './telemetry.js';
import type { Resource } from './urls.js';
import { byReference, componentProblem, urlOf } from './urls.js';

/** A payin as the lookups return it, datetimes as `Date`s. */
export type Payin = Dated<PayinLookupResponse>;
/** A payin as the create calls return it (with `next_action`), datetimes as `Date`s. */
export type CreatedPayin = Dated<PayinCreateResponse>;
/** A payout as the lookups return it, datetimes as `Date`s. */
export type Payout = Dated<PayoutLookupResponse>;
/** A payout as create-payout returns it (with `next_action`), datetimes as `Date`s. */
export type CreatedPayout = Dated<PayoutCreateResponse>;

/** Options of every call. */
export interface CallOptions {
  /**
   * Aborts the call: it rejects with the signal's reason, except a create aborted once it may have
   * been created, which ends in OutcomeUnknownError with its reference_id.
   */
  signal?: AbortSignal | undefined;
}

/** Options of `payouts.create`. */
export interface PayoutCreateOptions extends CallOptions {
  /**
   * True for the payment-page integration, where `redirect_urls.success` and `.fail` are
   * required; false or absent for integrations without the payment page, where they are optional.
   */
  paymentPage?: boolean | undefined;
}

/** Payin calls. */
export interface PayinCalls {
  /** Creates a payin (`POST /v2/merchants/payins/`), exactly once; see {@link CreateResult}. */
  create(body: CreatePayinRequest, options?: CallOptions): Promise<CreateResult<CreatedPayin, Payin>>;
  /**
   * Checks a payin's body as `create` does before sending, and sends nothing: throws the
   * InvalidRequestError `create` would throw (operation `payins.create`), naming every field
   * refused. For a create kept to be sent later (the journal's `enqueue`): refused when kept, not
   * when sent.
   */
  check(body: CreatePayinRequest): void;
  /** Creates a payin through the legacy endpoint (`POST /v1/merchants/payins/`), exactly once. */
  createLegacy(body: CreatePayinRequestV1, options?: CallOptions): Promise<CreateResult<CreatedPayin, Payin>>;
  /** Looks a payin up by the service's id (`GET /v2/merchants/payins/<id>`). */
  get(id: string, options?: CallOptions): Promise<Result<Payin>>;
  /** Looks a payin up by the merchant's reference_id (`GET /v2/merchants/payins/?reference_id=...`). */
  getByReference(referenceId: string, options?: CallOptions): Promise<Result<Payin>>;
  /**
   * Pushes a payin's card data to its push address, signed with `x-simplified-signature`, and
   * resolves once the service has accepted it (a 2xx). `data` is the payin as the answer shows
   * it, its `status` the card's outcome so far (`executed`, `failed`, or `new` while it is being
   * processed); or `null` when the answer is not this payin's record (no body, not JSON, another
   * shape): the interface does not show the push answer, so that is no failure. The card was
   * accepted; its outcome comes by webhook or `payins.get`. Never take `null` for a decline and
   * ask for the card again: that could charge the customer twice. A push whose answer is lost is
   * not repeated (the token is single-use): the call throws, and a lookup tells where it stands.
   */
  pushCard(target: PushTarget, card: Card, options?: CallOptions): Promise<Result<Payin | null>>;
}

/** Payout calls. */
export interface PayoutCalls {
  /** Creates a payout (`POST /v2/merchants/payouts/`), exactly once; see {@link CreateResult}. */
  create(
    body: CreatePayoutRequest,
    options?: PayoutCreateOptions & { paymentPage?: false | undefined },
  ): Promise<CreateResult<CreatedPayout, Payout>>;
  /** Creates a payout for the payment-page integration: `redirect_urls.success` and `.fail` required. */
  create(
    body: CreatePayoutRequestPaymentPage,
    options: PayoutCreateOptions & { paymentPage: true },
  ): Promise<CreateResult<CreatedPayout, Payout>>;
  /**
   * Checks a payout's body as `create` does before sending (`paymentPage` as there), and sends
   * nothing: throws the InvalidRequestError `create` would throw (operation `payouts.create`).
   */
  check(body: CreatePayoutRequest | CreatePayoutRequestPaymentPage, options?: { paymentPage?: boolean | undefined }): void;
  /** Looks a payout up by the service's id (`GET /v2/merchants/payouts/<id>`). */
  get(id: string, options?: CallOptions): Promise<Result<Payout>>;
  /** Looks a payout up by the merchant's reference_id (`GET /v2/merchants/payouts/?reference_id=...`). */
  getByReference(referenceId: string, options?: CallOptions): Promise<Result<Payout>>;
}

/** A client for one merchant. Holds no secret where it could be read or printed. */
export interface Client {
  readonly payins: PayinCalls;
  readonly payouts: PayoutCalls;
  /** The time limits this client resolved from its options (read-only; defaults applied). */
  readonly limits: ClientLimits;
}

function signalOf(options: CallOptions | undefined, operation: Operation): AbortSignal | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') throw new TypeError(`${operation}: options must be an object`);
  return options.signal;
}

/**
 * Creates a client for the payments service. The options are checked here: an unusable one throws
 * a TypeError naming it. Its calls are recorded through OpenTelemetry whenever the application has
 * registered a tracer or meter provider with `@opentelemetry/api` (an optional peer dependency):
 * a span per call, one per HTTP request, retries and reconciliation steps as events, and request
 * durations, retries and reconciliations as metrics (the README lists them).
 *
 * @example
 * ```ts
 * const pay = createClient({ baseUrl: 'https://api.pay.example', merchantId: 'm_1', secret: process.env.PAY_SECRET! });
 * const { data: payin } = await pay.payins.getByReference('order-1001');
 * ```
 */
export function createClient(options: ClientOptions): Client {
  const { settings, secret } = checkOptions(options);
  const signer = createSigner(settings.merchantId, secret);
  // Creates in flight, by resource and reference_id: a second create of the same body joins the
  // first instead of racing it; a different body with the same reference_id is refused.
  const inFlight = new Map<string, { json: string; promise: Promise<unknown> }>();

  /** A create through `endpoint` (its request checked against `schema`, by default the table's). */
  async function create<C, L>(
    operation: Operation,
    endpoint: Endpoint,
    body: unknown,
    callOptions: CallOptions | undefined,
    schema: CreateSchema = BODY_SCHEMAS[endpoint.request!],
  ): Promise<CreateResult<C, L>> {
    const resource = endpoint.resource as Resource;
    const lookupEndpoint = byReference(resource);
    const signal = signalOf(callOptions, operation);
    const { full, referenceId: ref, json } = checkCreate(operation, body, schema, settings.allowHttpHosts);
    const payment = (full['payment'] ?? {}) as CreateSpec['payment'];
    const spec: CreateSpec = {
      endpoint,
      url: urlOf(settings.baseUrl, endpoint),
      lookupEndpoint,
      lookupUrl: urlOf(settings.baseUrl, lookupEndpoint, { reference_id: ref }),
      json,
      referenceId: ref,
      payment: { amount: payment.amount, currency: payment.currency },
    };
    const key = `${resource}\u0000${ref}`;
    const running = inFlight.get(key);
    if (running !== undefined) {
      if (running.json === json) return running.promise as Promise<CreateResult<C, L>>;
      throw new InvalidRequestError(operation, [
        { path: 'reference_id', message: 'is already used by a create in progress with a different body' },
      ]);
    }
    const call = startCall(settings, operation, signal, ref);
    const promise = callOnClock(call, endpoint, spec.url, () => createOnce(call, signer, spec)).finally(() =>
      inFlight.delete(key),
    ) as unknown as Promise<CreateResult<C, L>>;
    inFlight.set(key, { json, promise });
    return promise;
  }

  async function get<T>(operation: Operation, endpoint: Endpoint, id: unknown, callOptions: CallOptions | undefined) {
    const call = startCall(settings, operation, signalOf(callOptions, operation));
    const problem = componentProblem(id, true);
    if (problem !== undefined) throw new InvalidRequestError(operation, [{ path: 'id', message: problem }]);
    const url = urlOf(settings.baseUrl, endpoint, { id: id as string });
    return (await callOnClock(call, endpoint, url, () => lookup(call, signer, endpoint, url))) as Result<T>;
  }

  async function getByReference<T>(operation: Operation, endpoint: Endpoint, referenceId: unknown, callOptions: CallOptions | undefined) {
    const call = startCall(
      settings,
      operation,
      signalOf(callOptions, operation),
      typeof referenceId === 'string' ? referenceId : undefined,
    );
    const problem = referenceProblem(referenceId);
    if (problem !== undefined) throw new InvalidRequestError(operation, [{ path: 'reference_id', message: problem }]);
    const url = urlOf(settings.baseUrl, endpoint, { reference_id: referenceId as string });
    return (await callOnClock(call, endpoint, url, () => lookup(call, signer, endpoint, url))) as Result<T>;
  }

  return Object.freeze({
    limits: limitsOf(settings),
    payins: Object.freeze({
      create: (body: CreatePayinRequest, o?: CallOptions) => create<CreatedPayin, Payin>('payins.create', ENDPOINTS.createPayin, body, o),
      check: (body: CreatePayinRequest) => {
        checkCreate('payins.create', body, BODY_SCHEMAS[ENDPOINTS.createPayin.request!], settings.allowHttpHosts);
      },
      createLegacy: (body: CreatePayinRequestV1, o?: CallOptions) =>
        create<CreatedPayin, Payin>('payins.createLegacy', ENDPOINTS.createPayinLegacy, body, o),
      get: (id: string, o?: CallOptions) => get<Payin>('payins.get', ENDPOINTS.getPayin, id, o),
      getByReference: (referenceId: string, o?: CallOptions) =>
        getByReference<Payin>('payins.getByReference', ENDPOINTS.getPayinByReference, referenceId, o),
      pushCard: (target: PushTarget, card: Card, o?: CallOptions) => push(settings, signer, target, card, o),
    }),
    payouts: Object.freeze({
      create: (body: CreatePayoutRequest | CreatePayoutRequestPaymentPage, o?: PayoutCreateOptions) =>
        create<CreatedPayout, Payout>('payouts.create', ENDPOINTS.createPayout, body, o, payoutSchema(o)),
      check: (body: CreatePayoutRequest | CreatePayoutRequestPaymentPage, o?: { paymentPage?: boolean | undefined }) => {
        checkCreate('payouts.create', body, payoutSchema(o), settings.allowHttpHosts);
      },
      get: (id: string, o?: CallOptions) => get<Payout>('payouts.get', ENDPOINTS.getPayout, id, o),
      getByReference: (referenceId: string, o?: CallOptions) =>
        getByReference<Payout>('payouts.getByReference', ENDPOINTS.getPayoutByReference, referenceId, o),
    }) as PayoutCalls,
  });
}

/** The schema of a payout's body: to the payment page (`redirect_urls` required) or not. */
const payoutSchema = (o: { paymentPage?: boolean | undefined } | undefined): CreateSchema =>
  o?.paymentPage === true ? CreatePayoutRequestPaymentPage : CreatePayoutRequest;

/**
 * Runs a call as tracked work on the client's clock (a test clock does not move while it is busy;
 * its waits between attempts count as rest), and recorded for telemetry.
 */
function callOnClock<T>(call: Call, endpoint: Endpoint, url: string, run: () => Promise<T>): Promise<T> {
  return call.settings.clock.track(`client.${call.operation}`, () => observeCall(call, endpoint, url, run));
}

/** Why a value cannot be a reference_id to look up, or undefined. */
function referenceProblem(value: unknown): string | undefined {
  const problem = componentProblem(value, false);
  if (problem !== undefined) return problem;
  const result = validate(ReferenceId, value);
  return result.ok ? undefined : result.errors[0]?.message;
}

async function push(settings: Settings, signer: Signer, target: PushTarget, card: Card, callOptions: CallOptions | undefined) {
  const operation: Operation = 'payins.pushCard';
  const call = startCall(settings, operation, signalOf(callOptions, operation));
  const address = pushAddress(settings, target);
  const payinId = (target as { payinId?: unknown } | null)?.payinId;
  const checked = validate(CardPushRequest, { payin_id: payinId, card });
  const errors = [...(address instanceof InvalidRequestError ? address.errors : []), ...(checked.ok ? [] : checked.errors)];
  if (errors.length > 0 || address instanceof InvalidRequestError) throw new InvalidRequestError(operation, errors);
  return callOnClock(call, ENDPOINTS.pushCard, address, () => pushCard(call, signer, address, payinId as string, card));
}
