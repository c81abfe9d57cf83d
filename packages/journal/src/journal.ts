// openJournal: the journal of one instance. Connects (the merchant's database, or an embedded
// PGlite), applies the migrations, and hands out creates that survive crashes, recover(), and
// the webhook inbox, all over one event path into the merchant's handler.
import type { Client } from '@pay/client';
import { type Clock, clockOption } from '@pay/clock';
import type { CreatePayinRequest, CreatePayoutRequest, CreatePayoutRequestPaymentPage } from '@pay/schema';
import { connect, type DatabaseLike } from './connect.js';
import type { Context } from './context.js';
import type { JournalCreateResult } from './recorded.js';
import { creates } from './creates.js';
import type { Kind } from './errors.js';
import { guard } from './guard.js';
import type { EventHandler } from './handler.js';
import { inFlightLeaseMs, lookupLeaseMs } from './leases.js';
import { applyMigrations } from './migrations.js';
import { namesFor } from './names.js';
import { wholeOption } from './options.js';
import type { Query } from './port.js';
import { type RecordedIntent, type RecordedStatus, readers } from './read.js';
import type { RecordedTransaction } from './recorded.js';
import { reconciler } from './reconciler/loop.js';
import type { Reconciler } from './reconciler/loop.js';
import type { ReconcilerOptions } from './reconciler/options.js';
import type { RecoverOptions, RecoverySummary } from './recover.js';
import { recovery } from './recover.js';
import type { EmbeddedDatabaseReport, JournalReport } from './report.js';
import { reporter } from './reporter.js';
import type { JournalWebhookOptions } from './webhook.js';
import { webhookOptions } from './webhook.js';

/** Options of {@link openJournal}. */
export interface JournalOptions {
  /** The client creates and lookups go through (`createClient` of `@pay/client`). */
  client: Client;
  /**
   * Your database: a `pg` Pool, a postgres.js instance or a PGlite instance (left open by
   * `close()`). Default: an embedded PGlite, in memory or in `dataDir`, closed by `close()`.
   */
  database?: DatabaseLike | undefined;
  /** Where the embedded PGlite keeps its files (default: in memory). Only without `database`. */
  dataDir?: string | undefined;
  /** The schema of the journal's tables (default `public`; created if missing). */
  schema?: string | undefined;
  /** The prefix of the journal's tables and function (default `pay_`). */
  prefix?: string | undefined;
  /** Called once per (transaction, status) inside the transaction that records it; see {@link EventHandler}. */
  handler?: EventHandler | undefined;
  /**
   * How long a create stays in flight before recover() may decide it, ms. It must outlast the
   * client's whole call and the time after it until no attempt can still be accepted. Default:
   * from the client's own `limits`, `totalTimeoutMs + (toleranceSeconds + 1 + settleSeconds) * 1000`
   * plus 10 s for clocks that differ (201 000 with the client's defaults).
   */
  inFlightLeaseMs?: number | undefined;
  /**
   * How long a create recorded with `enqueue` is left to `send` (by the process that enqueued it)
   * before `recover()`, on any instance, sends it, ms (default 10 000).
   */
  sendQueuedAfterMs?: number | undefined;
  /**
   * How long recover() holds an intent it is deciding, ms: one lookup, renewed as its batch goes,
   * so a killed instance's intents come back within it. Default: the client's whole call
   * (`limits.totalTimeoutMs`) plus 10 s (130 000 with the client's defaults).
   */
  recoveryLeaseMs?: number | undefined;
  /**
   * Longest wait for one database call (a statement or a whole transaction), ms (default 10 000).
   * Real time whatever the `clock`: it bounds the database's I/O, as a socket's deadline does.
   */
  timeoutMs?: number | undefined;
  /**
   * The clock every time the journal decides by comes from (default: the real one, `systemClock`
   * of `@pay/clock`): the times it writes (an intent's lease and decidable time, a transaction's
   * events, the reconciler's schedule; passed to each statement, never the database's `now()`),
   * the reconciler's loop and pacing, and lease renewals. Background work is tracked on it
   * (`journal.reconcile`, `journal.recover`, `journal.send`, `journal.inbox`), so a test clock
   * (`createTestClock` of `@pay/clock/test-clock`) waits for it before moving on. Give the client
   * (`createClient({ clock })`) the same clock: the journal passes it to nothing else, and a
   * client's `decidableAt` must be a time of this clock.
   */
  clock?: Clock | undefined;
  /**
   * What the journal did, for logs and metrics: each event recorded (its source and outcome) and
   * each reconciler step, after it commits. Nothing secret is in a report; a throw is ignored.
   */
  onReport?: ((report: JournalReport) => void) | undefined;
}

/** An open journal. */
export interface Journal {
  /** Payin creates through the journal. */
  readonly payins: {
    /** Creates a payin once, recorded before and after; see the README. */
    create(body: CreatePayinRequest): Promise<JournalCreateResult>;
    /**
     * Records a payin create in your own database transaction (`query` runs a statement in it and
     * resolves with its rows, such as the one `journal.transaction` gives): it commits or rolls
     * back with your writes, and nothing is sent yet. Send it after your commit with `send`; if
     * the process dies first, `recover()` on any instance sends it. Checked by the client's rules
     * now (InvalidRequestError); resolves with its reference_id (the body's, or one generated).
     */
    enqueue(query: Query, body: CreatePayinRequest): Promise<{ referenceId: string }>;
    /** Sends the payin create queued under `referenceId` (once, whoever calls), and records it as `create` does. */
    send(referenceId: string): Promise<JournalCreateResult>;
    /** The payin recorded under `referenceId`, or undefined. */
    get(referenceId: string): Promise<RecordedTransaction | undefined>;
    /** Where the payin create under `referenceId` stands (in flight, unknown, created, not created), or undefined. */
    intent(referenceId: string): Promise<RecordedIntent | undefined>;
  };
  /** Payout creates through the journal. */
  readonly payouts: {
    /** Creates a payout once, recorded before and after; `paymentPage` as in the client. */
    create(
      body: CreatePayoutRequest | CreatePayoutRequestPaymentPage,
      options?: { paymentPage?: boolean | undefined },
    ): Promise<JournalCreateResult>;
    /** Records a payout create in your own database transaction, as `payins.enqueue` does; `paymentPage` as in the client. */
    enqueue(
      query: Query,
      body: CreatePayoutRequest | CreatePayoutRequestPaymentPage,
      options?: { paymentPage?: boolean | undefined },
    ): Promise<{ referenceId: string }>;
    /** Sends the payout create queued under `referenceId`, as `payins.send` does. */
    send(referenceId: string): Promise<JournalCreateResult>;
    /** The payout recorded under `referenceId`, or undefined. */
    get(referenceId: string): Promise<RecordedTransaction | undefined>;
    /** Where the payout create under `referenceId` stands (in flight, unknown, created, not created), or undefined. */
    intent(referenceId: string): Promise<RecordedIntent | undefined>;
  };
  /**
   * Every status recorded for the transaction `id`, oldest first: what brought each (the create's
   * answer, a webhook, recovery, the reconciler) and what it did (a change, delivered after a
   * terminal status, stale). Empty for a transaction the journal does not know.
   */
  history(kind: Kind, id: string): Promise<RecordedStatus[]>;
  /** Decides every intent left in flight or unknown that can be decided now; safe on every instance at once. */
  recover(options?: RecoverOptions): Promise<RecoverySummary>;
  /**
   * A reconciler: looks up transactions with no terminal status on a schedule and records what
   * the webhooks missed; safe on every instance at once. See the README for the defaults.
   */
  reconciler(options?: ReconcilerOptions): Reconciler;
  /** Options for any `webhookHandler` of `@pay/webhook`: `webhookHandler({ merchantId, secret, url, ...journal.webhook() })`. */
  webhook(): JournalWebhookOptions;
  /** Runs `work` in one database transaction of the journal's database (for your own reads and writes). */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Closes the embedded PGlite, if the journal opened it. */
  close(): Promise<void>;
}

/**
 * Without onReport, the embedded database's slow start is said on the console: two lines, on
 * standard error, so a program's own output stays its own.
 */
function sayOnConsole(r: EmbeddedDatabaseReport): void {
  const where = r.dataDir === null ? 'in memory' : `in ${r.dataDir}`;
  const how =
    r.cluster === 'copied'
      ? ', from the cluster kept in the cache directory'
      : r.cluster === 'made_and_kept'
        ? '; its new cluster is kept in the cache directory, so the next start is faster'
        : '';
  const refused = r.cacheRefused === undefined ? '' : `; the kept cluster was not used: ${r.cacheRefused}`;
  console.error(
    r.state === 'starting'
      ? `@pay/journal: starting the embedded PGlite (${where}); a first start takes a few seconds`
      : `@pay/journal: the embedded PGlite is ready (${((r.ms ?? 0) / 1000).toFixed(1)} s)${refused}${how}`,
  );
}

/**
 * Opens a journal: connects, applies the migrations (safe from several instances at once), and
 * returns it. Call `recover()` at start-up and now and then.
 *
 * @throws TypeError for unusable options; DriverMissingError when the embedded PGlite is needed
 * and not installed; DatabaseError when the database fails.
 * @example
 * ```ts
 * const journal = await openJournal({ client, database: pool, handler: async (event, query) => {
 *   await query('UPDATE orders SET paid = true WHERE id = $1', [event.referenceId]);
 * } });
 * await journal.recover();
 * ```
 */
export async function openJournal(options: JournalOptions): Promise<Journal> {
  if (options === null || typeof options !== 'object') throw new TypeError('openJournal needs an object of options');
  const client = options.client;
  if (client === null || typeof client !== 'object' || typeof client.payins?.create !== 'function') {
    throw new TypeError('client must be a client of @pay/client (createClient)');
  }
  // The leases are sized from the client's own limits; a client that does not say them (a copy of
  // @pay/client older than `limits`) would leave them to a guess.
  if (client.limits === null || typeof client.limits !== 'object' || typeof client.limits.totalTimeoutMs !== 'number') {
    throw new TypeError(
      'client.limits is missing: the journal sizes its leases from them; use a client of @pay/client from the same release',
    );
  }
  // A queued create is checked by the client's own rules when it is kept (enqueue); a client that
  // cannot say them (a copy of @pay/client older than `check`) would let a body it refuses be kept.
  if (typeof client.payins.check !== 'function' || typeof client.payouts?.check !== 'function') {
    throw new TypeError(
      "client.payins.check is missing: the journal checks a queued create by the client's own rules; use a client of @pay/client from the same release",
    );
  }
  if (options.handler !== undefined && typeof options.handler !== 'function') throw new TypeError('handler must be a function');
  if (options.onReport !== undefined && typeof options.onReport !== 'function') throw new TypeError('onReport must be a function');
  const clock = clockOption(options.clock);
  const names = namesFor(options.schema, options.prefix);
  const timeoutMs = wholeOption(options.timeoutMs, 'timeoutMs', 10_000);
  const report = reporter(options.onReport);
  const port = await connect(options.database, options.dataDir, options.onReport === undefined ? sayOnConsole : report);
  const db = guard(port, timeoutMs);
  await applyMigrations(db, names);
  const ctx: Context = {
    db,
    names,
    client,
    handler: options.handler,
    clock,
    owner: globalThis.crypto.randomUUID(),
    inFlightLeaseMs: wholeOption(options.inFlightLeaseMs, 'inFlightLeaseMs', inFlightLeaseMs(client)),
    sendQueuedAfterMs: wholeOption(options.sendQueuedAfterMs, 'sendQueuedAfterMs', 10_000),
    recoveryLeaseMs: wholeOption(options.recoveryLeaseMs, 'recoveryLeaseMs', lookupLeaseMs(client)),
    report,
    embedded: port.driver === 'pglite',
  };
  const { create, enqueue, send } = creates(ctx);
  const recover = recovery(ctx, send);
  const { intent, history } = readers(ctx);
  /** The transaction of a created intent: what `intent` says of it, nothing more. */
  const get = async (kind: Kind, referenceId: string) => (await intent(kind, referenceId))?.transaction ?? undefined;
  const paymentPageOf = (o: { paymentPage?: boolean | undefined } | undefined) => o?.paymentPage === true;
  type Body = Record<string, unknown>;
  return Object.freeze({
    payins: Object.freeze({
      create: (body: CreatePayinRequest) => create('payin', body as unknown as Body, false),
      enqueue: (query: Query, body: CreatePayinRequest) => enqueue(query, 'payin', body as unknown as Body, false),
      send: (referenceId: string) => send('payin', referenceId),
      get: (referenceId: string) => get('payin', referenceId),
      intent: (referenceId: string) => intent('payin', referenceId),
    }),
    payouts: Object.freeze({
      create: (body: CreatePayoutRequest | CreatePayoutRequestPaymentPage, o?: { paymentPage?: boolean | undefined }) =>
        create('payout', body as unknown as Body, paymentPageOf(o)),
      enqueue: (query: Query, body: CreatePayoutRequest | CreatePayoutRequestPaymentPage, o?: { paymentPage?: boolean | undefined }) =>
        enqueue(query, 'payout', body as unknown as Body, paymentPageOf(o)),
      send: (referenceId: string) => send('payout', referenceId),
      get: (referenceId: string) => get('payout', referenceId),
      intent: (referenceId: string) => intent('payout', referenceId),
    }),
    history,
    recover,
    reconciler: (o?: ReconcilerOptions) => reconciler(ctx, () => recover(), o),
    webhook: () => webhookOptions(ctx),
    transaction: <T>(work: (query: Query) => Promise<T>) => db.transaction('your transaction', work),
    close: () => port.close(),
  });
}
