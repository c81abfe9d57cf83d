// The postgres.js adapter: a `postgres(...)` instance. Statements go through `unsafe` (text and
// parameters, like the other drivers); transactions through `begin`, which holds one connection.
import { Abandoned, type Query, type Row, type SqlPort, serverLimits, untilAborted } from '../port.js';

/** What a postgres.js instance and its transactions share: `unsafe` (text and parameters). */
export interface PostgresJsQueries {
  unsafe(text: string, params?: never[]): PromiseLike<readonly Row[]>;
}

/** The part of a postgres.js instance (`postgres(url)`) the journal uses. */
export interface PostgresJsLike extends PostgresJsQueries {
  begin<T>(work: (sql: PostgresJsQueries) => Promise<T>): PromiseLike<T>;
}

/** True for a postgres.js instance by its shape: a function with `unsafe` and `begin`. */
export function isPostgresJs(db: unknown): db is PostgresJsLike {
  const d = db as Partial<PostgresJsLike> | null;
  return typeof db === 'function' && typeof d?.unsafe === 'function' && typeof d.begin === 'function';
}

/** The port on a postgres.js instance. */
export function postgresJsPort(sql: PostgresJsLike): SqlPort {
  const run =
    (s: PostgresJsQueries): Query =>
    async (text, params) => [...(await s.unsafe(text, (params ?? []) as never[]))];
  return {
    driver: 'postgres',
    query: run(sql),
    transaction: async (work, control) =>
      (await sql.begin(async (tx) => {
        // Without the idle-session limit: postgres.js 3.4.9 crashes the process (an uncaught
        // TypeError in its write scheduler, porsager/postgres#1154) when the server ends a session
        // inside `begin`, so the journal never makes the server do that on this driver.
        // The limits and the bracket's read in one simple-protocol message (an array of results).
        const { bracket } = control;
        const begun = await tx.unsafe(`${serverLimits(control.timeoutMs, false)}${bracket ? `; ${bracket.atBegin}` : ''}`);
        if (bracket) bracket.begun([...((begun as unknown as Row[][]).at(-1) ?? [])]);
        // Aborted: postgres.js rolls back and frees the connection now; a statement still running
        // on it is cancelled by the server's statement_timeout.
        const result = await untilAborted(work(run(tx)), control.signal);
        // postgres.js sends COMMIT as soon as this resolves; a throw makes it roll back instead.
        if (!control.commit()) throw new Abandoned();
        // postgres.js sends COMMIT itself, so the bracket's last statement is a round trip of its
        // own, awaited: COMMIT after a failed statement would quietly roll back.
        const before = bracket?.beforeCommit();
        if (before !== undefined) await tx.unsafe(before);
        return result;
      })) as Awaited<ReturnType<typeof work>>,
    async close() {},
  };
}
