// The shop as a Hono app: `Request` in, `Response` out. Creates go through the journal (recorded
// before the request leaves, sent exactly once by @pay/client), webhooks through @pay/webhook into
// the journal's inbox, and orders live in the journal's database: see payments.ts and orders.ts.
// This file wires the pieces together; each group of routes has its own file (checkout.ts,
// payouts.ts, order-routes.ts), as do the checks every request goes through (guards.ts).
import type { HttpBindings } from '@hono/node-server';
import { webhookHandler } from '@pay/webhook/fetch';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { PRODUCTS, TEST_CARDS } from './catalog.js';
import { addCheckoutRoutes } from './checkout.js';
import { guardRequests } from './guards.js';
import { shopNames } from './hosts.js';
import { addOrderRoutes } from './order-routes.js';
import { messagePage, productPage } from './pages.js';
import type { Payments } from './payments.js';
import { addPayoutRoutes } from './payouts.js';
import { type RouteContext, type ShopApp, show } from './route-context.js';
import { addTestControlRoute } from './test-control-route.js';
import type { WebhookFailures } from './test-controls.js';

/** What `createShop` needs. */
export interface ShopOptions {
  merchantId: string;
  secret: string;
  /** The shop's address as customers and the service reach it, without a trailing slash. */
  publicUrl: string;
  /**
   * The port the shop listens on. With the host of `publicUrl`, it makes the shop's names: it
   * answers only to localhost, 127.0.0.0/8 and [::1] on this port, and to its public host.
   */
  port: number;
  /** The client, the journal and the orders (openPayments). */
  payments: Pick<Payments, 'client' | 'journal' | 'orders'>;
  /** Adds `POST /_test/webhook-failures` (tests only), which sets these. */
  failures?: WebhookFailures;
  /** One line per order event and per refused webhook; default: silent. */
  log?: (line: string) => void;
  /** The journal runs on the sandbox's clock (SHOP_SANDBOX_CLOCK=1): its times are labelled so. */
  sandboxClock?: boolean;
}

/** A shop: its Fetch handler and the address it gives the service for webhooks. */
export interface Shop {
  fetch(request: Request, env?: HttpBindings): Response | Promise<Response>;
  /** The address given to the service as `webhook_url`, and the one webhooks are verified against. */
  webhookUrl: string;
}

/** Creates the shop. @throws TypeError for unusable options (from @pay/webhook). */
export function createShop(options: ShopOptions): Shop {
  const { publicUrl } = options;
  const { journal } = options.payments;
  const log = options.log ?? (() => {});
  const webhookUrl = `${publicUrl}/webhooks/pay`;

  // The journal is the delivery store: each (transaction, status) is recorded and handled once,
  // in the database, whichever instance receives it. A 2xx only once the order's change committed.
  const onWebhook = webhookHandler({
    merchantId: options.merchantId,
    secret: options.secret,
    url: webhookUrl,
    ...journal.webhook(),
    onRefused: (failure) => log(`webhook answered ${failure.status} (${failure.reason}): ${failure.message}`),
  });

  const app: ShopApp = new Hono<{ Bindings: HttpBindings }>();
  // First, so the headers and the host check cover every route added after it.
  const form = guardRequests(app, shopNames(options.port, publicUrl));
  const shop: RouteContext = {
    app,
    payments: options.payments,
    publicUrl,
    webhookUrl,
    log,
    sandboxClock: options.sandboxClock === true,
    form,
  };

  app.get('/', (c) => show(c, productPage(PRODUCTS, TEST_CARDS)));
  addCheckoutRoutes(shop);
  addOrderRoutes(shop);
  addPayoutRoutes(shop);
  // The webhook endpoint: the raw Request goes to @pay/webhook before anything reads its body.
  app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));
  if (options.failures !== undefined) addTestControlRoute(app, options.failures);

  app.notFound((c) => show(c, messagePage('Not found', 'There is no page here.', { href: '/', label: 'Back to the shop' }), 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse(); // an HTTPException carries its own answer
    log(`error: ${error instanceof Error ? error.name : 'unknown'} on ${c.req.method} ${c.req.path}`);
    return show(c, messagePage('Something went wrong', 'Please try again.', { href: '/', label: 'Back to the shop' }), 500);
  });

  return { fetch: (request, env) => app.fetch(request, env), webhookUrl };
}
