// Where OpenTelemetry is not loaded (every condition of `#load` but `node`): browsers and edge
// workers have no `require` to find an optional peer dependency with, and Deno and Bun get the
// code that uses no Node module, as the packages' `#exchange` gives them.
import type { Otel } from './otel.js';

/** No API here: nothing is recorded. */
export function loadOtel(_moduleUrl: string): Otel | undefined {
  return undefined;
}
