/**
 * `@pay/sandbox/admin`: the admin client of a sandbox, and the types its admin API sends and takes,
 * without the sandbox itself. It loads neither the server nor `@pay/sign`: a test tool or script
 * that only drives a running sandbox (moves a transaction, advances the clock, reads the delivery
 * log) starts in a few files. The sandbox's own timings and fee are here too, for a page or test that
 * shows or waits for them, and how its pages write a time (`formatTime`).
 * @module
 */
export { ADMIN_TIMEOUT_MS, sandboxAdmin } from './client.js';
export type { SandboxAdmin, SandboxAdminOptions, SandboxAdminTarget, SandboxFetcher } from './client.js';
export { isSandboxAdminError, SandboxAdminError } from './error.js';
export type { SandboxAdminErrorInit } from './error.js';
export type { DeliveryAttempt } from '../wire/deliveries.js';
export type { ErrorBody, FieldError } from '../wire/errors.js';
export { FAULT_KINDS } from '../wire/faults.js';
export type { Fault, FaultInput, FaultKind } from '../wire/faults.js';
export type { LoggedRequest } from '../wire/requests.js';
export { DEFAULT_LEGACY_CURRENCY, EXPIRY_SECONDS, FEE_PERCENT, PAYOUT_EXECUTION_SECONDS } from '../wire/settings.js';
// How the sandbox's pages write a time, for another program's pages to write times the same way.
export { formatTime } from '../format-time.js';
export type { SandboxSnapshot, SnapshotAttempt, SnapshotHistoryEntry, SnapshotTransaction } from '../wire/snapshot.js';
export type {
  TimelineEntry,
  TimelineRequest,
  TimelineResend,
  TimelineStatus,
  TimelineWebhook,
  TransactionTimeline,
} from '../wire/timeline.js';
export { CAUSES } from '../wire/transactions.js';
export type {
  AdminStatus,
  Cause,
  LookupOf,
  SandboxTransaction,
  SetStatusOptions,
  StatusError,
  TransactionKind,
} from '../wire/transactions.js';
