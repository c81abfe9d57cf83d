// The SQL port: the two things the journal asks of a database, declared once. Each driver (pg,
// postgres.js, PGlite) is an adapter in adapters/ that implements exactly this, so the journal's
// SQL and logic never know which one they run on.

/** One row of a result, column name to value (numeric and timestamp columns are read as text). */
export type Row = Record<string, unknown>;

/**
 * Runs one statement with `$1`-style parameters and resolves with its rows. The function a
 * handler receives inside a journal transaction: its writes commit or roll back with the event.
 */
export type Query = (text: string, params?: readonly unknown[]) => Promise<Row[]>;

/**
 * Starts a statement of the journal's own whose text never changes while it runs (the event path's
 * one call): an adapter may prepare it once per connection instead of parsing and planning it on
 * every call. Statements without it (the merchant's, in a handler) are never prepared: their texts
 * are not the journal's to keep on every connection.
 */
export const PREPARE = '/* @pay/journal: prepare */ ';

/** A database as the journal uses it: statements, and transactions on one connection. */
export interface SqlPort {
  /** Runs one statement outside any transaction (on any connection of a pool). */
  query: Query;
  /**
   * Runs `work` inside one transaction (BEGIN ... COMMIT) on one connection, with that
   * transaction's query function; rolls back and rejects when `work` rejects, or when
   * `control.commit()` says no right before COMMIT.
   */
  transaction<T>(work: (query: Query) => Promise<T>, control: TransactionControl): Promise<T>;
  /** Which driver this is, for messages. */
  readonly driver: 'pg' | 'postgres' | 'pglite';
  /** Releases what the journal itself opened (the embedded PGlite); a database you passed in stays open. */
  close(): Promise<void>;
}

/**
 * What the journal asks of every transaction beyond BEGIN and COMMIT, so that a transaction whose
 * caller has already been answered with a timeout can never commit afterwards.
 */
interface TransactionControl {
  /**
   * The server-side limits, ms: set with `SET LOCAL` at BEGIN (see {@link serverLimits}), so the
   * server itself cancels a statement that runs too long.
   */
  readonly timeoutMs: number;
  /**
   * Asked right before COMMIT is sent. False: the caller has been answered (timed out), so the
   * adapter must roll back instead. True: from now on the COMMIT's own answer decides.
   */
  commit(): boolean;
  /**
   * Aborted when the caller has been answered with a timeout before the work finished (a handler
   * that hangs, a statement that never returns): the adapter must end the transaction at once,
   * without waiting for the work (see {@link untilAborted}), and give the connection back or
   * destroy it, so the next call finds the database usable.
   */
  readonly signal: AbortSignal;
  /**
   * What the transaction runs beside its work, when the journal asks for it (the transactions a
   * handler runs in: see session-restore.ts). Absent: BEGIN and COMMIT alone.
   */
  readonly bracket?: Bracket;
}

/**
 * Statements run around a transaction's work, in the round trips of BEGIN and COMMIT where the
 * driver allows, so that they cost the server's time but no round trip of their own.
 */
export interface Bracket {
  /**
   * A statement (no parameters) an adapter with round trips to save runs right after BEGIN, in
   * the same message; its rows are handed to {@link Bracket.begun}. An adapter without (PGlite, in
   * this process) may skip it: the work then asks for the same when it needs it.
   */
  readonly atBegin: string;
  /** The rows of `atBegin`. */
  begun(rows: Row[]): void;
  /**
   * Asked right before COMMIT, once `commit()` said yes: a statement (no parameters) to run first,
   * in the same message as COMMIT where the driver allows, or undefined. It may throw: the
   * transaction then rolls back.
   */
  beforeCommit(): string | undefined;
}

/**
 * `work`, unless `signal` aborts first: then an {@link Abandoned} rejection, so the adapter rolls
 * back now. The work itself may go on, but every statement it sends from then on is refused.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Abandoned());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Abandoned());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The statements that bound one transaction on a PostgreSQL server (simple protocol, no
 * parameters): `statement_timeout` cancels a statement that runs too long, and, with `idleSession`,
 * `idle_in_transaction_session_timeout` ends a session left idle inside the transaction (a
 * stalled process holding the transaction's row locks).
 */
export function serverLimits(timeoutMs: number, idleSession: boolean): string {
  const ms = Math.trunc(timeoutMs); // a whole number checked by openJournal: nothing else is interpolated
  const statement = `SET LOCAL statement_timeout = ${ms}`;
  return idleSession ? `${statement}; SET LOCAL idle_in_transaction_session_timeout = ${ms}` : statement;
}

/** Thrown inside an adapter's transaction when `commit()` said no: it only makes the transaction roll back. */
export class Abandoned extends Error {
  override name = 'Abandoned';
  constructor() {
    super('the caller was answered before COMMIT; rolled back');
  }
}
