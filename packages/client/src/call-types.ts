// The shape of one client call and of what records it, in a file of their own: call.ts (which
// runs the attempts), observe.ts (which hands each event to the hooks and to telemetry) and
// telemetry.ts (which records it) all name these types, and none of them has to import another to
// do so, so the three files form no import circle.
import type { Operation } from './errors.js';
import type { Request } from './exchange.js';
import type { ReconcileEvent, RetryEvent } from './hooks.js';
import type { Settings } from './options.js';

/** One call to the client (`payins.create`, ...): its time budget, signal and attempt counter. */
export interface Call {
  readonly settings: Settings;
  readonly operation: Operation;
  readonly signal: AbortSignal | undefined;
  /** When the whole call must be over, in epoch milliseconds. */
  readonly deadline: number;
  /** HTTP requests made so far. */
  attempts: number;
  readonly referenceId?: string;
  /** What the call reports to OpenTelemetry, while it is recorded (see telemetry.ts). */
  telemetry: CallTelemetry | undefined;
}

/** A call being recorded: what its attempts, retries and reconciliation steps report to. */
export interface CallTelemetry {
  /** An HTTP request of the call is about to be sent. */
  attempt(request: Request, attempt: number): AttemptTelemetry;
  retry(event: RetryEvent): void;
  reconcile(event: ReconcileEvent): void;
}

/** One HTTP request being recorded. */
export interface AttemptTelemetry {
  /** Starts the exchange inside the request's span, so instrumentations below it nest under it. */
  send<T>(exchange: (request: Request) => T, request: Request): T;
  /** The request ended: with an answer (`status`), or without one (`failure`: `timeout`, ...). */
  end(status: number | undefined, failure: string | undefined, durationMs: number): void;
}
