// The `test` settings every suite of the repository shares, in one place. Each vitest.config.ts
// passes only what is its own, with its reason beside it.

/** Every suite's `test` settings with the suite's own laid over them (see preset.d.ts). */
export function testSettings(own = {}) {
  const { twoFilesAtOnce = false, filesShareAProcess = false, ...rest } = own;
  return {
    // Not for a suite of projects: Vitest adds the include of the settings a project extends to
    // the project's own, so each project names its files.
    ...(rest.projects === undefined ? { include: ['test/**/*.test.ts'] } : {}),
    // Real servers, processes and browsers on a shared 2-core machine: a limit that outlasts load,
    // not a performance claim (benchmarks measure speed). In a clean-clone CI run, where every
    // package's tests run at once, a sandbox test that starts the command line six times took 26 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at once on a 2-core machine (Vitest's default there is one), for a suite whose
    // files wait on real I/O more than they compute and whose verdicts rest on no time window a
    // neighbour's load could move.
    ...(twoFilesAtOnce ? { maxWorkers: 2 } : {}),
    // A worker runs its files one after another in one process and loads the package once: each
    // file starts and stops what it uses, and setup files are written to run again.
    ...(filesShareAProcess ? { isolate: false } : {}),
    ...rest,
    // Last, so no suite goes without them. No test leaves loopback: a name lookup beyond it, here
    // or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    // tools/count-tests.mjs sums every suite's report for the repository's test counts.
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  };
}
