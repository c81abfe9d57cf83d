/**
 * The merchant's webhook receiver: verify the exact raw body against the exact URL the service
 * signed, read the payload, skip duplicate deliveries, and answer so the service retries only
 * what failed. Web-standard core; adapters for Node http, Express and Fastify in subpaths.
 * @module
 */
export type { ClaimResult, DeliveryStore } from './dedupe.js';
export { DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS, deliveryKey, memoryStore } from './dedupe.js';
export { WebhookVerificationError, verifyWebhookOrThrow } from './error.js';
export { createWebhookHandler, verifyWebhookRequest } from './fetch.js';
export type { ProxyHeaders, WebhookFailure, WebhookHandlerOptions } from './process.js';
export type { TestWebhook, TestWebhookOptions } from './test-webhook.js';
export { createTestWebhook } from './test-webhook.js';
export type { VerifyWebhookOptions, WebhookConfig, WebhookEvent, WebhookFailureReason, WebhookResult } from './verify.js';
export { verifyWebhook } from './verify.js';
