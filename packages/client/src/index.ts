/**
 * `@pay/client`: the merchant's client for the payments service. Payins, payouts, lookups and
 * card pushes; the exact bytes signed are the bytes sent; typed results and typed errors; creates
 * that happen exactly once whatever the network does; OpenTelemetry spans and metrics through the
 * providers the application registered, when it has `@opentelemetry/api`.
 * @module
 */
export type { Card, PushTarget } from './card-push.js';
export type {
  CallOptions,
  Client,
  CreatedPayin,
  CreatedPayout,
  Payin,
  PayinCalls,
  Payout,
  PayoutCalls,
  PayoutCreateOptions,
} from './client.js';
export { createClient } from './client.js';
export type { CreateResult } from './create.js';
export type { Operation, PayErrorKind, RawResponse } from './errors.js';
export {
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  OutcomeUnknownError,
  PayError,
  TimeoutError,
  isPayError,
} from './errors.js';
export type { Hooks, ReconcileEvent, RequestEvent, ResponseEvent, RetryEvent } from './hooks.js';
export type { Result } from './lookup.js';
export type { ClientLimits, ClientOptions } from './options.js';
export type { Dated } from './response.js';
