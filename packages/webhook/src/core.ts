// The core: the one pipeline every adapter calls, so that every framework answers the same
// request the same way. It takes a request as the adapter hands it over and goes: read the exact
// body → verify its signature → parse its payload → deliver it to the merchant's handler once →
// reply with the status the service acts on (2xx: done; anything else: it retries). Adapters only
// translate to and from their framework.
import { deliver } from './deliveries.js';
import { hintBudget } from './hint-budget.js';
import type { IncomingWebhook } from './incoming.js';
import { readIncoming } from './incoming.js';
import type { WebhookHandlerOptions } from './options.js';
import { checkOptions } from './options.js';
import { parsePayload } from './parse-payload.js';
import type { Verdict, WebhookRefusal, WebhookReply } from './refusals.js';
import { refusalStatus, replyTo } from './refusals.js';
import { reporter } from './report.js';
import { signedUrl } from './signed-url.js';
import { observeWebhook, type WebhookTelemetry } from './telemetry.js';
import { verifySignature } from './verify.js';

/** A bound pipeline: `handle` answers one webhook and never throws. */
export interface WebhookCore {
  handle(incoming: IncomingWebhook): Promise<WebhookReply>;
}

/**
 * Binds the options once (checked by `checkOptions`; the store lives as long as the handler) and
 * returns the pipeline.
 *
 * @throws TypeError for an unusable configuration, when the handler is made.
 */
export function createWebhookCore(options: WebhookHandlerOptions): WebhookCore {
  const o = checkOptions(options);
  const report = reporter(o.onRefused);
  const budgeted = hintBudget(o.clock.now);
  const delivery = { handler: o.handler, store: o.store, processingLeaseMs: o.processingLeaseMs, deliveryTtlMs: o.deliveryTtlMs, report };
  // The route telemetry names a webhook by when the framework does not say: the path of the
  // address the service signs (fixed for a handler, so never an id).
  const route = o.url === undefined ? undefined : new URL(o.url).pathname;
  const refuse = (refused: WebhookRefusal): Verdict => {
    // Status added in place: copying would read `hint`, which is worked out only when logged.
    report(Object.assign(refused, { status: refusalStatus(refused.reason) }));
    return { kind: 'refused', reason: refused.reason };
  };

  const judge = async (incoming: IncomingWebhook, telemetry: WebhookTelemetry | undefined): Promise<Verdict> => {
    // Not reported: a GET from a crawler is not a refused webhook.
    if (incoming.method.toUpperCase() !== 'POST') return { kind: 'refused', reason: 'method_not_allowed' };
    const read = await readIncoming(incoming, o.maxBodyBytes);
    if (!read.ok) return refuse(read);
    const url = signedUrl(o, incoming.headers, incoming.path);
    if (typeof url !== 'string') return refuse(url);
    const config = {
      merchantId: o.merchantId,
      secrets: o.secrets,
      url,
      headers: incoming.headers,
      clock: o.clock,
      toleranceSeconds: o.toleranceSeconds,
    };
    const signature = verifySignature(config, read.body);
    if (!signature.ok) return refuse(budgeted(signature));
    const payload = parsePayload(read.body, signature.secretIndex);
    if (!payload.ok) return refuse(payload);
    if (telemetry !== undefined) telemetry.verified(payload.event);
    const delivered = await deliver(
      payload.event,
      telemetry === undefined ? delivery : { ...delivery, handler: telemetry.handler(delivery.handler) },
    );
    if (!delivered.ok) return { kind: 'failed', reason: delivered.reason };
    return { kind: delivered.duplicate ? 'duplicate' : 'processed' };
  };

  // Tracked on the handler's clock from the first byte read to the answer: a test clock does not
  // move while a delivery (and the merchant's handler) is being processed.
  const handle = (incoming: IncomingWebhook): Promise<WebhookReply> => o.clock.track('webhook.receive', () => handleNow(incoming));
  const handleNow = async (incoming: IncomingWebhook): Promise<WebhookReply> => {
    const telemetry = observeWebhook(incoming.method, incoming.route ?? route);
    if (telemetry === undefined) return replyTo(await judge(incoming, undefined));
    try {
      const verdict = await judge(incoming, telemetry);
      const reply = replyTo(verdict);
      telemetry.end(verdict, reply.status);
      return reply;
    } catch (error) {
      telemetry.crashed(error);
      throw error;
    }
  };
  return { handle };
}
