// The core: the one pipeline every adapter calls. It takes a request as the adapter hands it over
// (method, headers, path, a way to read the body), verifies it, skips duplicates, calls the
// merchant's handler, and decides the HTTP status the service acts on (2xx: done; anything else:
// it retries). Adapters only translate to and from their framework.
import type { HeadersLike } from '@pay/sign';
import { readHeader, urlProblem } from '@pay/sign';
import type { BodyRead } from './body.js';
import { deliveryKey } from './dedupe.js';
import type { ProxyHeaders, RefusalReason, WebhookFailure, WebhookHandlerOptions } from './options.js';
import { checkOptions } from './options.js';
import type { WebhookRefusal } from './verify.js';
import { refusal, verifyWebhook } from './verify.js';

/**
 * The HTTP status answered for each refusal. Signature failures are 401; a correctly signed body
 * that is not a payload is 400; a setup mistake (a parsed body) is 500 so the service retries once
 * it is fixed.
 */
const STATUS: Readonly<Record<RefusalReason, number>> = {
  missing_header: 401,
  malformed_timestamp: 401,
  expired: 401,
  merchant_mismatch: 401,
  malformed_signature: 401,
  bad_signature: 401,
  invalid_json: 400,
  invalid_payload: 400,
  unreadable_body: 400,
  method_not_allowed: 405,
  body_too_large: 413,
  unsupported_encoding: 415,
  parsed_body: 500,
};

/**
 * The HTTP status the webhook handlers answer for a refusal reason: 401 for the signature checks,
 * 400 for a signed body that is not a payload, 405, 413, 415, and 500 for a parsed body (a setup
 * mistake, so the service retries once it is fixed). For code that verifies by hand.
 *
 * @example
 * ```ts
 * const result = verifyWebhook({ ...config, headers, body });
 * if (!result.ok) return new Response(null, { status: refusalStatus(result.reason) });
 * ```
 */
export function refusalStatus(reason: RefusalReason): number {
  return STATUS[reason] ?? 500;
}

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
  /**
   * Reads the exact body, at most `limit` bytes (the one bounded reader of body.ts, or a buffer a
   * framework already read). Called only once the method and encoding are acceptable; never throws.
   */
  readBody(limit: number): Promise<BodyRead>;
}

/** A bound pipeline: `handle` answers one webhook and never throws. */
export interface WebhookCore {
  handle(incoming: IncomingWebhook): Promise<WebhookReply>;
}

/**
 * The content-encoding rule, the same for every adapter: only identity is accepted. The signature
 * covers the bytes the service sent; a body that arrives compressed is not those bytes, and
 * inflating it would spend unbounded work (a zip bomb) on a request not yet authenticated.
 */
export function encodingRefusal(headers: HeadersLike): WebhookRefusal | undefined {
  const encoding = readHeader(headers, 'content-encoding');
  if (encoding === undefined) return undefined;
  const name = encoding.trim().toLowerCase();
  if (name === '' || name === 'identity') return undefined;
  return refusal(
    'unsupported_encoding',
    'the request declares a content-encoding other than identity; the signature covers the exact bytes the service sends, so a compressed body is refused, never inflated',
  );
}

// A host as a proxy forwards it: a name or an IP literal, with an optional port. Nothing else may
// become part of the signed address.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::[0-9]{1,5})?$/;
const UNSAFE_IN_PATH = /[\s\u0000-\u001f\u007f]/g;

/** The first value of a header that may hold a list (`https, http`), trimmed. */
function firstValue(headers: HeadersLike, name: string): string | undefined {
  const value = readHeader(headers, name);
  if (value === undefined) return undefined;
  const comma = value.indexOf(',');
  return (comma < 0 ? value : value.slice(0, comma)).trim();
}

/** The address a trusted proxy says it received the request on, or a refusal. */
function proxiedUrl(names: ProxyHeaders, incoming: IncomingWebhook): string | WebhookRefusal {
  const proto = firstValue(incoming.headers, names.proto)?.toLowerCase();
  const host = firstValue(incoming.headers, names.host);
  if (!host || (proto !== 'https' && proto !== 'http')) {
    return refusal('missing_header', `the trusted proxy headers ${names.proto} and ${names.host} are missing or not http(s)`);
  }
  if (!HOST.test(host)) return refusal('missing_header', `the trusted proxy header ${names.host} is not a host name (host or host:port)`);
  // The path comes from the request line; a framework never hands over spaces or control
  // characters, but if one did they are escaped: the address then simply fails to match.
  const path = incoming.path.replace(UNSAFE_IN_PATH, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const url = `${proto}://${host}${path.startsWith('/') ? path : `/${path}`}`;
  if (urlProblem(url) !== undefined) {
    return refusal('missing_header', `the address rebuilt from ${names.proto}, ${names.host} and the request path is not a usable URL`);
  }
  return url;
}

/** How often a handler works out a near-miss hint at most. */
const HINT_INTERVAL_MS = 1000;
const HINT_SKIPPED =
  'not worked out: a near-miss check ran less than a second ago, and they run at most once a second so that forged requests cannot multiply the work';

const reply = (status: number, payload: object): WebhookReply => ({ status, body: JSON.stringify(payload) });

/** The default log sink: one line per failure; reading `hint` here is what works it out. */
function warn(failure: WebhookFailure): void {
  const hint = 'hint' in failure && failure.hint ? ` (${failure.hint})` : '';
  const line = `@pay/webhook: ${failure.status} ${failure.reason}: ${failure.message}${hint}`;
  // The handler's or the store's own error, with its stack: the merchant's code, the merchant's log.
  if ('error' in failure) console.warn(line, failure.error);
  else console.warn(line);
}

/**
 * Binds the options once (checked by `checkOptions`; the store lives as long as the handler) and
 * returns the pipeline.
 *
 * @throws TypeError for an unusable configuration, when the handler is made.
 */
export function createWebhookCore(options: WebhookHandlerOptions): WebhookCore {
  const o = checkOptions(options);
  const { store } = o;
  const sink = o.onRefused ?? warn;
  // A failing log sink must not change the answer, nor skip what comes after the report.
  const report = (failure: WebhookFailure): void => {
    try {
      sink(failure);
    } catch (error) {
      console.warn('@pay/webhook: onRefused threw while reporting a failure; the answer is unchanged', error);
    }
  };
  // A hint costs a few HMACs, worth it for the one log line that explains a misconfiguration and
  // not for each of a flood of forged requests: at most one is worked out a second, whoever reads it.
  let lastHintAt: number | undefined;
  const rationed = (refused: WebhookRefusal): WebhookRefusal =>
    refused.reason !== 'bad_signature'
      ? refused
      : refusal(refused.reason, refused.message, () => {
          const t = o.now();
          if (lastHintAt !== undefined && Math.abs(t - lastHintAt) < HINT_INTERVAL_MS) return HINT_SKIPPED;
          lastHintAt = t;
          return refused.hint;
        });
  const refuse = (refused: WebhookRefusal): WebhookReply => {
    const status = refusalStatus(refused.reason);
    // Status added in place: copying would read `hint`, which is worked out only when logged.
    report(Object.assign(refused, { status }));
    return reply(status, { error: refused.reason });
  };

  const verify = async (incoming: IncomingWebhook) => {
    const encoding = encodingRefusal(incoming.headers);
    if (encoding !== undefined) return encoding;
    let read: BodyRead;
    try {
      read = await incoming.readBody(o.maxBodyBytes);
    } catch {
      read = { ok: false, reason: 'unreadable_body', message: 'the webhook body could not be read' };
    }
    if (!read.ok) return refusal(read.reason, read.message);
    const url = o.trustProxyHeaders ? proxiedUrl(o.trustProxyHeaders, incoming) : o.url!;
    if (typeof url !== 'string') return url;
    return verifyWebhook({
      merchantId: o.merchantId,
      secrets: o.secrets,
      url,
      headers: incoming.headers,
      body: read.body,
      now: o.now,
      toleranceSeconds: o.toleranceSeconds,
    });
  };

  const handle = async (incoming: IncomingWebhook): Promise<WebhookReply> => {
    // Not reported: a GET from a crawler is not a refused webhook.
    if (incoming.method.toUpperCase() !== 'POST') return reply(refusalStatus('method_not_allowed'), { error: 'method_not_allowed' });
    const result = await verify(incoming);
    if (!result.ok) return refuse(rationed(result));
    const key = deliveryKey(result.event);
    // A store that fails (a shared store unreachable, say) must not crash the receiver nor lose
    // the event: before the handler, answer 503 so the service retries; after it, say what
    // happened and answer for the handler's outcome.
    const storeFailed = (status: 503 | 200, message: string, error: unknown): WebhookReply => {
      report({ ok: false, reason: 'store_failed', message, status, error });
      return status === 200 ? reply(200, { ok: true }) : reply(503, { error: 'store_failed' });
    };
    // This attempt's own token: a release gives back only the claim this attempt holds.
    const token = store ? globalThis.crypto.randomUUID() : '';
    if (store) {
      let claim: unknown;
      try {
        claim = await store.claim(key, o.processingLeaseMs, token);
      } catch (error) {
        return storeFailed(503, `the delivery store failed to claim ${key}`, error);
      }
      if (claim === 'done') return reply(200, { ok: true, duplicate: true });
      if (claim === 'in_progress') {
        // Another attempt of this very delivery is being processed right now. Acknowledging it would
        // lose the event if that attempt then fails; a 409 makes the service try again later.
        report({ ok: false, reason: 'in_progress', message: `delivery ${key} is being processed by another attempt`, status: 409 });
        return reply(409, { error: 'in_progress' });
      }
      if (claim !== 'claimed') {
        // Taking an unknown answer as a claim could process a delivery twice; as anything else,
        // lose it. Only a retry is safe.
        const error = new TypeError('a DeliveryStore claim must answer "claimed", "in_progress" or "done"');
        return storeFailed(503, `the delivery store answered an unknown claim result for ${key}`, error);
      }
    }
    try {
      await o.handler(result.event);
    } catch (error) {
      try {
        report({ ok: false, reason: 'handler_failed', message: `the handler failed for delivery ${key}`, status: 500, error });
      } finally {
        // Whatever the report did, the claim is given back, so the service's retry is processed
        // rather than answered 409 until the lease ends.
        if (store) {
          try {
            await store.release(key, token);
          } catch (releaseError) {
            // The claim then lapses after its lease, and a later attempt is processed.
            report({ ok: false, reason: 'store_failed', message: `the delivery store failed to release ${key}`, status: 500, error: releaseError });
          }
        }
      }
      return reply(500, { error: 'handler_failed' });
    }
    if (store) {
      try {
        await store.complete(key, o.deliveryTtlMs);
      } catch (error) {
        // Processed: the service must not send it again, so this is still a 2xx.
        return storeFailed(200, `the delivery store failed to complete ${key}`, error);
      }
    }
    return reply(200, { ok: true });
  };
  return { handle };
}
