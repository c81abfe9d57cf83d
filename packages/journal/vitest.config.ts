// The package's test run: every test/*.test.ts, with a time limit that outlasts a loaded machine
// and a JSON report in .reports/. Files run one at a time: several start their own PostgreSQL
// cluster and child processes, and two cores shared with other work cannot run them side by side.
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
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
