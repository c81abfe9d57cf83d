// The shop's side of the payments service, recorded in its own database: the client, the journal
// (creates that survive crashes, the webhook inbox, recovery) with the handler that moves orders,
// and the reconciler, which looks up transactions whose webhooks never arrived. Opened once at
// start-up, in this order: database, journal, the shop's table, recovery, the reconciler.
import { type Client, type ClientOptions, createClient } from '@pay/client';
import { type Journal, openJournal } from '@pay/journal';
import type { ShopConfig } from './config.js';
import { openDatabase } from './database.js';
import { handledLine, reportLine } from './log.js';
import { applyEvent, JOURNAL_TABLES, ORDERS_MIGRATION, type OrderBook, orderBook } from './orders.js';
import { followSandboxClock } from './sandbox-clock.js';
import type { WebhookFailures } from './test-controls.js';

/** What `openPayments` needs. */
export interface PaymentsOptions
  extends Pick<ShopConfig, 'baseUrl' | 'cardProxyUrl' | 'merchantId' | 'secret' | 'allowHttpHosts' | 'database' | 'sandboxClock'> {
  log: (line: string) => void;
  /** Time limits of @pay/client, if its defaults do not suit (tests shorten them with the sandbox's tolerance). */
  client?: Pick<ClientOptions, 'timeoutMs' | 'totalTimeoutMs' | 'toleranceSeconds' | 'settleSeconds'>;
  /** How often the reconciler runs a pass, ms (tests shorten it). */
  reconcileEveryMs?: number;
  /** The test control that fails webhooks on purpose. */
  failures?: WebhookFailures;
}

/** The shop's payments, open. */
export interface Payments {
  client: Client;
  journal: Journal;
  orders: OrderBook;
  /** The database, in words (never its URL). */
  database: string;
  /** Stops the reconciler, then closes the database. */
  close(): Promise<void>;
}

/**
 * Against the sandbox its clock drives the journal, whose reconciler then looks often: the clock
 * jumps. Every second: a move on the dashboard reaches the reconciler's lookups within about two
 * (a read of the clock, then a pass), where every 5 s took up to ten; a pass with nothing due is a
 * few statements on the embedded database.
 */
const SANDBOX_RECONCILE_EVERY_MS = 1_000;

export async function openPayments(options: PaymentsOptions): Promise<Payments> {
  const { log } = options;
  const client = createClient({
    baseUrl: options.baseUrl,
    cardProxyUrl: options.cardProxyUrl,
    merchantId: options.merchantId,
    secret: options.secret,
    allowHttpHosts: options.allowHttpHosts,
    ...options.client,
  });
  const everyMs = options.reconcileEveryMs ?? (options.sandboxClock ? SANDBOX_RECONCILE_EVERY_MS : undefined);
  // Against the sandbox, the journal runs on the sandbox's clock (read as often as the reconciler looks).
  const sandboxClock = options.sandboxClock ? await followSandboxClock(options.baseUrl, everyMs ?? SANDBOX_RECONCILE_EVERY_MS) : undefined;
  const db = await openDatabase(options.database, log);
  try {
    const journal = await openJournal({
      client,
      clock: sandboxClock?.clock,
      ...db.journalOptions,
      ...JOURNAL_TABLES,
      // Once per (transaction, status), inside the transaction that records it: the order changes
      // with the event or not at all. A throw rolls both back; a webhook is then answered 500 and
      // retried. (The line is logged before the commit: a rolled-back event is handled, and
      // logged, again when it comes back.)
      handler: async (event, query) => {
        options.failures?.failIfAsked(event);
        log(handledLine(event, await applyEvent(event, query)));
      },
      onReport: (report) => {
        const line = reportLine(report);
        if (line !== undefined) log(line);
      },
    });
    await journal.transaction(async (query) => {
      // Instances starting at once: one creates the table, the others wait here and find it.
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', ['shop.orders migration']);
      await query(ORDERS_MIGRATION);
    });
    // Creates a crash left in flight or whose answer was lost, decided now where they can be;
    // the reconciler's passes (each starts with a recover()) decide the others when due.
    const recovered = await journal.recover();
    if (recovered.sent + recovered.created + recovered.notCreated + recovered.waiting > 0) {
      log(
        `recovery at start-up: ${recovered.sent} sent, ${recovered.created} created, ${recovered.notCreated} not created, ${recovered.waiting} still waiting`,
      );
    }
    const reconciler = journal.reconciler(everyMs === undefined ? {} : { everyMs });
    reconciler.start();
    return {
      client,
      journal,
      orders: orderBook(journal),
      database: db.description,
      close: async () => {
        await reconciler.stop();
        sandboxClock?.stop();
        await journal.close();
        await db.close();
      },
    };
  } catch (error) {
    sandboxClock?.stop();
    await db.close();
    throw error;
  }
}
