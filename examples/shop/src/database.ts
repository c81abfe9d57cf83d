// Which database the shop keeps its orders and the journal in: PostgreSQL at DATABASE_URL (a
// `pg` Pool), or the embedded PGlite (PostgreSQL compiled to WebAssembly, in this process: nothing
// to install), on disk under SHOP_DATA_DIR or in memory. The same SQL runs on all three.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { DatabaseLike } from '@pay/journal';
import pg from 'pg';
import type { ShopConfig } from './config.js';

/** An open database, for `openJournal({ database })`. */
export interface Database {
  database: DatabaseLike;
  /** In words, for the start-up banner (never the URL: it may carry a password). */
  description: string;
  close(): Promise<void>;
}

export async function openDatabase(config: ShopConfig['database'], log: (line: string) => void): Promise<Database> {
  if ('url' in config) {
    const pool = new pg.Pool({ connectionString: config.url });
    // An idle connection the server ends (a restart) must not crash the shop: the pool reconnects.
    pool.on('error', (error) => log(`database: an idle connection failed (${error.message})`));
    return { database: pool, description: 'PostgreSQL (DATABASE_URL)', close: () => pool.end() };
  }
  const dataDir = 'dataDir' in config ? join(config.dataDir, 'pglite') : undefined;
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const db = new PGlite(dataDir);
  await db.waitReady;
  return { database: db, description: dataDir === undefined ? 'PGlite, in memory' : `PGlite in ${dataDir}`, close: () => db.close() };
}
