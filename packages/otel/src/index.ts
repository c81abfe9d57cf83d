// OpenTelemetry for the toolkit's packages that record (@pay/client, @pay/webhook, @pay/journal),
// when the application has it: `@opentelemetry/api` is an optional peer dependency, loaded once
// here on Node and never elsewhere; each package names itself (its instrumentation scope) with
// `loadOtel(import.meta.url)`. Internal to the toolkit: no promise is made to other users.
export { loadOtel } from '#load';
export type { Otel } from './otel.js';
export { instrumentsOn, tracerNow } from './providers.js';
