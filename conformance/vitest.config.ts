// The package's tests: test/**/*.test.ts against the built CLI.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    // The run's test directories live in one, removed after the run.
    globalSetup: ['test/tmp-root.ts'],
    // The files wait, mostly (SDKs in child processes, npm installs, servers).
    twoFilesAtOnce: true,
    filesShareAProcess: true,
  }),
});
