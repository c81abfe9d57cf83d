import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The whole suite runs once per HMAC backend: `#hmac` is pointed at each source file in turn, so
// both backends are held to every vector and every test.
const backend = (name: 'node' | 'noble') => ({
  extends: true as const,
  // The browser test loads the built package in Chromium, where the backend is the browser's own
  // choice, so it runs once, in its own project.
  test: { name, include: ['test/**/*.test.ts'], exclude: ['test/browser.test.ts'], provide: { backend: name } },
  resolve: { alias: { '#hmac': fileURLToPath(new URL(`./src/hmac-${name}.ts`, import.meta.url)) } },
});

export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    // Real servers, processes and browsers on a shared 2-core machine: a limit that outlasts load,
    // not a performance claim (benchmarks measure speed). Set here, every project inherits it.
    // Two files at once on a 2-core machine (Vitest's default there is one): the browser and other runtimes (Deno, Bun) are waited for.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
    projects: [backend('node'), backend('noble'), { extends: true, test: { name: 'browser', include: ['test/browser.test.ts'] } }],
  },
});
