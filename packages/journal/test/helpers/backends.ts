// The databases every journal test runs on: PGlite (embedded), and a real PostgreSQL server
// through both drivers merchants use, node-postgres (`pg` Pool) and postgres.js. Each test gets
// a schema of its own, so one database serves a whole file.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import postgres from 'postgres';
import type { DatabaseLike } from '../../src/index.js';
import { postgresAvailable, type RunningPostgres, startPostgres } from './postgres-server.mjs';

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

let server: RunningPostgres | undefined;
let users = 0;

/** Opens a backend (one PostgreSQL cluster shared by the file's server backends). */
export async function openBackend(name: Backend['name']): Promise<Backend> {
  if (name === 'pglite') {
    const db = new PGlite();
    await db.waitReady;
    return { name, server: false, database: db, close: () => db.close() };
  }
  server ??= await startPostgres();
  users++;
  const url = server.url;
  const release = async () => {
    if (--users === 0) {
      const s = server;
      server = undefined;
      await s?.stop();
    }
  };
  if (name === 'pg') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {}); // a killed server in a test must not crash the runner
    return {
      name,
      server: true,
      database: pool,
      url,
      close: async () => {
        await pool.end();
        await release();
      },
    };
  }
  const sql = postgres(url, { max: 10, onnotice: () => {} });
  return {
    name,
    server: true,
    database: sql,
    url,
    close: async () => {
      await sql.end({ timeout: 1 });
      await release();
    },
  };
}

let schemas = 0;
/** A fresh schema name for one test. */
export const freshSchema = () => `t${process.pid}_${++schemas}`;
