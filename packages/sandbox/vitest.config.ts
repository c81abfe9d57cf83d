import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: testSettings({
    // Most files wait on real I/O (servers, processes, browsers, attempt deadlines), not on the
    // CPU, and their business time is on test clocks, so a neighbour's load moves no time window.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
  }),
});
