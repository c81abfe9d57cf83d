// The package's test run: the preset's settings, and two files at once: the hundred runs on PGlite
// go beside the PostgreSQL run and its cluster's start.
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: testSettings({ twoFilesAtOnce: true }) });
