import { fileURLToPath } from 'node:url';
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run on Node: the API is loaded as there (`#load`'s node condition).
  resolve: { alias: { '#load': fileURLToPath(new URL('./src/load-node.ts', import.meta.url)) } },
  test: testSettings(),
});
