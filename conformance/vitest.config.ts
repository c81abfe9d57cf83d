// The package's tests: test/**/*.test.ts against the built CLI, with a JSON report for the
// repository's test counts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    // Two files at once on a 2-core machine (Vitest's default there is one): the files wait, mostly
    // (SDKs in child processes, npm installs, servers), and no test's verdict rests on a time window
    // a neighbour's load could move.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
