/**
 * The merchant's webhook receiver: verify the exact raw body against the exact URL the service
 * signed, read the payload, skip duplicate deliveries, and answer so the service retries only
 * what failed. One core pipeline; the Fetch adapter here, Node http, Express and Fastify in
 * subpaths, and a Redis delivery store in `@pay/webhook/redis`.
 * @module
 */
export { createWebhookHandler, verifyWebhookRequest } from './adapters/fetch.js';
export { refusalStatus } from './core.js';
export type { ClaimResult, DeliveryStore } from './dedupe.js';
export { DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS, deliveryKey, memoryStore } from './dedupe.js';
export { WebhookVerificationError, verifyWebhookOrThrow } from './error.js';
export type { ProxyHeaders, RefusalReason, WebhookFailure, WebhookHandlerOptions } from './options.js';
export type { TestWebhook, TestWebhookOptions } from './test-webhook.js';
export { createTestWebhook } from './test-webhook.js';
export type { VerifyWebhookOptions, WebhookConfig, WebhookEvent, WebhookFailureReason, WebhookRefusal, WebhookResult } from './verify.js';
export { verifyWebhook } from './verify.js';
