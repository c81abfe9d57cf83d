// One PostgreSQL cluster for the whole run (Vitest's globalSetup): the files that need no server
// of their own (nothing crashed, restarted or set cluster-wide) each take a database on it
// (`databaseFor`, in backends.ts), so two files run side by side without sharing a table, and the
// run starts one server instead of one per file. Files that crash their server or change roles
// start their own (`startPostgres`).
//
// And one fresh PGlite cluster for the run, made by initdb while the server starts: every test
// PGlite is a copy of it (`freshClusterDump`, in backends.ts), so the run pays for one initdb,
// not one in each test process.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster (`postgres://…/postgres`), or null without PostgreSQL installed. */
    runClusterUrl: string | null;
    /** The file holding the run's fresh PGlite cluster (a tar archive of its data directory). */
    freshPGliteDump: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'pay-journal-run-'));
  const [server, dump] = await Promise.all([postgresAvailable ? startPostgres() : undefined, freshPGliteDump(dir)]);
  project.provide('runClusterUrl', server?.url ?? null);
  project.provide('freshPGliteDump', dump);
  return async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

/** Writes the data directory of a new, empty PGlite into `dir`; the file's path. */
async function freshPGliteDump(dir: string): Promise<string> {
  const db = new PGlite();
  await db.waitReady; // a dump asked for before it is ready never comes
  try {
    const file = join(dir, 'fresh-cluster.tar');
    await writeFile(file, new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
    return file;
  } finally {
    await db.close();
  }
}
