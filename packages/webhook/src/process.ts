// One pipeline for every framework: verify, skip duplicates, call the merchant's handler, and
// choose the status the service acts on (2xx: done; anything else: it retries).
import type { HeadersLike } from '@pay/sign';
import { readHeader } from '@pay/sign';
import type { ClaimResult, DeliveryStore } from './dedupe.js';
import { DEFAULT_DELIVERY_TTL_MS, DEFAULT_PROCESSING_LEASE_MS, deliveryKey, memoryStore } from './dedupe.js';
import type { WebhookConfig, WebhookEvent, WebhookResult } from './verify.js';
import { refusal, verifyWebhook } from './verify.js';

/**
 * Headers a trusted proxy sets with the public scheme and host, e.g.
 * `{ proto: 'x-forwarded-proto', host: 'x-forwarded-host' }`.
 */
export interface ProxyHeaders {
  proto: string;
  host: string;
}

/** Options of every webhook handler (`createWebhookHandler` and the framework adapters). */
export interface WebhookHandlerOptions extends Omit<WebhookConfig, 'url'> {
  /**
   * The exact address the service signs: the `webhook_url` given at creation, or the static
   * webhook address. Give this, or `trustProxyHeaders`.
   */
  url?: string;
  /**
   * Opt-in, instead of `url`: rebuild the signed address from these request headers and the
   * request's path and query. Only safe when your proxy always sets them, overwriting whatever
   * the caller sent; the first value of a list is used.
   */
  trustProxyHeaders?: ProxyHeaders;
  /**
   * Called once per status change with the verified event. Return (or resolve) when it is
   * processed: the service then gets a 2xx. Throw (or reject) and it gets a 500 and retries.
   */
  handler: (event: WebhookEvent) => unknown;
  /**
   * Where processed deliveries are remembered, keyed on (id, status): a duplicate gets a 2xx
   * without calling the handler again. Default: in this process's memory. Give a shared store
   * when several instances receive webhooks; `false` turns duplicate handling off.
   */
  store?: DeliveryStore | false;
  /** How long a processed delivery is remembered (default 3 h, past the whole retry schedule). */
  deliveryTtlMs?: number;
  /**
   * How long a delivery being processed stays claimed (default 5 min): if the process dies
   * mid-handler, the service's attempt after that is processed. Keep it above your handler's
   * longest run.
   */
  processingLeaseMs?: number;
  /** Largest body read, in bytes (default 1 MiB); larger is answered 413. */
  maxBodyBytes?: number;
  /**
   * Told of every refused webhook and handler failure, for logs: the reason, a message and, for a
   * signature that nearly matched, a hint. Default: one `console.warn` line. Never sent to the caller.
   */
  onRefused?: (failure: WebhookFailure) => void;
  /** The clock, unix seconds (tests drive it). */
  now?: () => number;
}

/** A refused webhook or a failed handler, as told to `onRefused`. */
export type WebhookFailure =
  | (WebhookResult & { ok: false })
  | { ok: false; reason: 'handler_failed'; message: string; status: 500; error: unknown }
  | { ok: false; reason: 'in_progress'; message: string; status: 409 }
  | { ok: false; reason: 'store_failed'; message: string; status: 503 | 500 | 200; error: unknown };

/** What to answer. */
export interface WebhookReply {
  status: number;
  body: string;
}

/** A request as an adapter hands it over. */
export interface IncomingWebhook {
  method: string;
  headers: HeadersLike;
  /** The request's path and query as received (used only with `trustProxyHeaders`). */
  path: string;
  /** The raw body as received. */
  body: unknown;
  /** A refusal the adapter already decided while reading the body (too large). */
  refused?: WebhookResult & { ok: false };
}

/** The largest webhook body read by default: payloads are a few hundred bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The address a trusted proxy says it received the request on, or a refusal without the headers. */
function proxiedUrl(names: ProxyHeaders): (incoming: IncomingWebhook) => string | (WebhookResult & { ok: false }) {
  const first = (headers: HeadersLike, name: string) => readHeader(headers, name.toLowerCase())?.split(',')[0]?.trim();
  return (incoming) => {
    const proto = first(incoming.headers, names.proto);
    const host = first(incoming.headers, names.host);
    if (!proto || !host || !/^https?$/i.test(proto)) {
      return refusal('missing_header', `the trusted proxy headers ${names.proto} and ${names.host} are missing or not http(s)`);
    }
    return `${proto.toLowerCase()}://${host}${incoming.path}`;
  };
}

const reply = (status: number, payload: object): WebhookReply => ({ status, body: JSON.stringify(payload) });

function warn(failure: WebhookFailure): void {
  const hint = 'hint' in failure && failure.hint ? ` (${failure.hint})` : '';
  const line = `@pay/webhook: ${failure.status} ${failure.reason}: ${failure.message}${hint}`;
  // The handler's or the store's own error, with its stack: the merchant's code, the merchant's log.
  if ('error' in failure) console.warn(line, failure.error);
  else console.warn(line);
}

/** A bound pipeline: `handle` answers one webhook; adapters read bodies up to `maxBodyBytes`. */
export interface WebhookProcessor {
  handle(incoming: IncomingWebhook): Promise<WebhookReply>;
  maxBodyBytes: number;
}

/** Binds options once (the store lives as long as the handler) and returns the pipeline. */
export function webhookProcessor(options: WebhookHandlerOptions): WebhookProcessor {
  if (typeof options?.handler !== 'function') throw new TypeError('handler must be a function that processes a verified event');
  const store = options.store === false ? undefined : (options.store ?? memoryStore());
  const ttl = options.deliveryTtlMs ?? DEFAULT_DELIVERY_TTL_MS;
  const lease = options.processingLeaseMs ?? DEFAULT_PROCESSING_LEASE_MS;
  const report = options.onRefused ?? warn;
  if ((options.url === undefined) === (options.trustProxyHeaders === undefined)) {
    throw new TypeError('give url (the exact address the service signs) or trustProxyHeaders, not both and not neither');
  }
  const urlOf = options.trustProxyHeaders ? proxiedUrl(options.trustProxyHeaders) : () => options.url!;
  // Fail at setup, not on the first webhook: an unusable config throws here.
  verifyWebhook({ ...options, url: options.url ?? 'https://proxy.invalid/', body: '', headers: {}, now: 0 });

  const handle = async (incoming: IncomingWebhook): Promise<WebhookReply> => {
    if (incoming.method.toUpperCase() !== 'POST') {
      return reply(405, { error: 'method_not_allowed' });
    }
    const url = urlOf(incoming);
    const result =
      incoming.refused ??
      (typeof url === 'string'
        ? verifyWebhook({ ...options, url, headers: incoming.headers, body: incoming.body, now: options.now?.() })
        : url);
    if (!result.ok) {
      report(result);
      return reply(result.status, { error: result.reason });
    }
    const key = deliveryKey(result.event);
    // A store that fails (a shared store unreachable, say) must not crash the receiver nor lose
    // the event: before the handler, answer 503 so the service retries; after it, say what
    // happened and answer for the handler's outcome.
    const storeFailed = (status: 503 | 500 | 200, step: string, error: unknown): WebhookReply => {
      report({ ok: false, reason: 'store_failed', message: `the delivery store failed to ${step} ${key}`, status, error });
      return status === 200 ? reply(200, { ok: true }) : reply(status, { error: status === 503 ? 'store_failed' : 'handler_failed' });
    };
    let claim: ClaimResult = 'claimed';
    if (store) {
      try {
        claim = await store.claim(key, lease);
      } catch (error) {
        return storeFailed(503, 'claim', error);
      }
    }
    if (claim === 'done') return reply(200, { ok: true, duplicate: true });
    if (claim === 'in_progress') {
      // Another attempt of this very delivery is being processed right now. Acknowledging it would
      // lose the event if that attempt then fails; a 409 makes the service try again later.
      report({ ok: false, reason: 'in_progress', message: `delivery ${key} is being processed by another attempt`, status: 409 });
      return reply(409, { error: 'in_progress' });
    }
    try {
      await options.handler(result.event);
    } catch (error) {
      report({ ok: false, reason: 'handler_failed', message: `the handler failed for delivery ${key}`, status: 500, error });
      if (store) {
        try {
          await store.release(key);
        } catch (releaseError) {
          // The claim then lapses after its lease, and a later attempt is processed.
          return storeFailed(500, 'release', releaseError);
        }
      }
      return reply(500, { error: 'handler_failed' });
    }
    if (store) {
      try {
        await store.complete(key, ttl);
      } catch (error) {
        // Processed: the service must not send it again, so this is still a 2xx.
        return storeFailed(200, 'complete', error);
      }
    }
    return reply(200, { ok: true });
  };
  return { handle, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
}
