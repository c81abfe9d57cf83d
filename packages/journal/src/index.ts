/**
 * `@pay/journal`: the merchant's durable record of payins and payouts, on PostgreSQL 13+ (your
 * `pg` Pool or postgres.js instance) or PGlite. Creates whose intent commits before the request
 * leaves, recover() for whatever a crash left in flight, an inbox that hands each (transaction,
 * status) to your handler once inside the transaction that records it, one status order, and a
 * reconciler that looks up what the webhooks missed.
 * @module
 */
export type { PgClientLike, PgPoolLike } from './adapters/pg.js';
export type { PGliteLike } from './adapters/pglite.js';
export type { PostgresJsLike, PostgresJsQueries } from './adapters/postgres.js';
export type { DatabaseLike, EmbeddedDatabaseOptions } from './connect.js';
export { startEmbeddedDatabase } from './connect.js';

export type { DatabaseFailure, JournalErrorCode, Kind } from './errors.js';
export {
  CreateInFlightError,
  CreateRefusedError,
  DatabaseError,
  DriverMissingError,
  HandlerFailedError,
  isJournalError,
  JournalError,
  NotRecordedError,
  ReferenceConflictError,
  UnknownTransactionError,
  LookupFailedError,
} from './errors.js';
export type { EventHandler, EventSource, JournalEvent } from './handler.js';
export type { Journal, JournalOptions } from './journal.js';
export { openJournal } from './journal.js';
export { LATEST_MIGRATION } from './migrations.js';
export type { JournalCreateResult, RecordedTransaction } from './recorded.js';
export type { Query, Row } from './port.js';
export type { IntentState } from './intent-states.js';
export type { RecordedIntent, RecordedStatus } from './read.js';
export type { Reconciler } from './reconciler/loop.js';
export type { ReconcilerOptions } from './reconciler/options.js';
export type { ReconcileSummary } from './reconciler/pass.js';
export type { RecoverOptions, RecoverySummary } from './recover.js';
export type {
  CheckReport,
  EmbeddedDatabaseReport,
  EventReport,
  GiveUpReport,
  JournalReport,
  PassFailedReport,
  RateLimitedReport,
  ReportedTransaction,
} from './report.js';
export type { EventOutcome } from './status-order.js';
export type { JournalWebhookOptions } from './webhook.js';
