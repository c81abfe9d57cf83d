// A test control (SHOP_TEST_CONTROLS=1, never in production): the next webhooks fail, so tests
// and the demo can watch the service retry. It fails inside the journal's handler, as a real bug
// or a database outage would: the event rolls back with its order change and the webhook is
// answered 500.
import type { JournalEvent } from '@pay/journal';
import { bodyLimit } from 'hono/body-limit';
import type { ShopApp } from './route-context.js';

/** How many webhooks to fail next, and of which status (any when not given). */
export interface WebhookFailures {
  /** Throws while failures are left for this event's status (webhooks only). */
  failIfAsked(event: JournalEvent): void;
  set(count: number, status: string | undefined): { left: number; status?: string };
}

export function webhookFailures(): WebhookFailures {
  let left = 0;
  let only: string | undefined;
  return {
    failIfAsked(event) {
      if (event.source !== 'webhook' || left === 0 || (only !== undefined && only !== event.status)) return;
      left -= 1;
      throw new Error(`test control: failing this webhook on purpose (${left} more to fail)`);
    },
    set(count, status) {
      left = count;
      only = status;
      return { left, ...(status === undefined ? {} : { status }) };
    },
  };
}

/** Adds `POST /_test/webhook-failures` (`{ count, status? }`), which sets `failures`. */
export function addTestControlRoute(app: ShopApp, failures: WebhookFailures): void {
  app.post('/_test/webhook-failures', bodyLimit({ maxSize: 1024, onError: (c) => c.text('Too large', 413) }), async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const { count, status } = (typeof body === 'object' && body !== null ? body : {}) as { count?: unknown; status?: unknown };
    if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > 100)
      return c.json({ error: 'count must be an integer from 0 to 100' }, 400);
    if (status !== undefined && typeof status !== 'string') return c.json({ error: 'status must be a string' }, 400);
    return c.json({ ok: true, ...failures.set(count as number, status) });
  });
}
