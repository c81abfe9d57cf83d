import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // The release dry run packs every package with pnpm, and the hooks install (and delete) whole
    // projects: allow for a slow, shared machine. Bounds for hangs, not performance claims.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
