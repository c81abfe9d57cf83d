// Where OpenTelemetry is not loaded (every condition of `#otel` but `node`): browsers and edge
// workers have no `require` to find an optional peer dependency with, and Deno and Bun get the
// package's code that uses no Node module, as `#exchange` gives them.
import type { Otel } from './otel.js';

/** No API here: nothing is recorded. */
export const otel: Otel | undefined = undefined;
