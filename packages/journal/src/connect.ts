// Which database the journal runs on: the merchant's own `pg` Pool, postgres.js instance or
// PGlite instance, recognised by shape (this package imports none of them), or, with none, an
// embedded PGlite loaded on demand. The drivers are optional peer dependencies: a merchant on
// PostgreSQL installs only the driver they already use, and the embedded default costs nothing
// until it is used; when it is missing, a DriverMissingError names the package to install.
import { isPGlite, pglitePort, type PGliteLike } from './adapters/pglite.js';
import { isPgPool, pgPort, type PgPoolLike } from './adapters/pg.js';
import { isPostgresJs, postgresJsPort, type PostgresJsLike } from './adapters/postgres.js';
import { DriverMissingError } from './errors.js';
import type { SqlPort } from './port.js';
import type { EmbeddedDatabaseReport } from './report.js';

/** A database the journal can use: a `pg` Pool, a postgres.js instance or a PGlite instance. */
export type DatabaseLike = PgPoolLike | PostgresJsLike | PGliteLike;

/**
 * The port on `database`, or on a new embedded PGlite (in memory, or in `dataDir`) when there is
 * none.
 *
 * @throws TypeError when `database` is none of the three; DriverMissingError when the embedded
 * default is needed and `@electric-sql/pglite` is not installed.
 */
export async function connect(
  database: DatabaseLike | undefined,
  dataDir: string | undefined,
  say: (report: EmbeddedDatabaseReport) => void,
): Promise<SqlPort> {
  if (database === undefined) {
    let PGlite: new (dataDir?: string) => PGliteLike;
    try {
      // A variable specifier: bundlers and type checkers leave the optional peer alone.
      const name = '@electric-sql/pglite';
      ({ PGlite } = (await import(name)) as { PGlite: typeof PGlite });
    } catch (error) {
      throw new DriverMissingError('@electric-sql/pglite', error);
    }
    const where = dataDir ?? null;
    say({ type: 'embedded_database', state: 'starting', dataDir: where });
    const started = Date.now();
    const db = new PGlite(dataDir);
    await db.waitReady;
    // In memory, a commit's WAL flush buys nothing (the process is the only copy): without it a
    // statement costs about half (pnpm bench). On disk, commits stay synchronous: an intent must
    // be durable before its request leaves.
    if (dataDir === undefined) await db.exec('SET synchronous_commit = off');
    say({ type: 'embedded_database', state: 'ready', dataDir: where, ms: Date.now() - started });
    return pglitePort(db, true);
  }
  // PGlite first: it also has `query`; a pg Pool is told apart by its counters.
  if (isPGlite(database)) {
    await database.waitReady;
    return pglitePort(database, false);
  }
  if (isPgPool(database)) return pgPort(database);
  if (isPostgresJs(database)) return postgresJsPort(database);
  throw new TypeError('database must be a pg Pool, a postgres.js instance (postgres(url)) or a PGlite instance');
}
