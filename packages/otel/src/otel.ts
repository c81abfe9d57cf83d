// What a package records with: the application's `@opentelemetry/api`, and the package's own name
// and version, the instrumentation scope of every span and instrument it makes.
import type * as Api from '@opentelemetry/api';

/** The API, and the recording package's name and version (the instrumentation scope of what it records). */
export interface Otel {
  readonly api: typeof Api;
  readonly name: string;
  readonly version: string;
}
