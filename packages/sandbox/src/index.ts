/**
 * `@pay/sandbox`: a local, stateful stand-in for the payments service. Every endpoint checked as
 * strictly as the real one (exact-URL and raw-body signatures, the 60 s tolerance, the strict
 * request schemas), transactions that move through their statuses, signed webhooks on the real
 * retry schedule with a clock tests can drive, fault injection, a dashboard and a hosted payment
 * page. A web-standard Fetch core, and `startSandbox` for Node.
 * @module
 */
export { MAX_ADVANCE_SECONDS } from './admin.js';
// Everything of `@pay/sandbox/admin`: the admin client and the types its API sends and takes.
export * from './admin-client/index.js';
export type { CardOutcome, TestCard } from './cards.js';
export { TEST_CARDS } from './cards.js';
export { HINT_BODY_LIMIT, HINTS_PER_SECOND } from './diagnose.js';
export { MAX_FAULT_COUNT, MAX_FAULT_MS } from './faults.js';
export { MAX_BODY_BYTES } from './http.js';
export type { Merchant } from './merchants.js';
export { DEMO_MERCHANT, parseMerchant } from './merchants.js';
export type { RunningSandbox } from './server-node.js';
export type { StartSandboxOptions } from './options.js';
export { startSandbox } from './server-node.js';
export { STATE_SAVE_INTERVAL_MS } from './state-file.js';
export { isSandboxPortInUseError, SandboxPortInUseError } from './port-in-use.js';
export { DEFAULT_LEGACY_CURRENCY, EXPIRY_SECONDS, FEE_PERCENT, PAYOUT_EXECUTION_SECONDS } from './wire/settings.js';
export { MAX_LOGGED_REQUESTS } from './request-log.js';
export type { RequestContext, Sandbox } from './core.js';
export { createSandbox, DROP_CONNECTION, shouldDropConnection } from './core.js';
export { MAX_TRANSACTIONS, type SandboxOptions } from './options.js';
export type { Seed, SeedTransaction } from './seed.js';
export { parseSeed } from './seed.js';
export { DELIVERY_TIMEOUT_MS, MAX_ATTEMPTS, MAX_ATTEMPTS_KEPT, RETRY_DELAYS_MS } from './deliveries.js';
