// What the journal did, for logs and metrics: one report per recorded event (where it came from
// and what it did to the transaction) and per reconciler step. Reports are made after the
// database transaction commits, so they never describe work that rolled back. They carry ids,
// reference_ids, statuses and counts: nothing secret, no body, no card data. This file says what
// a report is; reporter.ts hands each to `onReport` and to OpenTelemetry (telemetry.ts).
import type { Kind } from './errors.js';
import type { EventSource } from './handler.js';
import type { EventOutcome } from './status-order.js';

/** The transaction a report is about. */
export interface ReportedTransaction {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The service's transaction id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
}

/** A (transaction, status) recorded: committed, and handed to the handler unless duplicate or stale. */
export interface EventReport extends ReportedTransaction {
  readonly type: 'event';
  /** The status it reported. */
  readonly status: string;
  /** What brought it. */
  readonly source: EventSource;
  /** What it did: a change, delivered after a terminal status, stale, or a duplicate (acknowledged, not handled). */
  readonly outcome: EventOutcome;
}

/** The reconciler looked a transaction up. */
export interface CheckReport extends ReportedTransaction {
  readonly type: 'check';
  /**
   * `changed`: the service has a status the journal did not (recorded as an event, reported too);
   * `unchanged`: nothing new; `not_found`: the service does not know the id (404); `failed`: the
   * lookup or the recording failed (`reason` says why).
   */
  readonly result: 'changed' | 'unchanged' | 'not_found' | 'failed';
  /** The status the service answered, when it answered one. */
  readonly status?: string;
  /** Why it failed, for `failed`. */
  readonly reason?: string;
  /** Lookups of this transaction so far, this one included. */
  readonly checks: number;
  /** When it is looked up next, on the reconciler's clock; null when it needs no more lookups. */
  readonly nextAt: Date | null;
}

/** The reconciler stopped looking a transaction up: older than `giveUpMs` and still not terminal. */
export interface GiveUpReport extends ReportedTransaction {
  readonly type: 'give_up';
  /** The status recorded when it gave up. */
  readonly status: string | null;
  /** Lookups made. */
  readonly checks: number;
}

/** The service answered a lookup with 429: the reconciler ended its pass early. */
export interface RateLimitedReport {
  readonly type: 'rate_limited';
}

/** A pass of the reconciler's loop failed (the database, most often); the loop goes on. */
export interface PassFailedReport {
  readonly type: 'pass_failed';
  /** The error's name and message. */
  readonly reason: string;
}

/**
 * The embedded PGlite (no `database` given) is starting, or is ready: a first start takes seconds
 * (more on a loaded machine), so it is said rather than left silent. Without `onReport`, the
 * journal writes these two lines to standard error itself.
 */
export interface EmbeddedDatabaseReport {
  readonly type: 'embedded_database';
  readonly state: 'starting' | 'ready';
  /** Where it keeps its files; null in memory. */
  readonly dataDir: string | null;
  /** For `ready`: how long the start took, ms. */
  readonly ms?: number;
  /**
   * For `ready`, when a new cluster was needed (in memory, or an empty data directory): `copied`
   * from the one kept in the user's cache directory (`$XDG_CACHE_HOME/pay-journal`, else
   * `~/.cache/pay-journal`), or `made` by initdb (the slow path), and `made_and_kept` when it was
   * also kept there for the next start. Absent when an existing data directory was opened.
   */
  readonly cluster?: 'copied' | 'made' | 'made_and_kept';
  /**
   * For `ready`, when the cache directory or the cluster kept in it was not used because another
   * account could have written it (or, without `process.getuid`, as on Windows, because that
   * cannot be checked): what was wrong, and where, e.g. `/home/me/.cache/pay-journal is writable
   * by its group`. The cluster was then made by initdb. A kept cluster is a whole database whose
   * code would run with the journal's rights, so it is taken only from a directory and a file that
   * are the user's alone (see the README).
   */
  readonly cacheRefused?: string;
}

/** Anything the journal reports, told apart by `type`. */
export type JournalReport = EventReport | CheckReport | GiveUpReport | RateLimitedReport | PassFailedReport | EmbeddedDatabaseReport;
