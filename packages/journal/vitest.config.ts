// The package's test run: every test/*.test.ts, with a time limit that outlasts a loaded machine
// and a JSON report in .reports/. Two files at a time: business time (schedules, leases,
// tolerances, retries) is on test clocks, so what is left is real I/O and CPU, and nothing
// depends on a tight real-time window; each file has a database of its own on the run's cluster.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    // One PostgreSQL cluster for the run; files take a database of their own on it.
    globalSetup: ['test/helpers/run-cluster.ts'],
    // Real servers, clusters and processes on a shared 2-core machine: a limit that outlasts load,
    // not a performance claim (benchmarks measure speed).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: two files at a time, no more (the files start servers and child processes of their own).
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
