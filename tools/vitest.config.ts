import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    include: ['test/**/*.test.mjs'],
    // The release dry run packs every package with pnpm, and the hooks install (and delete) whole
    // projects: allow for a slow, shared machine. Bounds for hangs, not performance claims.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The files wait, mostly (SDKs in child processes, npm installs, servers). Each file keeps a
    // process of its own (no filesShareAProcess): the release rehearsal widens the net guard for
    // its process (allowLookup), which must not outlive that file.
    twoFilesAtOnce: true,
  }),
});
