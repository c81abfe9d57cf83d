// The shop's orders, in memory. An order's status changes only through a verified webhook: the
// customer coming back to the success page proves nothing (anyone can open that address), and a
// webhook for an order that is already paid, failed or expired changes nothing. @pay/webhook
// already skips a delivery it has processed; the order book refusing to move a final order is
// the second guard, for deliveries a restarted process no longer remembers.
import type { WebhookEvent } from '@pay/webhook';

/** How the customer pays, or a payout. */
type OrderKind = 'payin' | 'card' | 'payout';

/**
 * `pending` until a webhook settles it; `unknown` when the create's outcome could not be decided
 * (the client's OutcomeUnknownError): a webhook or a lookup settles that too.
 */
export type OrderStatus = 'pending' | 'unknown' | 'paid' | 'failed' | 'expired';

const FINAL: ReadonlySet<OrderStatus> = new Set(['paid', 'failed', 'expired']);

/** What the service's statuses mean for an order. Other statuses are recorded and change nothing. */
const FROM_SERVICE: Readonly<Record<string, OrderStatus>> = { executed: 'paid', failed: 'failed', expired: 'expired' };

/** One line of an order's history. */
interface OrderEvent {
  at: Date;
  /** Where it came from: a verified webhook, or the shop's own checkout. */
  source: 'webhook' | 'shop';
  /** The service's status for a webhook (`new`, `executed`...), else what the shop did. */
  status: string;
  note?: string;
}

export interface Order {
  /** The shop's reference, sent as `reference_id`. */
  reference: string;
  kind: OrderKind;
  description: string;
  /** Decimal string, as sent. */
  amount: string;
  currency: string;
  /** Who pays, or who is paid. */
  customerName: string;
  status: OrderStatus;
  /** The service's id, once the create answered or a webhook named it. */
  transactionId?: string;
  /** Card orders: the last four digits (never more). */
  cardLast4?: string;
  /** Why the service refused it, when it said (the card push answer does). */
  failureReason?: string;
  createdAt: Date;
  history: OrderEvent[];
}

/** What a webhook did to the order book. */
type WebhookOutcome = 'applied' | 'recorded' | 'ignored_final' | 'unknown_order' | 'other_transaction';

export interface OrderBook {
  add(order: Omit<Order, 'status' | 'createdAt' | 'history'>): Order;
  get(reference: string): Order | undefined;
  /** Newest first. */
  list(): Order[];
  /** Forgets an order whose create was refused (nothing exists at the service). */
  remove(reference: string): void;
  /** Notes what the shop learnt outside webhooks (the service's id, a decline reason...). */
  update(reference: string, changes: Partial<Pick<Order, 'transactionId' | 'failureReason' | 'status'>>, note?: string): void;
  /** Applies one verified webhook, processed once per delivery by @pay/webhook. */
  applyWebhook(event: WebhookEvent): WebhookOutcome;
}

/** The order book of one shop process. */
export function createOrderBook(now: () => Date = () => new Date()): OrderBook {
  const orders = new Map<string, Order>();
  return {
    add(fields) {
      if (orders.has(fields.reference)) throw new Error(`order ${fields.reference} exists already`);
      const order: Order = { ...fields, status: 'pending', createdAt: now(), history: [] };
      order.history.push({ at: order.createdAt, source: 'shop', status: 'created' });
      orders.set(order.reference, order);
      return order;
    },
    get: (reference) => orders.get(reference),
    list: () => [...orders.values()].reverse(),
    remove(reference) {
      orders.delete(reference);
    },
    update(reference, changes, note) {
      const order = orders.get(reference);
      if (order === undefined) return;
      Object.assign(order, changes);
      if (note !== undefined) order.history.push({ at: now(), source: 'shop', status: changes.status ?? order.status, note });
    },
    applyWebhook(event) {
      // The payload's reference_id may be missing (the service allows a create without one): then
      // the order is found by the service's id, known once the create answered.
      const order =
        typeof event.reference_id === 'string'
          ? orders.get(event.reference_id)
          : [...orders.values()].find((o) => o.transactionId === event.id);
      if (order === undefined) return 'unknown_order';
      // A reference names one transaction: a webhook for another id is not about this order.
      if (order.transactionId !== undefined && order.transactionId !== event.id) return 'other_transaction';
      order.transactionId = event.id;
      const next = FROM_SERVICE[event.status];
      const entry: OrderEvent = { at: now(), source: 'webhook', status: event.status };
      order.history.push(entry);
      if (next === undefined) {
        // `new`, or a status this shop does not know: recorded, the order stays as it is.
        if (event.status === 'new') {
          if (order.status === 'unknown') order.status = 'pending';
        } else {
          entry.note = 'a status this shop does not act on';
        }
        return 'recorded';
      }
      if (FINAL.has(order.status)) {
        entry.note = `ignored: the order is ${order.status} already`;
        return 'ignored_final';
      }
      order.status = next;
      return 'applied';
    },
  };
}
