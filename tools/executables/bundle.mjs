// One CommonJS file from a built entry point and everything it imports: what Node's single
// executable applications run (Node 20 runs the injected script as CommonJS, with a `require`
// that loads Node's own modules only, and no dynamic import()).
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

// @pay/otel loads the application's @opentelemetry/api from node_modules; an executable has
// neither, so it gets the loader that loads nothing (the one Deno and Bun get).
const otelLoadsNothing = fileURLToPath(new URL('../../packages/otel/dist/load-none.js', import.meta.url));

/** Bundles `entry` into `file`; returns rolldown's warnings as lines (an empty list: none). */
export async function bundle(entry, file) {
  const warnings = [];
  const build = await rolldown({
    input: entry,
    platform: 'node',
    resolve: { alias: { '#load': otelLoadsNothing } },
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
  });
  try {
    // Node's modules stay outside; import('node:https') becomes a require(), which the
    // executable has where it has no import().
    await build.write({ file, format: 'cjs', codeSplitting: false, dynamicImportInCjs: false });
  } finally {
    await build.close();
  }
  return warnings;
}
