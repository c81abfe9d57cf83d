// Every event of a call, reported from one place to both of its listeners: the merchant's hooks
// and OpenTelemetry (telemetry.ts). The code that sends, retries and reconciles calls these and
// nothing else, so the two always see the same requests, retries and reconciliation steps.
import type { Call } from './call-types.js';
import type { Exchange, Request } from './exchange.js';
import type { ReconcileEvent, RequestEvent, RetryEvent } from './hooks.js';
import { emit } from './hooks.js';

/** A request being watched: by the hooks, by OpenTelemetry, or both. */
export interface WatchedRequest {
  /** Starts the exchange (inside the request's span when it is traced). */
  send(exchange: (request: Request) => Exchange, request: Request): Exchange;
  /** An answer arrived, with this status. */
  answered(status: number): void;
  /** No answer: `timeout`, `network error` or `aborted`. */
  failed(reason: string): void;
}

/**
 * An HTTP request of the call is about to be sent: tells `onRequest`, and starts what `answered`
 * or `failed` ends. Undefined when nothing listens (no hook, nothing recorded), at no cost.
 */
export function watchRequest(call: Call, request: Request, attempt: number): WatchedRequest | undefined {
  const { onRequest, onResponse } = call.settings.hooks;
  const telemetry = call.telemetry?.attempt(request, attempt);
  // The hooks' event, built only for hooks.
  const event: RequestEvent | undefined =
    onRequest === undefined && onResponse === undefined
      ? undefined
      : {
          operation: call.operation,
          method: request.method,
          url: request.shownUrl ?? request.url,
          attempt,
          ...(call.referenceId === undefined ? {} : { referenceId: call.referenceId }),
        };
  if (event === undefined && telemetry === undefined) return undefined;
  if (event !== undefined) emit(onRequest, event);
  const started = performance.now();
  return {
    send: (exchange, request) => (telemetry === undefined ? exchange(request) : telemetry.send(exchange, request)),
    answered(status) {
      const ms = performance.now() - started;
      if (event !== undefined && onResponse !== undefined) emit(onResponse, { ...event, status, durationMs: Math.round(ms) });
      telemetry?.end(status, undefined, ms);
    },
    failed(reason) {
      telemetry?.end(undefined, reason, performance.now() - started);
    },
  };
}

/** A request is about to be sent again, after `event.delayMs`. */
export function retrying(call: Call, event: RetryEvent): void {
  emit(call.settings.hooks.onRetry, event);
  call.telemetry?.retry(event);
}

/** A step of reconciling a create whose answer was lost. */
export function reconciling(call: Call, event: ReconcileEvent): void {
  emit(call.settings.hooks.onReconcile, event);
  call.telemetry?.reconcile(event);
}
