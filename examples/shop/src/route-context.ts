// What every group of the shop's routes is given: the app to add its routes to, the pieces of
// the shop it uses, and the two helpers all of them answer with. One home, so the route files
// (checkout.ts, payouts.ts, order-routes.ts) each hold one concern and none reaches into another.
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Html } from './html.js';
import type { Payments } from './payments.js';

/** The shop's Hono app: Node's request (for the customer's IP) travels in its bindings. */
export type ShopApp = Hono<{ Bindings: HttpBindings }>;

/** What the route files share. */
export interface RouteContext {
  readonly app: ShopApp;
  readonly payments: Pick<Payments, 'client' | 'journal' | 'orders'>;
  /** The shop's address as customers and the service reach it, without a trailing slash. */
  readonly publicUrl: string;
  /** The address given to the service as `webhook_url`. */
  readonly webhookUrl: string;
  readonly log: (line: string) => void;
  /** The journal runs on the sandbox's clock: order pages label its times so. */
  readonly sandboxClock: boolean;
  /** What every form post goes through first: the Origin check and the body limit (guards.ts). */
  readonly form: readonly [MiddlewareHandler, MiddlewareHandler];
}

/** Answers with one of the shop's pages. */
export const show = (c: Context, page: Html, status: 200 | 400 | 404 | 500 | 502 = 200) => c.html(page.value, status);
