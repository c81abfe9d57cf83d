// The node-postgres adapter: a `pg` Pool (or anything with its `connect()` / `query()` shape).
// A transaction takes one client from the pool for its whole life; a client that failed mid-way
// is destroyed rather than returned, so the next transaction never inherits a broken connection.
import { Abandoned, PREPARE, type Query, type Row, type SqlPort, serverLimits, untilAborted } from '../port.js';

/** The part of a `pg` Pool the journal uses. */
export interface PgPoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** A named statement: prepared on the connection the first time, then only bound and run. */
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: Row[] }>;
  connect(): Promise<PgClientLike>;
}

/** The part of a pooled `pg` client the journal uses. */
export interface PgClientLike {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** A named statement: prepared on the connection the first time, then only bound and run. */
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: Row[] }>;
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

/** True for a `pg` Pool by its shape: `connect`, `query`, and the pool's counters. */
export function isPgPool(db: unknown): db is PgPoolLike {
  const d = db as Partial<PgPoolLike> & { totalCount?: unknown };
  return db !== null && typeof db === 'object' && typeof d.connect === 'function' && typeof d.query === 'function' && 'totalCount' in d;
}

/** The port on a `pg` Pool. */
export function pgPort(pool: PgPoolLike): SqlPort {
  const run =
    (client: Pick<PgClientLike, 'query'>): Query =>
    async (text, params) =>
      (text.startsWith(PREPARE)
        ? await client.query({ name: statementName(text), text, values: params as unknown[] })
        : await client.query(text, params as unknown[])
      ).rows;
  return {
    driver: 'pg',
    query: run(pool),
    async transaction(work, control) {
      const client = await pool.connect();
      let broken: unknown;
      /** ROLLBACK answered: the connection is proven alive, whatever the work's error was. */
      let rolledBack = false;
      // A checked-out client has no listener of the pool's: the server ending the session (its
      // idle_in_transaction_session_timeout, a restart) would be an unhandled 'error' event and
      // crash the process. The failing statement reports it; here it only marks the client broken.
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      try {
        // One round trip: BEGIN, the limits and the bracket's read in one simple-protocol message.
        const { bracket } = control;
        const begun = await client.query(`BEGIN; ${serverLimits(control.timeoutMs, true)}${bracket ? `; ${bracket.atBegin}` : ''}`);
        if (bracket) bracket.begun(lastRows(begun));
        // A named statement of the driver's gone from the session (DEALLOCATE run by a function of
        // a handler's own) or a name taken by someone else's PREPARE: the driver still believes in
        // its statements, so every later call on this connection would fail. Destroyed instead.
        const query = run(client);
        const tracked: Query = async (text, params) => {
          try {
            return await query(text, params);
          } catch (error) {
            if (STATEMENTS_LOST.has((error as { code?: unknown } | null)?.code as string)) broken ??= error;
            throw error;
          }
        };
        try {
          const result = await untilAborted(work(tracked), control.signal);
          if (!control.commit()) throw new Abandoned();
          // The bracket's last statement and COMMIT in one message: when the first fails, the
          // second is never run, and the transaction is rolled back below.
          const before = bracket?.beforeCommit();
          await client.query(before === undefined ? 'COMMIT' : `${before}; COMMIT`);
          return result;
        } catch (error) {
          if (control.signal.aborted) {
            // The caller has been answered: no ROLLBACK queued behind a statement that may never
            // return. The connection is destroyed instead, which ends the transaction on the server.
            broken = error;
            throw error;
          }
          try {
            await client.query('ROLLBACK');
            rolledBack = true;
          } catch (rollbackError) {
            broken = rollbackError; // the connection itself failed: do not reuse it
          }
          throw error;
        }
      } catch (error) {
        if (!rolledBack) broken ??= isConnectionError(error) ? error : undefined;
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken === undefined ? undefined : true);
      }
    },
    async close() {},
  };
}

/**
 * A statement name for `text`: the same on every connection and for every journal sharing a pool
 * (the same text, the same name), 64 bits of FNV-1a, well under PostgreSQL's 63-byte names.
 */
function statementName(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `pay_journal_${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`;
}

/** The rows of the last statement of a simple-protocol text (pg answers several statements with an array). */
function lastRows(result: { rows: Row[] } | { rows: Row[] }[]): Row[] {
  return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [];
}

/** `26000` a prepared statement that does not exist, `42P05` one that already does. */
const STATEMENTS_LOST = new Set(['26000', '42P05']);

/** An error of the connection rather than of a statement (a statement error carries a SQLSTATE). */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || code === '57P01';
}
