// Which database the journal runs on: the merchant's own `pg` Pool, postgres.js instance or
// PGlite instance, recognised by shape (this package imports none of them), or, with none, an
// embedded PGlite loaded on demand. The drivers are optional peer dependencies: a merchant on
// PostgreSQL installs only the driver they already use, and the embedded default costs nothing
// until it is used; when it is missing, a DriverMissingError names the package to install.
import { isPGlite, pglitePort, type PGliteLike } from './adapters/pglite.js';
import { isPgPool, pgPort, type PgPoolLike } from './adapters/pg.js';
import { isPostgresJs, postgresJsPort, type PostgresJsLike } from './adapters/postgres.js';
import { DriverMissingError } from './errors.js';
import { ownDirectory } from './own-files.js';
import { type Dumpable, forgetFreshCluster, freshClusterPlace, keepFreshCluster, readFreshCluster, systemIdOf } from './fresh-cluster.js';
import { readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  if (database === undefined) return pglitePort(await startEmbeddedDatabase({ dataDir, onReport: say }), true);
  // PGlite first: it also has `query`; a pg Pool is told apart by its counters.
  if (isPGlite(database)) {
    await database.waitReady;
    return pglitePort(database, false);
  }
  if (isPgPool(database)) return pgPort(database);
  if (isPostgresJs(database)) return postgresJsPort(database);
  throw new TypeError('database must be a pg Pool, a postgres.js instance (postgres(url)) or a PGlite instance');
}

/** Options of {@link startEmbeddedDatabase}. */
export interface EmbeddedDatabaseOptions {
  /** Where its files go; default in memory. */
  dataDir?: string | undefined;
  /** Told when it starts and when it is ready (how long it took, from a kept cluster or not). Default: nothing. */
  onReport?: ((report: EmbeddedDatabaseReport) => void) | undefined;
}

/**
 * Starts a PGlite as the journal starts its embedded database: in memory (or in `dataDir`), from a
 * copy of the empty cluster kept in the cache directory when there is one (initdb, most of a
 * start's CPU, runs once per machine and PGlite version), its commits in memory without a WAL
 * flush. For a test's own database, its tables beside the journal's (`openJournal({ database })`);
 * the caller closes it.
 *
 * @throws DriverMissingError when `@electric-sql/pglite` is not installed.
 */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions = {}): Promise<PGliteLike> {
  const { dataDir } = options;
  const say = options.onReport ?? (() => {});
  let PGlite: EmbeddedConstructor;
  let entry: string | undefined;
  try {
    // A variable specifier: bundlers and type checkers leave the optional peer alone.
    const name = '@electric-sql/pglite';
    ({ PGlite } = (await import(name)) as { PGlite: typeof PGlite });
    entry = resolveEntry(name);
  } catch (error) {
    throw new DriverMissingError('@electric-sql/pglite', error);
  }
  const where = dataDir ?? null;
  say({ type: 'embedded_database', state: 'starting', dataDir: where });
  // A measurement for the report (how long the start took), so real time, not the journal's clock.
  const started = performance.now();
  const { db, cluster, cacheRefused } = await startEmbedded(PGlite, dataDir, entry);
  // In memory, a commit's WAL flush buys nothing (the process is the only copy): without it a
  // statement costs about half (pnpm bench). On disk, commits stay synchronous: an intent must
  // be durable before its request leaves.
  if (dataDir === undefined) await db.exec('SET synchronous_commit = off');
  say({
    type: 'embedded_database',
    state: 'ready',
    dataDir: where,
    ms: Math.round(performance.now() - started),
    ...(cluster === undefined ? {} : { cluster }),
    ...(cacheRefused === undefined ? {} : { cacheRefused }),
  });
  return db;
}

/** PGlite's constructor, options only (`new PGlite(undefined, options)` would drop the options). */
type EmbeddedConstructor = new (options: { dataDir?: string; loadDataDir?: Blob }) => PGliteLike & Dumpable;

/**
 * Starts the embedded PGlite. Where initdb would run (in memory, an empty data directory), from a
 * copy of the fresh cluster kept in the cache directory when there is one, else made by initdb and
 * then kept, while still empty, for the next start. `cluster` says which; none for an existing
 * data directory. `cacheRefused` says why the cache was not used, when it was another account's to
 * write (and not only empty or missing).
 */
async function startEmbedded(
  PGlite: EmbeddedConstructor,
  dataDir: string | undefined,
  entry: string | undefined,
): Promise<{ db: PGliteLike & Dumpable; cluster: EmbeddedDatabaseReport['cluster']; cacheRefused?: string }> {
  const at = dataDir === undefined ? {} : { dataDir };
  if (dataDir !== undefined && !dataDir.includes('://')) await checkDataDir(dataDir);
  if (!(await isEmptyDirectory(dataDir))) {
    const db = new PGlite(at);
    await db.waitReady;
    return { db, cluster: undefined };
  }
  const place = await freshClusterPlace(entry);
  // The read and the keep check the same directory: one reason, said once.
  const refusals = new Set<string>();
  const refused = (reason: string) => refusals.add(reason);
  const kept = await readFreshCluster(place, refused);
  if (kept !== undefined) {
    const copy = new PGlite({ ...at, loadDataDir: kept.bytes });
    const loaded = await copy.waitReady.then(
      async () => (await systemIdOf(copy).catch(() => undefined)) === kept.systemId,
      () => false,
    );
    if (loaded) return { db: copy, cluster: 'copied' };
    // It did not start, or started as another cluster (PGlite may run initdb over an archive it
    // cannot read): forgotten, and the cluster made as if none were kept.
    await copy.close().catch(() => {});
    await forgetFreshCluster(kept);
    if (dataDir !== undefined) await emptyDirectory(dataDir);
  }
  const db = new PGlite(at);
  await db.waitReady;
  // Still the empty cluster initdb made: nothing of the journal's or the merchant's is in it yet.
  const cluster = (await keepFreshCluster(place, db, refused)) ? 'made_and_kept' : 'made';
  return refusals.size === 0 ? { db, cluster } : { db, cluster, cacheRefused: [...refusals].join('; ') };
}

/**
 * Refuses a data directory another account could have written or swapped: a database found there
 * runs its own functions and event triggers with the journal's rights during migrations, as a
 * planted kept cluster would (own-files.ts). PostgreSQL itself refuses a data directory that is
 * not its user's alone; PGlite does not check, so the journal does. A missing one is made 0700,
 * below directories that pass the same check. Where no account can be compared (Windows), nothing
 * is checked, as there PGlite's own defaults are all there is.
 *
 * @throws TypeError naming `dataDir`, what is wrong with it and what to do.
 */
async function checkDataDir(dataDir: string): Promise<void> {
  if (process.getuid === undefined) return;
  const checked = await ownDirectory(resolve(dataDir), true);
  if ('refused' in checked) {
    throw new TypeError(
      `dataDir ${dataDir} is not this account's alone (${checked.refused}): another account could have put its own database there, whose code would run with the journal's rights; use a directory of your own (chmod 700), below directories only you (or root) can write`,
    );
  }
}

/** The file URL a module specifier resolves to here; undefined where that cannot be known (a bundle). */
function resolveEntry(specifier: string): string | undefined {
  try {
    return import.meta.resolve(specifier);
  } catch {
    try {
      return pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href;
    } catch {
      return undefined;
    }
  }
}

/**
 * True in memory, and for a data directory that does not exist yet or is empty: where PGlite would
 * run initdb. A PGlite URL (`idb://`, `memory://`...) is left to PGlite.
 */
async function isEmptyDirectory(dataDir: string | undefined): Promise<boolean> {
  if (dataDir === undefined) return true;
  if (dataDir.includes('://')) return false;
  try {
    return (await readdir(dataDir)).length === 0;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ENOENT';
  }
}

/** Empties a data directory that was empty before a copy failed to load into it: all in it is the copy's. */
async function emptyDirectory(dataDir: string): Promise<void> {
  const entries = await readdir(dataDir).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => rm(join(dataDir, entry), { recursive: true, force: true })));
}
