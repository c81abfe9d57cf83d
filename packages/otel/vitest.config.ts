import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run on Node: the API is loaded as there (`#load`'s node condition).
  resolve: { alias: { '#load': fileURLToPath(new URL('./src/load-node.ts', import.meta.url)) } },
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    // Real processes on a shared 2-core machine: a limit that outlasts load, not a performance claim.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
