// This package on OpenTelemetry, when the application has it: @pay/otel loads the application's
// `@opentelemetry/api` (an optional peer dependency, on Node only) and reads this package's name
// and version, the scope of what it records, from its package.json.
import { loadOtel } from '@pay/otel';

export { instrumentsOn, tracerNow } from '@pay/otel';

/** The API and this package's scope when the application installed the API (on Node), else undefined. */
export const otel = loadOtel(import.meta.url);
