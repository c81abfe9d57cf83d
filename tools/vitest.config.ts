import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.mjs'],
    // The release dry run packs every package with pnpm, and the hooks install (and delete) whole
    // projects: allow for a slow, shared machine. Bounds for hangs, not performance claims.
    // Two files at once on a 2-core machine (Vitest's default there is one): the files wait, mostly
    // (SDKs in child processes, npm installs, servers), and no test's verdict rests on a time window
    // a neighbour's load could move.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
