import type { TestUserConfig } from 'vitest/config';

/** What a suite's vitest.config.ts says of its own; everything else comes from the preset. */
export interface OwnTestSettings extends Omit<TestUserConfig, 'setupFiles' | 'reporters' | 'maxWorkers' | 'isolate'> {
  /**
   * Two test files at once (`maxWorkers: 2`; Vitest's default on two cores is one): for a suite
   * whose files wait on real I/O (servers, processes, browsers) more than they compute.
   */
  twoFilesAtOnce?: boolean;
  /**
   * A worker runs its files one after another in one process (`isolate: false`), loading the
   * package once: for a suite where each file starts and stops what it uses.
   */
  filesShareAProcess?: boolean;
}

/**
 * The `test` settings of a suite of this repository: the net guard's setup file, always
 * (`@pay/test-net-guard/setup`); the JSON report `.reports/vitest.json`, always, which
 * `tools/count-tests.mjs` sums; and by default every `.test.ts` file under `test/` (unless the
 * suite has `projects`, which name their own files), 60 s a test and 120 s a hook (bounds for hangs
 * on a loaded machine, not performance claims), one file at a time, each in a process of its own.
 * `own` replaces any of the defaults and adds what else the suite needs (projects, a global
 * setup...).
 */
export declare function testSettings(own?: OwnTestSettings): TestUserConfig;
