// The route of the webhook-failures test control (test-controls.ts), added only when the shop is
// given one (SHOP_TEST_CONTROLS=1). Apart from test-controls.ts, which payments.ts imports, so
// that this file may name the shop's app without closing an import circle.
import { bodyLimit } from 'hono/body-limit';
import type { ShopApp } from './route-context.js';
import type { WebhookFailures } from './test-controls.js';

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
