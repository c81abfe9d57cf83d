// The postgres.js adapter: a `postgres(...)` instance. Statements go through `unsafe` (text and
// parameters, like the other drivers); transactions through `begin`, which holds one connection.
import type { Query, Row, SqlPort } from '../port.js';

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
    transaction: async (work) => (await sql.begin((tx) => work(run(tx)))) as Awaited<ReturnType<typeof work>>,
    async close() {},
  };
}
