import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    // Whole flows through a browser, the shop and the sandbox, some restarting the shop (an
    // in-memory PGlite runs initdb at each start): each step waits for its own condition with a
    // deadline; the test limit only has to outlast them on a loaded machine.
    // Two files at once on a 2-core machine (Vitest's default there is one): the files wait on the
    // shop's and the sandbox's processes, a browser and PostgreSQL, more than they compute.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
