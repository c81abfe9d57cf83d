// Hooks for logging and metrics. Events carry what a log line needs and nothing secret: no
// headers (the signature), no bodies (names, addresses, card data), and the one-time token of a
// card-push address masked. A hook that throws is ignored: logging must never change an outcome.
import type { Operation } from './errors.js';

/** A request about to be sent. */
export interface RequestEvent {
  /** The call this request belongs to. */
  readonly operation: Operation;
  /** `GET` or `POST`. */
  readonly method: string;
  /** The URL called (a card-push address with its token masked). */
  readonly url: string;
  /** 1 for the first HTTP request of the call, then 2, 3, ... for retries, reconciliation lookups and re-sends. */
  readonly attempt: number;
  /** The create's `reference_id`, for creates and their reconciliation. */
  readonly referenceId?: string;
}

/** An answer received (any status). */
export interface ResponseEvent extends RequestEvent {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Milliseconds from sending to the end of the body. */
  readonly durationMs: number;
}

/** A retry about to wait, then send again. */
export interface RetryEvent {
  /** The call being retried. */
  readonly operation: Operation;
  /** The number the next attempt will have. */
  readonly attempt: number;
  /** How long the client waits first, in milliseconds. */
  readonly delayMs: number;
  /** Why: `status 503`, `network error`, `timeout`, ... */
  readonly reason: string;
}

/**
 * A step of reconciling a create whose answer was lost (see the README): `lookup` (looking the
 * reference up), `found` (it exists: that is the result), `waiting` (until no attempt can still be
 * accepted), `resend` (proven not created: sending it again), `unknown` (giving up with
 * OutcomeUnknownError).
 */
export interface ReconcileEvent {
  /** The create being reconciled. */
  readonly operation: Operation;
  /** Its `reference_id`. */
  readonly referenceId: string;
  /** Where reconciliation is. */
  readonly step: 'lookup' | 'found' | 'waiting' | 'resend' | 'unknown';
  /** Why reconciliation started: `timeout`, `network error`, `status 502`, ... */
  readonly reason: string;
  /** For `waiting`: how long, in milliseconds. */
  readonly delayMs?: number;
}

/** Callbacks for logging and metrics; each optional. */
export interface Hooks {
  /** A request is about to be sent. */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** An answer was received. */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  /** A request is about to be retried. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** A create whose answer was lost is being reconciled. */
  onReconcile?: ((event: ReconcileEvent) => void) | undefined;
}

/** Calls a hook, ignoring anything it throws. */
export function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (hook === undefined) return;
  try {
    hook(event);
  } catch {
    // A broken logger must not turn a payment into an error.
  }
}
