// The package's test run: every test/*.test.ts, with a time limit that outlasts a loaded machine
// and a JSON report in .reports/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    // Real servers, processes and browsers on a shared 2-core machine: a limit that outlasts load,
    // not a performance claim (benchmarks measure speed).
    // Two files at once on a 2-core machine (Vitest's default there is one): framework servers, Redis and other runtimes (Deno, Bun) are waited for.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
