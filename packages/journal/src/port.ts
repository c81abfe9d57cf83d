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

/** A database as the journal uses it: statements, and transactions on one connection. */
export interface SqlPort {
  /** Runs one statement outside any transaction (on any connection of a pool). */
  query: Query;
  /**
   * Runs `work` inside one transaction (BEGIN ... COMMIT) on one connection, with that
   * transaction's query function; rolls back and rejects when `work` rejects.
   */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Which driver this is, for messages. */
  readonly driver: 'pg' | 'postgres' | 'pglite';
  /** Releases what the journal itself opened (the embedded PGlite); a database you passed in stays open. */
  close(): Promise<void>;
}
