// The options of a webhook handler, checked once when the handler is made, so an unusable
// configuration fails at startup rather than on the first webhook hours later. Messages name the
// option and what is wrong with it, never its value: a URL can carry a token, and a secret must
// never be shown.
import { urlProblem } from '@pay/sign';
import { type Clock, clockOption } from '@pay/clock';
import { fail, nonEmpty, positiveInteger } from './checks.js';
import type { DeliveryStore } from './deliveries.js';
import { DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS } from './deliveries.js';
import { memoryStore } from './memory-store.js';
import type { WebhookEvent } from './parse-payload.js';
import type { WebhookFailure } from './refusals.js';
import type { WebhookConfig } from './verify.js';

/**
 * Headers a trusted proxy sets with the public scheme and host, e.g.
 * `{ proto: 'x-forwarded-proto', host: 'x-forwarded-host' }`.
 */
export interface ProxyHeaders {
  proto: string;
  host: string;
}

/** Options of every webhook handler (`webhookHandler` of `@pay/webhook/fetch`, `/node`, `/express` and `/fastify`). */
export interface WebhookHandlerOptions extends Omit<WebhookConfig, 'url'> {
  /**
   * The exact address the service signs: the `webhook_url` given at creation, or the static
   * webhook address. Give this, or `trustProxyHeaders`.
   */
  url?: string | undefined;
  /**
   * Opt-in, instead of `url`: rebuild the signed address from these request headers and the
   * request's path and query. Only safe when your proxy always sets them, overwriting whatever
   * the caller sent; the first value of a list is used.
   */
  trustProxyHeaders?: ProxyHeaders | undefined;
  /**
   * Called once per status change with the verified event. Return (or resolve) when it is
   * processed: the service then gets a 2xx. Throw (or reject) and it gets a 500 and retries.
   * When the application records OpenTelemetry traces, it runs inside the webhook's span, so the
   * spans it makes are children of it.
   */
  handler: (event: WebhookEvent) => unknown;
  /**
   * Where processed deliveries are remembered, keyed on (id, status): a duplicate gets a 2xx
   * without calling the handler again. Default: in this process's memory. Give a shared store
   * (`redisStore` from `@pay/webhook/redis`) when several instances receive webhooks; `false`
   * turns duplicate handling off.
   */
  store?: DeliveryStore | false | undefined;
  /** How long a processed delivery is remembered, ms (default 3 h, past the whole retry schedule). */
  deliveryTtlMs?: number | undefined;
  /**
   * How long a delivery being processed stays claimed, ms (default 5 min): if the process dies
   * mid-handler, the service's attempt after that is processed. Keep it above your handler's
   * longest run.
   */
  processingLeaseMs?: number | undefined;
  /** Largest body read, in bytes (default 1 MiB); larger is answered 413. */
  maxBodyBytes?: number | undefined;
  /**
   * Told of every refused webhook and handler failure, for logs: the reason, a message and, for a
   * signature that nearly matched, a `hint` (worked out only when read). Default: one
   * `console.warn` line. Never sent to the caller; if it throws, the answer is unchanged.
   */
  onRefused?: ((failure: WebhookFailure) => void) | undefined;
}

/** The largest webhook body read by default: payloads are a few hundred bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Handler options, checked and with every default filled in. */
export interface CheckedOptions {
  merchantId: string;
  secrets: readonly string[];
  url: string | undefined;
  trustProxyHeaders: ProxyHeaders | undefined;
  toleranceSeconds: number;
  clock: Clock;
  handler: (event: WebhookEvent) => unknown;
  store: DeliveryStore | undefined;
  deliveryTtlMs: number;
  processingLeaseMs: number;
  maxBodyBytes: number;
  onRefused: ((failure: WebhookFailure) => void) | undefined;
}

// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks the parts of a {@link WebhookConfig} every verification needs: merchant id, secret(s),
 * tolerance and clock. The URL is checked by the caller, which may take it from a trusted proxy.
 *
 * @throws TypeError naming the option that is unusable, never with its value.
 */
function checkConfig(config: Omit<WebhookConfig, 'url'>): Pick<CheckedOptions, 'merchantId' | 'secrets' | 'toleranceSeconds' | 'clock'> {
  if (config === null || typeof config !== 'object') fail('expected an object of options');
  const merchantId = nonEmpty(config.merchantId, 'merchantId');
  const { secret, secrets } = config;
  if (secret !== undefined && secrets !== undefined) fail('give either secret or secrets, not both');
  let list: readonly string[];
  if (secrets !== undefined) {
    if (!Array.isArray(secrets) || secrets.length === 0) fail('secrets must be a non-empty list of strings');
    list = secrets.map((s, i) => nonEmpty(s, `secrets[${i}]`));
  } else {
    if (secret === undefined) fail('a secret (or a non-empty secrets list) is required');
    list = [nonEmpty(secret, 'secret')];
  }
  const toleranceSeconds = config.toleranceSeconds ?? 60;
  if (typeof toleranceSeconds !== 'number' || !(toleranceSeconds >= 0) || !Number.isFinite(toleranceSeconds)) {
    fail('toleranceSeconds must be a non-negative number of seconds');
  }
  const clock = clockOption(config.clock);
  return { merchantId, secrets: list, toleranceSeconds, clock };
}

/**
 * Checks every option of a webhook handler and fills in the defaults: what each adapter calls
 * once, when it is created.
 *
 * @throws TypeError naming the option that is unusable, never with its value.
 */
export function checkOptions(options: WebhookHandlerOptions): CheckedOptions {
  const config = checkConfig(options);
  if (typeof options.handler !== 'function') fail('handler must be a function that processes a verified event');
  const { url, trustProxyHeaders } = options;
  if ((url === undefined) === (trustProxyHeaders === undefined)) {
    fail('give url (the exact address the service signs) or trustProxyHeaders, not both and not neither');
  }
  if (url !== undefined) {
    const problem = urlProblem(nonEmpty(url, 'url'));
    if (problem !== undefined) fail(`url must be the full URL the service signs, and it ${problem}`);
  }
  if (trustProxyHeaders !== undefined) {
    if (trustProxyHeaders === null || typeof trustProxyHeaders !== 'object') {
      fail('trustProxyHeaders must be { proto, host }: the names of the headers your proxy sets');
    }
    for (const part of ['proto', 'host'] as const) {
      const name = trustProxyHeaders[part];
      if (typeof name !== 'string' || !HEADER_NAME.test(name)) fail(`trustProxyHeaders.${part} must be a header name`);
    }
  }
  const store = options.store;
  if (store !== undefined && store !== false) {
    const methods = ['claim', 'complete', 'release'] as const;
    if (store === null || typeof store !== 'object' || methods.some((m) => typeof store[m] !== 'function')) {
      fail('store must be a DeliveryStore (claim, complete and release functions), or false for none');
    }
  }
  if (options.onRefused !== undefined && typeof options.onRefused !== 'function') fail('onRefused must be a function');
  return {
    ...config,
    url,
    trustProxyHeaders: trustProxyHeaders && { proto: trustProxyHeaders.proto.toLowerCase(), host: trustProxyHeaders.host.toLowerCase() },
    handler: options.handler,
    store: store === false ? undefined : (store ?? memoryStore({ clock: config.clock })),
    deliveryTtlMs: positiveInteger(options.deliveryTtlMs, 'deliveryTtlMs', DEFAULT_DELIVERY_TTL_MS),
    processingLeaseMs: positiveInteger(options.processingLeaseMs, 'processingLeaseMs', DEFAULT_PROCESSING_LEASE_MS),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES),
    onRefused: options.onRefused,
  };
}
