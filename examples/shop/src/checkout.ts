// The two ways to buy a product: the hosted payment page (`POST /checkout`: save the order, create
// the payin, send the customer to next_action.url) and the card form (`POST /checkout/card`:
// create a card payin and push the card server-side with the simplified signature).
import type { HttpBindings } from '@hono/node-server';
import { isPayError } from '@pay/client';
import type { Context } from 'hono';
import { CUSTOMER, PRODUCTS, type Product, TEST_CARDS, testCardExpiry } from './catalog.js';
import { createFailed } from './create-failed.js';
import { customerIp, field, newReference } from './form-fields.js';
import { messagePage } from './pages.js';
import { type RouteContext, show } from './route-context.js';

type ShopContext = Context<{ Bindings: HttpBindings }>;

const CSC = '123';
const customerName = `${CUSTOMER.first_name} ${CUSTOMER.last_name}`;

const isWebUrl = (value: string) => /^https?:\/\//i.test(value);

/** Adds both checkout routes. */
export function addCheckoutRoutes(shop: RouteContext): void {
  shop.app.post('/checkout', ...shop.form, (c) => checkout(shop, c));
  shop.app.post('/checkout/card', ...shop.form, (c) => checkoutCard(shop, c));
}

/** The payin fields every checkout sends: who pays, from where, and where to come back to. */
function payinFields(shop: RouteContext, c: ShopContext, reference: string) {
  const order = `${shop.publicUrl}/orders/${encodeURIComponent(reference)}`;
  return {
    reference_id: reference,
    customer: CUSTOMER,
    browser_data: { user_agent: (c.req.header('user-agent') ?? 'unknown').slice(0, 512), ip_address: customerIp(c) ?? '' },
    webhook_url: shop.webhookUrl,
    redirect_urls: { success: `${order}/success`, fail: `${order}/fail` },
  };
}

/** The order for one product bought by the shop's customer, paid as `kind`. */
const productOrder = (reference: string, kind: 'payin' | 'card', product: Product) =>
  ({ reference, kind, description: product.name, amount: product.price, currency: product.currency, customerName }) as const;

/** Shown when the create answered without an address to send the customer to. */
const unavailable = (c: Context, title: string, text: string) =>
  show(c, messagePage(title, `Your order is saved but ${text} Please try again.`, { href: '/', label: 'Back to the shop' }), 502);

// The hosted payment page: save the order, create the payin, send the customer to next_action.url.
async function checkout(shop: RouteContext, c: ShopContext): Promise<Response> {
  const { journal, orders } = shop.payments;
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
      journal.payins.enqueue(query, { ...payinFields(shop, c, reference), payment: { amount: product.price, currency: product.currency } }),
    );
    created = await journal.payins.send(reference);
  } catch (error) {
    return createFailed(shop, c, 'payin', reference, error);
  }
  // Null after a lost answer found by a lookup (lookups carry no next_action): no page to send to.
  const next = created.transaction.nextAction;
  if (next?.type !== 'redirect' || !isWebUrl(next.url)) {
    shop.log(`${reference}: created, but no payment page address to redirect to`);
    return unavailable(c, 'Payment page unavailable', 'the payment page could not be opened.');
  }
  shop.log(`${reference}: payin ${created.transaction.id} created, customer sent to the payment page`);
  return c.redirect(next.url, 303);
}

// Card checkout: create a card payin, push the card server-side with the simplified signature.
// The page offers test cards by name; their numbers never leave the server except to the card proxy.
async function checkoutCard(shop: RouteContext, c: ShopContext): Promise<Response> {
  const { client, journal, orders } = shop.payments;
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
        ...payinFields(shop, c, reference),
        payment: { amount: product.price, currency: product.currency },
        method: 'card',
      }),
    );
    created = await journal.payins.send(reference);
  } catch (error) {
    return createFailed(shop, c, 'payin', reference, error);
  }
  const orderUrl = `/orders/${encodeURIComponent(reference)}`;
  const next = created.transaction.nextAction;
  if (next?.type !== 'card_push') {
    shop.log(`${reference}: created, but no card push address`);
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
    shop.log(`${reference}: card push failed (${error.name}): ${error.message}`);
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
}
