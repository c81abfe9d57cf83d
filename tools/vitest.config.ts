import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // The release dry run packs every package with pnpm: allow for a slow, shared machine.
    testTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
