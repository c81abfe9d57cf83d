// One PostgreSQL cluster for the whole run (Vitest's globalSetup): the files that need no server
// of their own (nothing crashed, restarted or set cluster-wide) each take a database on it
// (`databaseFor`, in backends.ts), so two files run side by side without sharing a table, and the
// run starts one server instead of one per file. Files that crash their server or change roles
// start their own (`startPostgres`).
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster (`postgres://…/postgres`), or null without PostgreSQL installed. */
    runClusterUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = postgresAvailable ? await startPostgres() : undefined;
  project.provide('runClusterUrl', server?.url ?? null);
  return async () => {
    await server?.stop();
  };
}
