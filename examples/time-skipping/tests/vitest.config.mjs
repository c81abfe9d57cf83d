// How a merchant's own Vitest would run the example: nothing special is needed.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['tests/**/*.vitest.test.mjs'], testTimeout: 60_000, hookTimeout: 60_000 } });
