// The shop as a Hono app: `Request` in, `Response` out. Everything that talks to the payments
// service goes through @pay/client (signed, exactly once), everything it hears back through
// @pay/webhook (verified against the exact URL and bytes, each delivery processed once).
import type { HttpBindings } from '@hono/node-server';
import { createClient, InvalidRequestError, NotFoundError, OutcomeUnknownError, PayError, type ClientOptions } from '@pay/client';
import type { WebhookEvent } from '@pay/webhook';
import { webhookHandler } from '@pay/webhook/fetch';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { CUSTOMER, PRODUCTS, TEST_CARDS, testCardExpiry } from './catalog.js';
import { shopNames } from './hosts.js';
import type { Html } from './html.js';
import { createOrderBook, type Order, type OrderBook } from './orders.js';
import { EMPTY_PAYOUT_FORM, messagePage, orderPage, ordersPage, payoutPage, productPage, type Arrival, type PayoutForm } from './pages.js';

/** What `createShop` needs. */
export interface ShopOptions {
  baseUrl: string;
  cardProxyUrl: string;
  merchantId: string;
  secret: string;
  /** The shop's address as customers and the service reach it, without a trailing slash. */
  publicUrl: string;
  /**
   * The port the shop listens on. With the host of `publicUrl`, it makes the shop's names: it
   * answers only to localhost, 127.0.0.0/8 and [::1] on this port, and to its public host.
   */
  port: number;
  /** Hosts @pay/client may reach over plain http besides loopback ones (a sandbox in docker-compose). */
  allowHttpHosts?: readonly string[];
  /** Adds `POST /_test/webhook-failures` (tests only). */
  testControls?: boolean;
  /** One line per order event and per refused webhook; default: silent. */
  log?: (line: string) => void;
  /** Time limits of @pay/client, if its defaults do not suit (tests shorten them with the sandbox's tolerance). */
  client?: Pick<ClientOptions, 'timeoutMs' | 'totalTimeoutMs' | 'toleranceSeconds' | 'settleSeconds'>;
}

/** A shop: its Fetch handler and a read-only view of its orders. */
export interface Shop {
  fetch(request: Request, env?: HttpBindings): Response | Promise<Response>;
  /** The address given to the service as `webhook_url`, and the one webhooks are verified against. */
  webhookUrl: string;
  orders: Pick<OrderBook, 'get' | 'list'>;
}

/** Form fields are short: anything past this is refused before it is parsed. */
const MAX_FORM_BYTES = 8 * 1024;
const CSC = '123';

/**
 * A fresh order reference, sent as `reference_id`: random, never a counter. A counter restarts
 * with the process while the service remembers every reference, and @pay/client treats a
 * reference the service already has as the same create (its exactly-once rule): a reused
 * reference would be matched to an old payment.
 */
const newReference = (prefix: string) => `${prefix}-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;

const isWebUrl = (value: string) => /^https?:\/\//i.test(value);

/** The customer's IP address as the Node server saw it (IPv4-mapped IPv6 written as IPv4). */
function customerIp(c: Context<{ Bindings: HttpBindings }>): string | undefined {
  const address = c.env?.incoming?.socket?.remoteAddress;
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** A form field as one trimmed string (a repeated field takes its last value), capped. */
function field(form: Record<string, unknown>, name: string): string {
  let value = form[name];
  if (Array.isArray(value)) value = value[value.length - 1];
  return typeof value === 'string' ? value.trim().slice(0, 300) : '';
}

/** Creates the shop. @throws TypeError for unusable options (from @pay/client and @pay/webhook). */
export function createShop(options: ShopOptions): Shop {
  const { publicUrl } = options;
  const log = options.log ?? (() => {});
  const pay = createClient({
    baseUrl: options.baseUrl,
    cardProxyUrl: options.cardProxyUrl,
    merchantId: options.merchantId,
    secret: options.secret,
    ...(options.allowHttpHosts === undefined ? {} : { allowHttpHosts: options.allowHttpHosts }),
    ...options.client,
  });
  const webhookUrl = `${publicUrl}/webhooks/pay`;
  const orders = createOrderBook();
  // Test control: the next `left` webhooks (of `status`, when given) fail with a 500.
  const failures: { left: number; status?: string } = { left: 0 };

  const onWebhook = webhookHandler({
    merchantId: options.merchantId,
    secret: options.secret,
    url: webhookUrl,
    handler(event: WebhookEvent) {
      if (failures.left > 0 && (failures.status === undefined || failures.status === event.status)) {
        failures.left -= 1;
        throw new Error(`test control: failing this webhook on purpose (${failures.left} more to fail)`);
      }
      const outcome = orders.applyWebhook(event);
      log(`webhook ${event.reference_id ?? event.id} ${event.status}: ${outcome}`);
    },
    onRefused: (failure) => log(`webhook answered ${failure.status} (${failure.reason}): ${failure.message}`),
  });

  const app = new Hono<{ Bindings: HttpBindings }>();
  const show = (c: Context, page: Html, status: 200 | 400 | 404 | 500 | 502 = 200) => c.html(page.value, status);
  const names = shopNames(options.port, publicUrl);
  // Form posts only from the shop's own pages: an Origin that is one of the shop's origins, from
  // the fixed list (see hosts.ts), never one worked out from the request, and never waived for a
  // `Sec-Fetch-Site: same-origin` (a rebound page is "same origin" to the browser). Browsers send
  // Origin with every POST. (A real shop also puts the payout form behind a login.)
  const sameOrigin: MiddlewareHandler = async (c, next) => {
    if (!names.origin(c.req.header('origin'))) return c.text("Forbidden: the Origin header is not one of this shop's addresses", 403);
    await next();
  };
  const form = [sameOrigin, bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('Form too large', 413) })] as const;

  app.use(async (c, next) => {
    await next();
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'");
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'same-origin');
  });

  // Every route, the webhook endpoint and unknown paths included, answers only under the shop's
  // own names (DNS rebinding: see hosts.ts). 421 Misdirected Request says this server does not
  // serve that name. Both the Host header and the request URL's host are checked: they differ
  // only for a request in absolute form (`GET http://host/ HTTP/1.1`), which then names two hosts.
  // No Host header at all (HTTP/1.0 allows it) cannot name the shop: 400.
  app.use(async (c, next) => {
    const host = c.req.header('host');
    if (host === undefined) return c.text('Bad Request: the request has no Host header', 400);
    if (!names.host(host) || !names.host(new URL(c.req.url).host)) {
      return c.text(`Misdirected Request: the Host header is not one of this shop's names (${names.description})`, 421);
    }
    await next();
  });

  app.get('/', (c) => show(c, productPage(PRODUCTS, TEST_CARDS)));

  /**
   * The create failed. Any error but OutcomeUnknownError means nothing was created. With
   * OutcomeUnknownError the payin or payout may exist: the order is kept, and looked up by its
   * reference from `decidableAt` on (the client's rule): found, its webhooks settle it; not found,
   * it was never created. (A real shop runs this from a job queue, so a restart does not lose it.)
   */
  function createFailed(c: Context, order: Order, error: unknown): Response {
    if (error instanceof OutcomeUnknownError) {
      orders.update(order.reference, { status: 'unknown' }, 'the service did not answer in time; looking it up shortly');
      log(`${order.reference}: outcome unknown, looking it up at ${error.decidableAt.toISOString()}`);
      const lookUp = () => (order.kind === 'payout' ? pay.payouts : pay.payins).getByReference(order.reference);
      setTimeout(
        () => {
          lookUp().then(
            (found) => orders.update(order.reference, { transactionId: found.data.id }, 'found by its reference; its webhooks settle it'),
            (lookupError: unknown) => {
              if (lookupError instanceof NotFoundError) {
                orders.update(
                  order.reference,
                  { status: 'failed', failureReason: 'The payment was not created. Nothing was charged.' },
                  'not found by its reference: never created',
                );
              } else {
                log(
                  `${order.reference}: still unknown, look it up by its reference (${lookupError instanceof Error ? lookupError.name : 'error'})`,
                );
              }
            },
          );
        },
        Math.max(0, error.decidableAt.getTime() - Date.now()),
      ).unref();
      return c.redirect(`/orders/${encodeURIComponent(order.reference)}`, 303);
    }
    orders.remove(order.reference);
    if (!(error instanceof PayError)) throw error;
    log(`${order.reference}: not created: ${error.message}`);
    return show(
      c,
      messagePage('Payment service unavailable', 'Nothing was charged. Please try again in a moment.', {
        href: '/',
        label: 'Back to the shop',
      }),
      502,
    );
  }

  /** The payin fields every checkout sends: who pays, from where, and where to come back to. */
  function payinFields(c: Context<{ Bindings: HttpBindings }>, reference: string) {
    const order = `${publicUrl}/orders/${encodeURIComponent(reference)}`;
    return {
      reference_id: reference,
      customer: CUSTOMER,
      browser_data: { user_agent: (c.req.header('user-agent') ?? 'unknown').slice(0, 512), ip_address: customerIp(c) ?? '' },
      webhook_url: webhookUrl,
      redirect_urls: { success: `${order}/success`, fail: `${order}/fail` },
    };
  }

  const customerName = `${CUSTOMER.first_name} ${CUSTOMER.last_name}`;

  // The hosted payment page: create the payin, send the customer to next_action.url.
  app.post('/checkout', ...form, async (c) => {
    const body = await c.req.parseBody();
    const product = PRODUCTS.find((p) => p.id === field(body, 'product'));
    if (product === undefined)
      return show(c, messagePage('No such product', 'Choose a product on the shop page.', { href: '/', label: 'Back to the shop' }), 400);
    const order = orders.add({
      reference: newReference('order'),
      kind: 'payin',
      description: product.name,
      amount: product.price,
      currency: product.currency,
      customerName,
    });
    let created;
    try {
      created = await pay.payins.create({
        ...payinFields(c, order.reference),
        payment: { amount: product.price, currency: product.currency },
      });
    } catch (error) {
      return createFailed(c, order, error);
    }
    orders.update(order.reference, { transactionId: created.data.id });
    const next = created.reconciled ? undefined : created.data.next_action;
    if (next?.type !== 'redirect' || !isWebUrl(next.url)) {
      // Reconciled after a lost answer: lookups carry no next_action, so there is no page to send to.
      log(`${order.reference}: created, but no payment page address to redirect to`);
      return show(
        c,
        messagePage('Payment page unavailable', 'Your order is saved but the payment page could not be opened. Please try again.', {
          href: '/',
          label: 'Back to the shop',
        }),
        502,
      );
    }
    log(`${order.reference}: payin ${created.data.id} created, customer sent to the payment page`);
    return c.redirect(next.url, 303);
  });

  // Card checkout: create a card payin, push the card server-side with the simplified signature.
  // The page offers test cards by name; their numbers never leave the server except to the card proxy.
  app.post('/checkout/card', ...form, async (c) => {
    const body = await c.req.parseBody();
    const product = PRODUCTS.find((p) => p.id === field(body, 'product'));
    const card = TEST_CARDS.find((t) => t.id === field(body, 'card'));
    if (product === undefined || card === undefined) {
      return show(
        c,
        messagePage('No such product or card', 'Choose a product and a test card on the shop page.', {
          href: '/',
          label: 'Back to the shop',
        }),
        400,
      );
    }
    const order = orders.add({
      reference: newReference('order'),
      kind: 'card',
      description: product.name,
      amount: product.price,
      currency: product.currency,
      customerName,
      cardLast4: card.pan.slice(-4),
    });
    let created;
    try {
      created = await pay.payins.create({
        ...payinFields(c, order.reference),
        payment: { amount: product.price, currency: product.currency },
        method: 'card',
      });
    } catch (error) {
      return createFailed(c, order, error);
    }
    const payin = created.data;
    orders.update(order.reference, { transactionId: payin.id });
    const orderUrl = `/orders/${encodeURIComponent(order.reference)}`;
    const next = created.reconciled ? undefined : created.data.next_action;
    if (next?.type !== 'card_push') {
      log(`${order.reference}: created, but no card push address`);
      return show(
        c,
        messagePage('Card payment unavailable', 'Your order is saved but the card could not be sent. Please try again.', {
          href: '/',
          label: 'Back to the shop',
        }),
        502,
      );
    }
    let answer: unknown;
    try {
      answer = (await pay.payins.pushCard({ payinId: payin.id, url: next.url }, { pan: card.pan, ...testCardExpiry(), csc: CSC })).data;
    } catch (error) {
      if (!(error instanceof PayError)) throw error;
      // Not repeated (the token is single-use): the webhook tells what became of the payin.
      orders.update(order.reference, {}, `the card push failed (${error.name}); waiting for the webhook`);
      log(`${order.reference}: card push failed: ${error.message}`);
      return c.redirect(orderUrl, 303);
    }
    // The push answers with the payin (the interface does not show it, so it is read with care).
    // It picks the page to show; the order's status still changes only by webhook.
    const pushed = typeof answer === 'object' && answer !== null ? (answer as { status?: unknown; error_message?: unknown }) : {};
    if (pushed.status === 'failed') {
      if (typeof pushed.error_message === 'string') orders.update(order.reference, { failureReason: pushed.error_message.slice(0, 200) });
      return c.redirect(`${orderUrl}/fail`, 303);
    }
    return c.redirect(`${orderUrl}/success`, 303);
  });

  app.get('/orders', (c) => show(c, ordersPage(orders.list())));
  const orderRoute = (arrival: Arrival) => (c: Context) => {
    const order = orders.get(c.req.param('reference') ?? '');
    if (order === undefined)
      return show(
        c,
        messagePage('No such order', `There is no order ${c.req.param('reference') ?? ''}.`, { href: '/orders', label: 'All orders' }),
        404,
      );
    return show(c, orderPage(order, arrival));
  };
  app.get('/orders/:reference', orderRoute(undefined));
  app.get('/orders/:reference/success', orderRoute('success'));
  app.get('/orders/:reference/fail', orderRoute('fail'));

  app.get('/payouts/new', (c) => show(c, payoutPage(EMPTY_PAYOUT_FORM)));
  app.post('/payouts', ...form, async (c) => {
    const body = await c.req.parseBody();
    const values = Object.fromEntries(Object.keys(EMPTY_PAYOUT_FORM).map((k) => [k, field(body, k)])) as unknown as PayoutForm;
    const order = orders.add({
      reference: newReference('payout'),
      kind: 'payout',
      description: 'Payout',
      amount: values.amount,
      currency: values.currency,
      customerName: `${values.first_name} ${values.last_name}`,
    });
    let created;
    try {
      created = await pay.payouts.create({
        reference_id: order.reference,
        payment: { amount: values.amount, currency: values.currency },
        customer: {
          id: `payee-${crypto.randomUUID()}`,
          email: values.email,
          first_name: values.first_name,
          last_name: values.last_name,
          phone: { country_code: values.country_code, number: values.phone },
        },
        webhook_url: webhookUrl,
      });
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        // The client checked the fields before sending anything: show its errors next to the form.
        orders.remove(order.reference);
        return show(c, payoutPage(values, error.errors), 400);
      }
      return createFailed(c, order, error);
    }
    orders.update(order.reference, { transactionId: created.data.id });
    log(`${order.reference}: payout ${created.data.id} created`);
    return c.redirect(`/orders/${encodeURIComponent(order.reference)}`, 303);
  });

  // The webhook endpoint: the raw Request goes to @pay/webhook before anything reads its body.
  app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));

  if (options.testControls) {
    app.post('/_test/webhook-failures', bodyLimit({ maxSize: 1024, onError: (c) => c.text('Too large', 413) }), async (c) => {
      const body: unknown = await c.req.json().catch(() => undefined);
      const { count, status } = (typeof body === 'object' && body !== null ? body : {}) as { count?: unknown; status?: unknown };
      if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > 100)
        return c.json({ error: 'count must be an integer from 0 to 100' }, 400);
      if (status !== undefined && typeof status !== 'string') return c.json({ error: 'status must be a string' }, 400);
      failures.left = count as number;
      if (status === undefined) delete failures.status;
      else failures.status = status;
      return c.json({ ok: true, ...failures });
    });
  }

  app.notFound((c) => show(c, messagePage('Not found', 'There is no page here.', { href: '/', label: 'Back to the shop' }), 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse(); // an HTTPException carries its own answer
    log(`error: ${error instanceof Error ? error.name : 'unknown'} on ${c.req.method} ${c.req.path}`);
    return show(c, messagePage('Something went wrong', 'Please try again.', { href: '/', label: 'Back to the shop' }), 500);
  });

  return {
    fetch: (request, env) => app.fetch(request, env),
    webhookUrl,
    orders: { get: orders.get, list: orders.list },
  };
}
