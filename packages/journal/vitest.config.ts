// The package's test run. Business time (schedules, leases, tolerances, retries) is on test
// clocks, so what is left is real I/O and CPU, and nothing depends on a tight real-time window;
// each file has a database of its own on the run's cluster.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    // One PostgreSQL cluster for the run, on which files take a database of their own, and one
    // fresh PGlite cluster, which every test's PGlite copies.
    globalSetup: ['test/helpers/run-cluster.ts'],
    // Real clusters, servers and processes: more than the preset's limits on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The files start servers and child processes of their own.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
  }),
});
