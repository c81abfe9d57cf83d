import { defineConfig } from 'vitest/config';

// The whole suite runs twice: once with code generation available (the compiled validator), and
// once in an emulated edge runtime where `new Function` and `eval` throw, so the validator falls
// back to interpreting the schema. Both must pass the same tests.
export default defineConfig({
  test: {
    // No test leaves loopback: a name lookup beyond it, here or in a Node child, fails the test.
    setupFiles: ['@pay/test-net-guard/setup'],
    // A shared 2-core machine: a limit that outlasts load, not a performance claim.
    // Two files at once on a 2-core machine (Vitest's default there is one): the files are small and many; half of each is loading modules.
    maxWorkers: 2,
    // A worker runs its files one after another in one process and loads the package once: no
    // test here keeps state outside what it starts (setup files are written to run again).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'compiled', include: ['test/**/*.test.ts'], env: { PAY_SCHEMA_MODE: 'compiled' } },
      },
      {
        extends: true,
        test: {
          name: 'interpreted',
          include: ['test/**/*.test.ts'],
          env: { PAY_SCHEMA_MODE: 'interpreted' },
          setupFiles: ['test/setup/no-codegen.ts'],
        },
      },
    ],
  },
});
