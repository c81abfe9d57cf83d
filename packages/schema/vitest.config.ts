import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

// The whole suite runs twice: once with code generation available (the compiled validator), and
// once in an emulated edge runtime where `new Function` and `eval` throw, so the validator falls
// back to interpreting the schema. Both must pass the same tests.
export default defineConfig({
  test: testSettings({
    // The files are small and many; half of each is loading modules.
    twoFilesAtOnce: true,
    filesShareAProcess: true,
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
  }),
});
