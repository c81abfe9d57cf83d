import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    // Real servers, processes and browsers on a shared 2-core machine: a limit that outlasts load,
    // not a performance claim (benchmarks measure speed). 60 s: in a clean-clone CI run, where every
    // package's tests run at once, a test that starts the command line six times took 26 s.
    // Two files at once on a 2-core machine (Vitest's default there is one): most files wait on
    // real I/O (servers, processes, browsers, attempt deadlines), not on the CPU, and their
    // business time is on test clocks, so a neighbour's load moves no time window.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
