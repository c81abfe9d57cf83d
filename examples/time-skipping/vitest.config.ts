// The example's own test: each framework runs the outage test (see test/frameworks.test.mjs).
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    include: ['test/**/*.test.mjs'],
    // Each framework starts a sandbox and an embedded PGlite: a limit that outlasts a loaded machine.
    testTimeout: 240_000,
  }),
});
