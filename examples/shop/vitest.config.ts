import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    // Whole flows through a browser, the shop and the sandbox, some restarting the shop (an
    // in-memory PGlite runs initdb at each start): each step waits for its own condition with a
    // deadline; the test limit only has to outlast them on a loaded machine.
    testTimeout: 180_000,
    // The files wait on the shop's and the sandbox's processes, a browser and PostgreSQL, more
    // than they compute.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
  }),
});
