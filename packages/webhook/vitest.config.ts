// The package's test run.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    // Framework servers, Redis and other runtimes (Deno, Bun) are waited for.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
  }),
});
