// What the shop answers when a create (a payin or a payout) failed: the journal has recorded what
// the error proves, and the order goes or stays by it.
import { isPayError } from '@pay/client';
import { isJournalError } from '@pay/journal';
import type { TransactionKind } from '@pay/schema';
import type { Context } from 'hono';
import { messagePage } from './pages.js';
import { type RouteContext, show } from './route-context.js';

/**
 * The create failed. The journal has recorded what the error proves: `not_created` only when the
 * service refused it or nothing was sent, and the order goes (one never recorded, refused at
 * enqueue, rolled back with its order). Otherwise (the answer was lost, an
 * error it cannot read, or its database failed after the intent) the payment may exist: the
 * order stays, "being confirmed", and the journal decides it by its reference once it can
 * (recover() at start-up and on each reconciler pass).
 */
export async function createFailed(
  shop: RouteContext,
  c: Context,
  kind: TransactionKind,
  reference: string,
  error: unknown,
): Promise<Response> {
  if (!isPayError(error) && !isJournalError(error)) throw error; // a mistake of the shop's own: a 500
  const { journal, orders } = shop.payments;
  // A database that cannot tell proves nothing either: the order stays.
  const state = await (kind === 'payin' ? journal.payins : journal.payouts).intent(reference).then(
    (intent) => intent?.state ?? 'never recorded',
    () => 'unreadable',
  );
  if (state === 'not_created' || state === 'never recorded') {
    await orders.remove(reference);
    shop.log(`${reference}: not created: ${error.message}`);
    return show(
      c,
      messagePage('Payment service unavailable', 'Nothing was charged. Please try again in a moment.', {
        href: '/',
        label: 'Back to the shop',
      }),
      502,
    );
  }
  shop.log(`${reference}: outcome unknown (${error.name}); the journal looks it up by its reference`);
  return c.redirect(`/orders/${encodeURIComponent(reference)}`, 303);
}
