import { fileURLToPath } from 'node:url';
import { testSettings } from '@pay/test-net-guard/preset';
import { defineConfig } from 'vitest/config';

// The whole suite runs once per way of sending: `#exchange` is pointed at each source file in turn
// (Node's HTTP stack, the default on Node; fetch, the default everywhere else), so both are held
// to every test. A test that passes its own `fetch` uses fetch in both. The runtimes test runs the
// built package under Deno, Bun and Node, where each runtime makes its own choice, so it runs once.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Which `#exchange` this run of the suite uses; tests read it with `inject('exchange')`. */
    exchange: 'node' | 'fetch';
  }
}

const exchange = (name: 'node' | 'fetch') => ({
  extends: true as const,
  test: { name, include: ['test/**/*.test.ts'], exclude: ['test/runtimes.test.ts'], provide: { exchange: name } },
  resolve: {
    alias: {
      '#exchange': fileURLToPath(new URL(`./src/exchange-${name}.ts`, import.meta.url)),
    },
  },
});

export default defineConfig({
  test: testSettings({
    // Most files wait on real I/O (servers, child runtimes, attempt deadlines), not on the CPU.
    // Reconciliation runs on test clocks; the randomised exactly-once test keeps real time and
    // counts slow answers as honest outcomes (it asks only that most creates are done).
    twoFilesAtOnce: true,
    filesShareAProcess: true,
    projects: [
      exchange('node'),
      exchange('fetch'),
      { extends: true, test: { name: 'runtimes', include: ['test/runtimes.test.ts'] } },
      // The public types, checked by the compiler: each expectTypeOf in a .test-d.ts is a test.
      {
        extends: true,
        test: {
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'], tsconfig: 'tsconfig.json' },
        },
      },
    ],
  }),
});
