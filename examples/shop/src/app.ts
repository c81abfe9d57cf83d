// The shop as a Hono app: `Request` in, `Response` out. Creates go through the journal (recorded
// before the request leaves, sent exactly once by @pay/client), webhooks through @pay/webhook into
// the journal's inbox, and orders live in the journal's database: see payments.ts and orders.ts.
import type { HttpBindings } from '@hono/node-server';
import { isPayError } from '@pay/client';
import { isJournalError } from '@pay/journal';
import { CreatePayoutRequest, type TransactionKind, validate } from '@pay/schema';
import { webhookHandler } from '@pay/webhook/fetch';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { CUSTOMER, PRODUCTS, type Product, TEST_CARDS, testCardExpiry } from './catalog.js';
import { shopNames } from './hosts.js';
import type { Html } from './html.js';
import {
  EMPTY_PAYOUT_FORM,
  messagePage,
  orderPage,
  ordersPage,
  payoutPage,
  productPage,
  RELOADS,
  reloadsDone,
  type Arrival,
  type PayoutForm,
} from './pages.js';
import type { Payments } from './payments.js';
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

/** Creates the shop. @throws TypeError for unusable options (from @pay/webhook). */
export function createShop(options: ShopOptions): Shop {
  const { publicUrl } = options;
  const { client, journal, orders } = options.payments;
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
   * The create failed. The journal has recorded what the error proves: `not_created` only when the
   * service refused it or nothing was sent, and the order goes (one never recorded, refused at
   * enqueue, rolled back with its order). Otherwise (the answer was lost, an
   * error it cannot read, or its database failed after the intent) the payment may exist: the
   * order stays, "being confirmed", and the journal decides it by its reference once it can
   * (recover() at start-up and on each reconciler pass).
   */
  async function createFailed(c: Context, kind: TransactionKind, reference: string, error: unknown): Promise<Response> {
    if (!isPayError(error) && !isJournalError(error)) throw error; // a mistake of the shop's own: a 500
    // A database that cannot tell proves nothing either: the order stays.
    const state = await (kind === 'payin' ? journal.payins : journal.payouts).intent(reference).then(
      (intent) => intent?.state ?? 'never recorded',
      () => 'unreadable',
    );
    if (state === 'not_created' || state === 'never recorded') {
      await orders.remove(reference);
      log(`${reference}: not created: ${error.message}`);
      return show(
        c,
        messagePage('Payment service unavailable', 'Nothing was charged. Please try again in a moment.', {
          href: '/',
          label: 'Back to the shop',
        }),
        502,
      );
    }
    log(`${reference}: outcome unknown (${error.name}); the journal looks it up by its reference`);
    return c.redirect(`/orders/${encodeURIComponent(reference)}`, 303);
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
  /** The order for one product bought by the shop's customer, paid as `kind`. */
  const productOrder = (reference: string, kind: 'payin' | 'card', product: Product) =>
    ({ reference, kind, description: product.name, amount: product.price, currency: product.currency, customerName }) as const;
  /** Shown when the create answered without an address to send the customer to. */
  const unavailable = (c: Context, title: string, text: string) =>
    show(c, messagePage(title, `Your order is saved but ${text} Please try again.`, { href: '/', label: 'Back to the shop' }), 502);

  // The hosted payment page: save the order, create the payin, send the customer to next_action.url.
  app.post('/checkout', ...form, async (c) => {
    const body = await c.req.parseBody();
    const product = PRODUCTS.find((p) => p.id === field(body, 'product'));
    if (product === undefined)
      return show(c, messagePage('No such product', 'Choose a product on the shop page.', { href: '/', label: 'Back to the shop' }), 400);
    const reference = newReference('order');
    // The order and its payin in one transaction, the payin sent after the commit: the journal's
    // handler moves this row when the create's answer is recorded.
    const order = productOrder(reference, 'payin', product);
    let created;
    try {
      await orders.add(order, (query) =>
        journal.payins.enqueue(query, { ...payinFields(c, reference), payment: { amount: product.price, currency: product.currency } }),
      );
      created = await journal.payins.send(reference);
    } catch (error) {
      return createFailed(c, 'payin', reference, error);
    }
    // Null after a lost answer found by a lookup (lookups carry no next_action): no page to send to.
    const next = created.transaction.nextAction;
    if (next?.type !== 'redirect' || !isWebUrl(next.url)) {
      log(`${reference}: created, but no payment page address to redirect to`);
      return unavailable(c, 'Payment page unavailable', 'the payment page could not be opened.');
    }
    log(`${reference}: payin ${created.transaction.id} created, customer sent to the payment page`);
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
    const reference = newReference('order');
    const order = { ...productOrder(reference, 'card', product), cardLast4: card.pan.slice(-4) };
    let created;
    try {
      await orders.add(order, (query) =>
        journal.payins.enqueue(query, {
          ...payinFields(c, reference),
          payment: { amount: product.price, currency: product.currency },
          method: 'card',
        }),
      );
      created = await journal.payins.send(reference);
    } catch (error) {
      return createFailed(c, 'payin', reference, error);
    }
    const orderUrl = `/orders/${encodeURIComponent(reference)}`;
    const next = created.transaction.nextAction;
    if (next?.type !== 'card_push') {
      log(`${reference}: created, but no card push address`);
      return unavailable(c, 'Card payment unavailable', 'the card could not be sent.');
    }
    let answer: unknown;
    try {
      answer = (
        await client.payins.pushCard({ payinId: created.transaction.id, url: next.url }, { pan: card.pan, ...testCardExpiry(), csc: CSC })
      ).data;
    } catch (error) {
      if (!isPayError(error)) throw error;
      // Not repeated (the token is single-use): the webhook or the reconciler tells what became of the payin.
      log(`${reference}: card push failed (${error.name}): ${error.message}`);
      return c.redirect(orderUrl, 303);
    }
    // The push answers with the payin (the interface does not show it, so it is read with care).
    // It picks the page to show; the order's status still changes only through the journal.
    const pushed = typeof answer === 'object' && answer !== null ? (answer as { status?: unknown; error_message?: unknown }) : {};
    if (pushed.status === 'failed') {
      if (typeof pushed.error_message === 'string') await orders.setFailureReason(reference, pushed.error_message);
      return c.redirect(`${orderUrl}/fail`, 303);
    }
    return c.redirect(`${orderUrl}/success`, 303);
  });

  app.get('/orders', async (c) => show(c, ordersPage(await orders.list(), reloadsDone(c.req.query(RELOADS)))));
  const orderRoute = (arrival: Arrival) => async (c: Context) => {
    const order = await orders.get(c.req.param('reference') ?? '');
    if (order === undefined)
      return show(
        c,
        messagePage('No such order', `There is no order ${c.req.param('reference') ?? ''}.`, { href: '/orders', label: 'All orders' }),
        404,
      );
    const clock = options.sandboxClock ? 'sandbox' : 'wall';
    return show(c, orderPage(order, await orders.events(order), arrival, reloadsDone(c.req.query(RELOADS)), clock));
  };
  app.get('/orders/:reference', orderRoute(undefined));
  app.get('/orders/:reference/success', orderRoute('success'));
  app.get('/orders/:reference/fail', orderRoute('fail'));

  app.get('/payouts/new', (c) => show(c, payoutPage(EMPTY_PAYOUT_FORM)));
  app.post('/payouts', ...form, async (c) => {
    const body = await c.req.parseBody();
    const values = Object.fromEntries(Object.keys(EMPTY_PAYOUT_FORM).map((k) => [k, field(body, k)])) as unknown as PayoutForm;
    const reference = newReference('payout');
    const payout = {
      reference_id: reference,
      payment: { amount: values.amount, currency: values.currency },
      customer: {
        id: `payee-${crypto.randomUUID()}`,
        email: values.email,
        first_name: values.first_name,
        last_name: values.last_name,
        phone: { country_code: values.country_code, number: values.phone },
      },
      webhook_url: webhookUrl,
    };
    // The form is checked before the order is saved, so a mistyped one leaves nothing behind. The
    // webhook URL is the shop's own: the client checks it (plain http only where allowed).
    const checked = validate(CreatePayoutRequest, payout);
    const errors = checked.ok ? [] : checked.errors.filter((e) => e.path !== 'webhook_url');
    if (errors.length > 0) return show(c, payoutPage(values, errors), 400);
    const order = {
      reference,
      kind: 'payout',
      description: 'Payout',
      amount: values.amount,
      currency: values.currency,
      customerName: `${values.first_name} ${values.last_name}`,
    } as const;
    try {
      await orders.add(order, (query) => journal.payouts.enqueue(query, payout));
    } catch (error) {
      // Refused by the client's rules at enqueue: the order rolled back with it, nothing was sent.
      if (isPayError(error, 'invalid_request')) return show(c, payoutPage(values, error.errors), 400);
      return createFailed(c, 'payout', reference, error);
    }
    let created;
    try {
      created = await journal.payouts.send(reference);
    } catch (error) {
      return createFailed(c, 'payout', reference, error);
    }
    log(`${reference}: payout ${created.transaction.id} created`);
    return c.redirect(`/orders/${encodeURIComponent(reference)}`, 303);
  });

  // The webhook endpoint: the raw Request goes to @pay/webhook before anything reads its body.
  app.post('/webhooks/pay', (c) => onWebhook(c.req.raw));

  const failures = options.failures;
  if (failures !== undefined) {
    app.post('/_test/webhook-failures', bodyLimit({ maxSize: 1024, onError: (c) => c.text('Too large', 413) }), async (c) => {
      const body: unknown = await c.req.json().catch(() => undefined);
      const { count, status } = (typeof body === 'object' && body !== null ? body : {}) as { count?: unknown; status?: unknown };
      if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > 100)
        return c.json({ error: 'count must be an integer from 0 to 100' }, 400);
      if (status !== undefined && typeof status !== 'string') return c.json({ error: 'status must be a string' }, 400);
      return c.json({ ok: true, ...failures.set(count as number, status) });
    });
  }

  app.notFound((c) => show(c, messagePage('Not found', 'There is no page here.', { href: '/', label: 'Back to the shop' }), 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse(); // an HTTPException carries its own answer
    log(`error: ${error instanceof Error ? error.name : 'unknown'} on ${c.req.method} ${c.req.path}`);
    return show(c, messagePage('Something went wrong', 'Please try again.', { href: '/', label: 'Back to the shop' }), 500);
  });

  return { fetch: (request, env) => app.fetch(request, env), webhookUrl };
}
