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
import type { WebhookRefusal, WebhookReply } from './refusals.js';
import { failedDeliveryReply, processedReply, refusedReply } from './refusals.js';
import { reporter } from './report.js';
import { signedUrl } from './signed-url.js';
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
  const budgeted = hintBudget(o.now);
  const delivery = { handler: o.handler, store: o.store, processingLeaseMs: o.processingLeaseMs, deliveryTtlMs: o.deliveryTtlMs, report };
  const refuse = (refused: WebhookRefusal): WebhookReply => {
    const answer = refusedReply(refused.reason);
    // Status added in place: copying would read `hint`, which is worked out only when logged.
    report(Object.assign(refused, { status: answer.status }));
    return answer;
  };

  const handle = async (incoming: IncomingWebhook): Promise<WebhookReply> => {
    // Not reported: a GET from a crawler is not a refused webhook.
    if (incoming.method.toUpperCase() !== 'POST') return refusedReply('method_not_allowed');
    const read = await readIncoming(incoming, o.maxBodyBytes);
    if (!read.ok) return refuse(read);
    const url = signedUrl(o, incoming.headers, incoming.path);
    if (typeof url !== 'string') return refuse(url);
    const config = {
      merchantId: o.merchantId,
      secrets: o.secrets,
      url,
      headers: incoming.headers,
      now: o.now,
      toleranceSeconds: o.toleranceSeconds,
    };
    const signature = verifySignature(config, read.body);
    if (!signature.ok) return refuse(budgeted(signature));
    const payload = parsePayload(read.body, signature.secretIndex);
    if (!payload.ok) return refuse(payload);
    const delivered = await deliver(payload.event, delivery);
    return delivered.ok ? processedReply(delivered.duplicate) : failedDeliveryReply(delivered.reason);
  };
  return { handle };
}
