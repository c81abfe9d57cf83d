// The package's test run: the preset's settings, nothing of its own.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: testSettings() });
