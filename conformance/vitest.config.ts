// The package's tests: test/**/*.test.ts against the built CLI, with a JSON report for the
// repository's test counts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
