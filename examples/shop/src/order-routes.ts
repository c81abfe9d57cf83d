// The order pages: the list (`/orders`) and one order (`/orders/:reference`), also where the
// payment page sends the customer back to (`/success`, `/fail`).
import type { Context } from 'hono';
import { type Arrival, messagePage, orderPage, ordersPage, RELOADS, reloadsDone } from './pages.js';
import { type RouteContext, show } from './route-context.js';

/** Adds the order pages. */
export function addOrderRoutes(shop: RouteContext): void {
  const { orders } = shop.payments;
  shop.app.get('/orders', async (c) => show(c, ordersPage(await orders.list(), reloadsDone(c.req.query(RELOADS)))));
  const orderRoute = (arrival: Arrival) => async (c: Context) => {
    const order = await orders.get(c.req.param('reference') ?? '');
    if (order === undefined)
      return show(
        c,
        messagePage('No such order', `There is no order ${c.req.param('reference') ?? ''}.`, { href: '/orders', label: 'All orders' }),
        404,
      );
    const clock = shop.sandboxClock ? 'sandbox' : 'wall';
    return show(c, orderPage(order, await orders.events(order), arrival, reloadsDone(c.req.query(RELOADS)), clock));
  };
  shop.app.get('/orders/:reference', orderRoute(undefined));
  shop.app.get('/orders/:reference/success', orderRoute('success'));
  shop.app.get('/orders/:reference/fail', orderRoute('fail'));
}
