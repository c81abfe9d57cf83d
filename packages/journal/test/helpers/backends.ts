// The databases every journal test runs on: PGlite (embedded), and a real PostgreSQL server
// through both drivers merchants use, node-postgres (`pg` Pool) and postgres.js. The server is the
// run's one cluster (run-cluster.ts), in a database of the file's own; each test gets a schema of
// its own, so one database serves a whole file.
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { databaseFor, postgresAvailable } from '@pay/test-support/postgres';
import pg from 'pg';
import postgres from 'postgres';
import { inject } from 'vitest';
import type { DatabaseLike } from '../../src/index.js';

/** A database of one kind for a whole test file. */
export interface Backend {
  name: 'pglite' | 'pg' | 'postgres.js';
  /** True for a server several processes can share. */
  server: boolean;
  database: DatabaseLike;
  /** The server's URL (server backends only). */
  url?: string;
  close(): Promise<void>;
}

/** The backends to run on: PGlite always; pg and postgres.js when PostgreSQL is installed. */
export const BACKENDS: Backend['name'][] = postgresAvailable ? ['pglite', 'pg', 'postgres.js'] : ['pglite'];

/** The run's cluster (started by run-cluster.ts). */
export function runCluster(): { url: string } {
  const url = inject('runClusterUrl');
  if (url === null) throw new Error('no PostgreSQL cluster for this run (is PostgreSQL installed?)');
  return { url };
}

const databases = new Map<string, Promise<string>>();
/**
 * The URL of `file`'s own database on the run's cluster (a lowercase SQL identifier, such as the
 * file's name), made once per file: its pg and postgres.js runs share it, each test in a schema.
 */
export function fileDatabase(file: string): Promise<string> {
  let url = databases.get(file);
  if (url === undefined) {
    url = databaseFor(runCluster(), `journal_${file}`);
    databases.set(file, url);
  }
  return url;
}

let template: Promise<Blob> | undefined;
/**
 * The data directory of a new, empty cluster (a tar archive), made by initdb once in the run
 * (run-cluster.ts): every PGlite a test makes starts from it (PGlite's own `loadDataDir`), in
 * memory or in a data directory, in about a quarter of the CPU of an initdb of its own. Only the
 * tests of the journal's own start (which runs initdb where it keeps no cluster) pay for initdb
 * again.
 */
export function freshClusterDump(): Promise<Blob> {
  template ??= readFile(inject('freshPGliteDump')).then((bytes) => new Blob([bytes]));
  return template;
}

/** A new, empty PGlite, as `new PGlite()` makes it, from the run's fresh cluster (`freshClusterDump`). */
export async function freshPGlite(): Promise<PGlite> {
  const db = new PGlite({ loadDataDir: await freshClusterDump() });
  await db.waitReady;
  return db;
}

/** Opens a backend; the server backends on `file`'s database of the run's cluster. */
export async function openBackend(name: Backend['name'], file: string): Promise<Backend> {
  if (name === 'pglite') {
    const db = await freshPGlite();
    return { name, server: false, database: db, close: () => db.close() };
  }
  const url = await fileDatabase(file);
  if (name === 'pg') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {}); // a connection the server ends must not crash the runner
    return { name, server: true, database: pool, url, close: () => pool.end() };
  }
  const sql = postgres(url, { max: 10, onnotice: () => {} });
  return { name, server: true, database: sql, url, close: () => sql.end({ timeout: 1 }) };
}

let schemas = 0;
/** A fresh schema name for one test. */
export const freshSchema = () => `t${process.pid}_${++schemas}`;
