// Loading the optional peer dependency `@opentelemetry/api` on Node (the `node` condition of
// `#load`): once, when this package loads, synchronously through `require`, from this package's
// own place, where npm, pnpm and Yarn link the application's copy because @pay/otel and each
// package that depends on it declare it as an optional peer (README.md). Not by a top-level
// await, which would make the packages impossible to load from CommonJS (require(esm) refuses a
// module graph that awaits), nor by an import() left running, which would miss the calls made
// before it settled. Not installed: undefined, and nothing is recorded.
/// <reference types="node" />
import { createRequire } from 'node:module';
import type { Otel } from './otel.js';

const api = loadApi();

function loadApi(): Otel['api'] | undefined {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as Otel['api'];
  } catch {
    return undefined;
  }
}

/**
 * The API and the scope of the package that `moduleUrl` (its `import.meta.url`) belongs to: the
 * name and version in the package.json one folder above that module (it sits in the package's
 * src/ or dist/). Undefined when the application did not install the API, or when that
 * package.json cannot be read (a bundle that left it behind): then nothing is recorded.
 */
export function loadOtel(moduleUrl: string): Otel | undefined {
  if (api === undefined) return undefined;
  try {
    const { name, version } = createRequire(moduleUrl)('../package.json') as { name?: unknown; version?: unknown };
    if (typeof name !== 'string' || typeof version !== 'string') return undefined;
    return Object.freeze({ api, name, version });
  } catch {
    return undefined;
  }
}
