// Which database the shop keeps its orders and the journal in: PostgreSQL at DATABASE_URL (a
// `pg` Pool), or the journal's embedded PGlite (PostgreSQL compiled to WebAssembly, in this
// process: nothing to install), on disk under SHOP_DATA_DIR or in memory. The same SQL runs on
// all three: the shop's own goes through `journal.transaction`. The embedded one is the journal's
// to start (from the cluster it keeps in the cache directory, saying how long it took) and close.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalOptions } from '@pay/journal';
import pg from 'pg';
import type { ShopConfig } from './config.js';

/** The database to open the journal on. */
export interface Database {
  /** For `openJournal`: a pool, or where the embedded PGlite keeps its files (none: in memory). */
  journalOptions: Pick<JournalOptions, 'database' | 'dataDir'>;
  /** In words, for the start-up banner (never the URL: it may carry a password). */
  description: string;
  close(): Promise<void>;
}

export async function openDatabase(config: ShopConfig['database'], log: (line: string) => void): Promise<Database> {
  if ('url' in config) {
    const pool = new pg.Pool({ connectionString: config.url });
    // An idle connection the server ends (a restart) must not crash the shop: the pool reconnects.
    pool.on('error', (error) => log(`database: an idle connection failed (${error.message})`));
    return { journalOptions: { database: pool }, description: 'PostgreSQL (DATABASE_URL)', close: () => pool.end() };
  }
  const dataDir = 'dataDir' in config ? join(config.dataDir, 'pglite') : undefined;
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  return {
    journalOptions: dataDir === undefined ? {} : { dataDir },
    description: dataDir === undefined ? 'PGlite, in memory' : `PGlite in ${dataDir}`,
    close: async () => {}, // the journal's close() closes it
  };
}
