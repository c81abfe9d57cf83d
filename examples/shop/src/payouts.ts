// The payout form: `GET /payouts/new` shows it, `POST /payouts` checks it, saves the order with
// its payout and sends the payout.
import { isPayError } from '@pay/client';
import { CreatePayoutRequest, validate } from '@pay/schema';
import type { Context } from 'hono';
import { createFailed } from './create-failed.js';
import { field, newReference } from './form-fields.js';
import { EMPTY_PAYOUT_FORM, type PayoutForm, payoutPage } from './pages.js';
import { type RouteContext, show } from './route-context.js';

/** Adds the payout form's two routes. */
export function addPayoutRoutes(shop: RouteContext): void {
  shop.app.get('/payouts/new', (c) => show(c, payoutPage(EMPTY_PAYOUT_FORM)));
  shop.app.post('/payouts', ...shop.form, (c) => sendPayout(shop, c));
}

async function sendPayout(shop: RouteContext, c: Context): Promise<Response> {
  const { journal, orders } = shop.payments;
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
    webhook_url: shop.webhookUrl,
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
    return createFailed(shop, c, 'payout', reference, error);
  }
  let created;
  try {
    created = await journal.payouts.send(reference);
  } catch (error) {
    return createFailed(shop, c, 'payout', reference, error);
  }
  shop.log(`${reference}: payout ${created.transaction.id} created`);
  return c.redirect(`/orders/${encodeURIComponent(reference)}`, 303);
}
