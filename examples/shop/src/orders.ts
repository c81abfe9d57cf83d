// The shop's orders, in a table of the journal's database (schema `shop`, beside the journal's
// own tables). The shop writes an order when the customer checks out; after that only the
// journal's handler moves its status (`applyEvent`): once per (transaction, status), inside the
// database transaction that records the event, so the order changes together with the journal's
// record or not at all. The journal keeps the status order (a late webhook never moves a paid
// order back; a duplicate never reaches the handler), so the handler only maps statuses.
import type { Journal, JournalEvent, Query, RecordedStatus, Row } from '@pay/journal';
import type { KnownStatus, TransactionKind } from '@pay/schema';

/** Where the journal's tables go: the shop's schema, with the journal's default prefix. */
export const JOURNAL_TABLES = { schema: 'shop', prefix: 'pay_' } as const;

// The shop's table. What the journal recorded (where a create stands, a transaction's history)
// is read through the journal's readers, never from its tables.
const ORDERS = `${JOURNAL_TABLES.schema}.orders`;

/** How the customer pays, or a payout. */
type OrderKind = 'payin' | 'card' | 'payout';

/**
 * `pending` (awaiting payment) until the service says otherwise. Two more are read from the
 * journal's record of the create, never stored: `unknown` while the create's outcome is not
 * decided (its answer was lost; recovery decides it), `not_created` once it is proven never made.
 */
export type OrderStatus = 'pending' | 'unknown' | 'not_created' | 'paid' | 'failed' | 'expired';

/**
 * What the service's statuses mean for an order: every status @pay/schema knows, the compiler
 * checks. Other statuses leave the order as it is.
 */
const FROM_SERVICE: Readonly<Record<string, OrderStatus>> = {
  new: 'pending',
  executed: 'paid',
  failed: 'failed',
  expired: 'expired',
} satisfies Record<KnownStatus, OrderStatus>;

/** One status of the order's transaction, as the journal recorded it (`journal.history`). */
export type OrderEvent = RecordedStatus;

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
  /** The service's id, once an event named it. */
  transactionId?: string;
  /** Card orders: the last four digits (never more). */
  cardLast4?: string;
  /** Why the service refused it, when it said (the card push answer does). */
  failureReason?: string;
  createdAt: Date;
}

/** The shop's table, created at start-up (a real shop runs its migration tool). */
export const ORDERS_MIGRATION = `
CREATE SCHEMA IF NOT EXISTS ${JOURNAL_TABLES.schema};
CREATE TABLE IF NOT EXISTS ${ORDERS} (
  reference text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('payin', 'card', 'payout')),
  description text NOT NULL,
  amount text NOT NULL,
  currency text NOT NULL,
  customer_name text NOT NULL,
  card_last4 text,
  status text NOT NULL DEFAULT 'pending',
  transaction_id text,
  failure_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);`;

/** A timestamp column as ISO 8601 in UTC, whatever the session's time zone and the driver. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SELECT_ORDER = `
SELECT reference, kind, description, amount, currency, customer_name, card_last4, transaction_id, status,
       failure_reason, ${iso('created_at')} AS created_at
  FROM ${ORDERS}`;

function toOrder(row: Row): Order {
  const optional = (column: string) => (row[column] === null ? undefined : (row[column] as string));
  const order: Order = {
    reference: row['reference'] as string,
    kind: row['kind'] as OrderKind,
    description: row['description'] as string,
    amount: row['amount'] as string,
    currency: row['currency'] as string,
    customerName: row['customer_name'] as string,
    status: row['status'] as OrderStatus,
    createdAt: new Date(row['created_at'] as string),
  };
  const transactionId = optional('transaction_id');
  const cardLast4 = optional('card_last4');
  const failureReason = optional('failure_reason');
  return {
    ...order,
    ...(transactionId === undefined ? {} : { transactionId }),
    ...(cardLast4 === undefined ? {} : { cardLast4 }),
    ...(failureReason === undefined ? {} : { failureReason }),
  };
}

/** The order book on the journal's database. */
export function orderBook(journal: Pick<Journal, 'transaction' | 'payins' | 'payouts' | 'history'>) {
  const { transaction } = journal;
  const kindOf = (order: Pick<Order, 'kind'>): TransactionKind => (order.kind === 'payout' ? 'payout' : 'payin');
  /**
   * The order with its status as the customer should see it. Before the create's answer is
   * recorded the order has no transaction id, and the journal's intent says where the create is:
   * queued, in flight or unknown (being confirmed), or not created (refused or proven missing).
   */
  const withCreateState = async (order: Order): Promise<Order> => {
    if (order.transactionId !== undefined) return order;
    const intent = await (order.kind === 'payout' ? journal.payouts : journal.payins).intent(order.reference);
    const status = intent?.state === 'queued' || intent?.state === 'in_flight' || intent?.state === 'unknown' ? 'unknown' : 'not_created';
    return { ...order, status };
  };
  return {
    /**
     * Writes a new order and, in the same transaction, its create (`enqueue`, the journal's): the
     * two commit or roll back together, and the create is sent after the commit (journal `send`,
     * or recover() if the shop dies first). A create the journal refuses leaves no order behind.
     */
    add: (
      order: Pick<Order, 'reference' | 'kind' | 'description' | 'amount' | 'currency' | 'customerName' | 'cardLast4'>,
      enqueue: (query: Query) => Promise<unknown>,
    ) =>
      transaction(async (query) => {
        await query(
          `INSERT INTO ${ORDERS} (reference, kind, description, amount, currency, customer_name, card_last4) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [order.reference, order.kind, order.description, order.amount, order.currency, order.customerName, order.cardLast4 ?? null],
        );
        await enqueue(query);
      }),
    // The readers run after the transaction that read the orders: each takes a connection of its own.
    get: async (reference: string): Promise<Order | undefined> => {
      const [row] = await transaction((query) => query(`${SELECT_ORDER} WHERE reference = $1`, [reference]));
      return row === undefined ? undefined : withCreateState(toOrder(row));
    },
    /** The newest 100 orders, newest first (a real shop pages through them). */
    list: async (): Promise<Order[]> => {
      const rows = await transaction((query) => query(`${SELECT_ORDER} ORDER BY created_at DESC, reference LIMIT 100`));
      return Promise.all(rows.map((row) => withCreateState(toOrder(row))));
    },
    /** The journal's history of the order's transaction, oldest first. */
    events: async (order: Order): Promise<OrderEvent[]> =>
      order.transactionId === undefined ? [] : journal.history(kindOf(order), order.transactionId),
    /** Forgets an order whose create was refused: nothing exists at the service. */
    remove: (reference: string) => transaction((query) => query(`DELETE FROM ${ORDERS} WHERE reference = $1`, [reference])),
    /** Notes why the service refused the payment (the card push answer says); the status stays the journal's. */
    setFailureReason: (reference: string, reason: string) =>
      transaction((query) => query(`UPDATE ${ORDERS} SET failure_reason = $2 WHERE reference = $1`, [reference, reason.slice(0, 200)])),
  };
}

/** The order book of one shop. */
export type OrderBook = ReturnType<typeof orderBook>;

/**
 * The journal's handler: moves the order of `event` with the handler's `query`, so the change
 * commits with the event. Resolves with the order's status now, or undefined when the event is
 * about no order of this shop (a transaction made elsewhere, or another transaction carrying an
 * order's reference: a reference names one transaction).
 */
export async function applyEvent(event: JournalEvent, query: Query): Promise<OrderStatus | undefined> {
  // change false: an unknown status after a terminal one, recorded but not the status.
  const next = event.change ? (FROM_SERVICE[event.status] ?? null) : null;
  const rows = await query(
    `UPDATE ${ORDERS} SET transaction_id = $3, status = COALESCE($4, status), updated_at = now()
      WHERE reference = $1 AND (kind = 'payout') = ($2 = 'payout') AND (transaction_id IS NULL OR transaction_id = $3)
      RETURNING status`,
    [event.referenceId, event.kind, event.id, next],
  );
  return rows[0]?.['status'] as OrderStatus | undefined;
}
