/**
 * The merchant's webhook receiver: verify the exact raw body against the exact URL the service
 * signed, read the payload, skip duplicate deliveries, and answer so the service retries only
 * what failed. This entry holds what every runtime shares: verifying by hand, the status policy,
 * delivery stores and test webhooks. The handlers are one per runtime or framework, each
 * `webhookHandler(options)` from its subpath: `@pay/webhook/fetch`, `/node`, `/express` and
 * `/fastify`; a Redis delivery store is in `@pay/webhook/redis`. Every handler records the webhooks
 * it receives through OpenTelemetry when the application has registered providers with
 * `@opentelemetry/api`.
 * @module
 */
export type { ClaimResult, DeliveryStore } from './deliveries.js';
export { DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS, deliveryKey } from './deliveries.js';
export { WebhookVerificationError, verifyWebhookOrThrow } from './verify-or-throw.js';
export { verifyWebhookRequest } from './fetch/verify-request.js';
export { type MemoryStoreOptions, memoryStore } from './memory-store.js';
export type { ProxyHeaders, WebhookHandlerOptions } from './options.js';
export type { WebhookEvent } from './parse-payload.js';
export type { RefusalReason, WebhookFailure, WebhookFailureReason, WebhookRefusal } from './refusals.js';
export { refusalStatus } from './refusals.js';
export type { TestWebhook, TestWebhookOptions } from './test-webhook.js';
export { createTestWebhook } from './test-webhook.js';
export type { VerifyWebhookOptions, WebhookConfig, WebhookResult } from './verify.js';
export { verifyWebhook } from './verify.js';
