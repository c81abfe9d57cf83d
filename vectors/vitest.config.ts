// The package's test run: the preset's settings, for its .mjs tests.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: testSettings({ include: ['test/**/*.test.mjs'] }) });
