// The PGlite adapter: PostgreSQL compiled to WebAssembly, in this process. The same SQL as on a
// server; one connection, so PGlite's own `transaction` queues everything else behind an open one.
import { Abandoned, type Query, type Row, type SqlPort, untilAborted } from '../port.js';
import { preparedQuery, speaksProtocol } from './pglite-prepared.js';

/** The part of a PGlite instance the journal uses. */
export interface PGliteLike extends PGliteQueries {
  transaction<T>(work: (tx: PGliteQueries) => Promise<T>): Promise<T>;
  waitReady: Promise<void>;
  close(): Promise<void>;
}

/** What PGlite and its transactions share: `query` (one statement, parameters) and `exec` (several). */
interface PGliteQueries {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(text: string): Promise<readonly { rows: Row[] }[]>;
}

/** True for a PGlite instance by its shape. */
export function isPGlite(db: unknown): db is PGliteLike {
  const d = db as Partial<PGliteLike> | null;
  return (
    db !== null && typeof db === 'object' && typeof d!.query === 'function' && typeof d!.transaction === 'function' && 'waitReady' in d!
  );
}

/** The port on a PGlite instance; `owned`: the journal opened it, so `close` closes it. */
export function pglitePort(db: PGliteLike, owned: boolean): SqlPort {
  const run =
    (d: PGliteQueries): Query =>
    async (text, params) => {
      // Like the simple protocol of the server drivers: without parameters, several statements.
      if (params === undefined || params.length === 0) return (await d.exec(text)).at(-1)?.rows ?? [];
      return (await d.query(text, params as unknown[])).rows;
    };
  // The journal's own hot statements (marked PREPARE) prepared once, when the instance allows it:
  // a PGlite version it was tested against, answering as expected (see pglite-prepared.ts); inside
  // a transaction, and on anything else, PGlite's own `query`.
  const plain = run(db);
  const query: Query = speaksProtocol(db) ? preparedQuery(db, plain) : plain;
  return {
    driver: 'pglite',
    query,
    // No server-side limits: a statement runs in this thread, so nothing could interrupt it, and
    // no other session waits on its locks. The last word before COMMIT is what matters here, and
    // the abort: PGlite has one connection, and a transaction left open (a handler that never
    // settles) would queue every later call behind it for ever.
    transaction: (work, control) =>
      db.transaction(async (tx) => {
        // The bracket's read is not run at BEGIN: in this process a statement costs its time, not
        // a round trip, so the work reads only when a handler sends a statement.
        const result = await untilAborted(work(run(tx)), control.signal);
        if (!control.commit()) throw new Abandoned();
        const before = control.bracket?.beforeCommit();
        if (before !== undefined) await tx.exec(before);
        return result;
      }),
    close: async () => {
      if (owned) await db.close();
    },
  };
}
