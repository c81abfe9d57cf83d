// Loading the optional peer dependency `@opentelemetry/api` on Node (the `node` condition of
// `#otel`): once, when the package loads, synchronously through `require`. Not by a top-level
// await, which would make the package impossible to load from CommonJS (require(esm) refuses a
// module graph that awaits), nor by an import() left running, which would miss the calls made
// before it settled. Not installed: undefined, and nothing is recorded.
/// <reference types="node" />
import { createRequire } from 'node:module';
import type { Otel } from './otel.js';

/** The API when the application installed it, else undefined. */
export const otel: Otel | undefined = load();

function load(): Otel | undefined {
  const require = createRequire(import.meta.url);
  try {
    const api = require('@opentelemetry/api') as Otel['api'];
    // This file sits one level below the package root, in src/ and in dist/ alike.
    const { name, version } = require('../package.json') as { name: string; version: string };
    return { api, name, version };
  } catch {
    return undefined;
  }
}
