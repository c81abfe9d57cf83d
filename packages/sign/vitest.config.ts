import { fileURLToPath } from 'node:url';
import { testSettings } from '@pay/test-net-guard/preset';
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
  test: testSettings({
    // The browser and other runtimes (Deno, Bun) are waited for.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
    projects: [backend('node'), backend('noble'), { extends: true, test: { name: 'browser', include: ['test/browser.test.ts'] } }],
  }),
});
