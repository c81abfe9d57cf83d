// The errors the journal throws. Each names what was wrong and what to do, and none carries a
// secret, a connection string or a request body: only kinds, reference_ids, states and the
// database's own message. `isJournalError` works across realms (two copies of the package).
import type { TransactionKind } from '@pay/schema';
import { connectionHint } from './connection-hint.js';
import type { IntentState } from './intent-states.js';
import { describe } from './proof.js';

const BRAND = Symbol.for('@pay/journal.error');

/** What went wrong, for code that branches on it. */
export type JournalErrorCode =
  | 'database_failed'
  | 'driver_missing'
  | 'reference_conflict'
  | 'create_in_flight'
  | 'create_refused'
  | 'not_recorded'
  | 'unknown_transaction'
  | 'lookup_failed'
  | 'handler_failed';

/** Base class of every error the journal throws from an operation. Invalid options are a `TypeError` instead. */
export class JournalError extends Error {
  override name = 'JournalError';
  /** What went wrong. */
  readonly code: JournalErrorCode;
  /** @internal */
  constructor(code: JournalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for any {@link JournalError}, including one from another copy of this package. */
export function isJournalError(value: unknown): value is JournalError {
  return value instanceof JournalError || (value instanceof Error && (value as unknown as Record<symbol, unknown>)[BRAND] === true);
}

/** Why a {@link DatabaseError}: `failed` (down, refused a statement), `timed_out`, or `commit_unknown`. */
export type DatabaseFailure = 'failed' | 'timed_out' | 'commit_unknown';

/**
 * The database failed, refused a statement or did not answer within `timeoutMs`. Nothing is half
 * recorded: the work's transaction rolled back, or (`timed_out`) can no longer commit: COMMIT is
 * never sent once the caller has this error, and the server cancels the statement still running.
 * The exceptions: `commit_unknown`, COMMIT was sent and its answer never came, so the work may
 * have committed; and a `timed_out` single statement outside a transaction (the journal's reads
 * and its lease bookkeeping, which are safe to apply late) may still finish. Everything the
 * journal records is safe to find again (a retried webhook is a duplicate), so retrying is right
 * in every case.
 */
export class DatabaseError extends JournalError {
  override name = 'DatabaseError';
  /** What the journal was doing: `migrate`, `record intent`, `record outcome`, `record event`, ... */
  readonly step: string;
  /** Why: the database failed or refused, did not answer in time, or lost a COMMIT's answer. */
  readonly reason: DatabaseFailure;
  /** The SQLSTATE of a refused statement (`57014` for a cancelled one), when the database gave one. */
  readonly sqlState: string | undefined;
  /** @internal */
  constructor(step: string, cause: unknown, reason: DatabaseFailure = 'failed') {
    const detail =
      reason === 'timed_out'
        ? 'did not answer in time'
        : reason === 'commit_unknown'
          ? 'did not answer a COMMIT in time; it may have committed'
          : `failed: ${messageOf(cause)}`;
    // A database that cannot be reached also gets what to check (the server, host and port).
    const hint = reason === 'failed' ? connectionHint(cause) : '';
    super('database_failed', `@pay/journal: the database ${detail} (${step})${hint === '' ? '' : `. ${hint}`}`, { cause });
    this.step = step;
    this.reason = reason;
    const code = (cause as { code?: unknown } | null)?.code;
    this.sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  }
}

/** The driver the journal needs is not installed: the message names the package to install. */
export class DriverMissingError extends JournalError {
  override name = 'DriverMissingError';
  /** The npm package to install. */
  readonly packageName: string;
  /** @internal */
  constructor(packageName: string, cause: unknown) {
    super('driver_missing', `@pay/journal: ${packageName} is not installed; run \`npm install ${packageName}\` or pass your own database`, {
      cause,
    });
    this.packageName = packageName;
  }
}

/** A payin or a payout (TransactionKind of @pay/schema). */
export type Kind = TransactionKind;

/**
 * What the three errors of a create under one reference_id share (a conflict, one in flight, one
 * refused): which create it was. Nothing was sent by the call that got one.
 */
abstract class CreateError extends JournalError {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** @internal */
  constructor(code: JournalErrorCode, kind: Kind, referenceId: string, message: string) {
    super(code, message);
    this.kind = kind;
    this.referenceId = referenceId;
  }
}

/**
 * A create whose `reference_id` is already recorded with a different amount or currency (created,
 * in flight or unknown): nothing was sent. A reference_id names one transaction for ever; only
 * one under which nothing was made (refused, or proven missing) may be used again, by any body.
 */
export class ReferenceConflictError extends CreateError {
  override name = 'ReferenceConflictError';
  /** What is recorded under this reference_id. */
  readonly recorded: { readonly amount: string; readonly currency: string | null };
  /** @internal */
  constructor(
    kind: Kind,
    referenceId: string,
    recorded: { amount: string; currency: string | null },
    given: { amount: string; currency: string | null },
  ) {
    super(
      'reference_conflict',
      kind,
      referenceId,
      `@pay/journal: ${kind} reference_id ${JSON.stringify(referenceId)} is recorded with ${recorded.amount} ${recorded.currency ?? '(no currency)'}, not ${given.amount} ${given.currency ?? '(no currency)'}; nothing was sent`,
    );
    this.recorded = recorded;
  }
}

/**
 * A create with this `reference_id` is in flight on some instance, or its outcome is unknown and
 * not yet decidable: nothing was sent. `recover()` settles it; ask again after `decidableAt`.
 */
export class CreateInFlightError extends CreateError {
  override name = 'CreateInFlightError';
  /** `in_flight` or `unknown`. */
  readonly state: Extract<IntentState, 'in_flight' | 'unknown'>;
  /** When `recover()` can decide it, when known. */
  readonly decidableAt: Date | undefined;
  /** @internal */
  constructor(kind: Kind, referenceId: string, state: Extract<IntentState, 'in_flight' | 'unknown'>, decidableAt: Date | undefined) {
    const when = decidableAt ? `; recover() can decide it from ${decidableAt.toISOString()}` : '';
    super(
      'create_in_flight',
      kind,
      referenceId,
      `@pay/journal: a ${kind} create with reference_id ${JSON.stringify(referenceId)} is ${state.replace('_', ' ')}${when}; nothing was sent`,
    );
    this.state = state;
    this.decidableAt = decidableAt;
  }
}

/**
 * `send` of a queued create that was refused (by the client's checks or a 4xx of the service):
 * nothing was created and nothing was sent now. `reason` is the refusal's error, as recorded.
 * Correct the body and enqueue it again (the reference_id is free).
 */
export class CreateRefusedError extends CreateError {
  override name = 'CreateRefusedError';
  /** Why it was refused (the error's name and message). */
  readonly reason: string;
  /** @internal */
  constructor(kind: Kind, referenceId: string, reason: string) {
    super(
      'create_refused',
      kind,
      referenceId,
      `@pay/journal: the queued ${kind} create with reference_id ${JSON.stringify(referenceId)} was refused (${reason}); nothing was created or sent`,
    );
    this.reason = reason;
  }
}

/**
 * `send` of a reference_id under which nothing of this kind is recorded: the transaction that
 * enqueued it has not committed yet, was rolled back, or never ran, or it was enqueued as the
 * other kind (`recordedAs` says so). Nothing was sent. Call `send` after your transaction commits,
 * with the kind it was enqueued as.
 */
export class NotRecordedError extends CreateError {
  override name = 'NotRecordedError';
  /** What is recorded under this reference_id as the other kind, if anything: its kind and state. */
  readonly recordedAs: { readonly kind: Kind; readonly state: IntentState } | undefined;
  /** @internal */
  constructor(kind: Kind, referenceId: string, recordedAs: { kind: Kind; state: IntentState } | undefined) {
    const ref = JSON.stringify(referenceId);
    super(
      'not_recorded',
      kind,
      referenceId,
      recordedAs === undefined
        ? `@pay/journal: ${kind}s.send: nothing is recorded under reference_id ${ref}: the transaction that enqueued it has not committed, was rolled back, or never ran; call send after your commit; nothing was sent`
        : `@pay/journal: ${kind}s.send: no ${kind} is recorded under reference_id ${ref}, but a ${recordedAs.kind} is (${recordedAs.state.replace('_', ' ')}): call ${recordedAs.kind}s.send(${ref}); nothing was sent`,
    );
    this.recordedAs = recordedAs;
  }
}

/**
 * A webhook for a transaction the journal cannot place: no intent or transaction has its id or
 * reference_id, and the service's lookups by id find it neither as a payin nor as a payout. The
 * webhook is answered 500, so the service retries.
 */
export class UnknownTransactionError extends JournalError {
  override name = 'UnknownTransactionError';
  /** The service's transaction id in the webhook. */
  readonly transactionId: string;
  /** @internal */
  constructor(transactionId: string, cause?: unknown) {
    super('unknown_transaction', `@pay/journal: transaction ${JSON.stringify(transactionId)} is neither a known payin nor a known payout`, {
      cause,
    });
    this.transactionId = transactionId;
  }
}

/**
 * A webhook for a transaction the journal has no row or intent of, and the service's lookup that
 * would place it (payin or payout) failed: the service was down, slow, refused it or answered
 * something other than a proven "not found". Nothing is known to be missing; the webhook is
 * answered 500, so the service retries. `cause` is the lookup's error.
 */
export class LookupFailedError extends JournalError {
  override name = 'LookupFailedError';
  /** The service's transaction id in the webhook. */
  readonly transactionId: string;
  /** @internal */
  constructor(transactionId: string, cause: unknown) {
    super(
      'lookup_failed',
      `@pay/journal: could not place transaction ${JSON.stringify(transactionId)}: the service's lookup failed (${describe(cause)}); retry later`,
      { cause },
    );
    this.transactionId = transactionId;
  }
}

/** A cause's message, short, for the text of a DatabaseError. */
function messageOf(cause: unknown): string {
  // Node's connection to a name of several addresses fails with an AggregateError with no message
  // of its own: its attempts say what failed.
  const attempts = cause instanceof AggregateError && cause.message === '' ? cause.errors.filter((e) => e instanceof Error) : [];
  const message = attempts.length > 0 ? attempts.map((e) => e.message).join('; ') : cause instanceof Error ? cause.message : String(cause);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/**
 * The merchant's handler threw, or did not finish within `timeoutMs`, while an event was being
 * recorded: the event and everything the handler wrote were rolled back (and, past the time limit,
 * the transaction ended without waiting for the handler, whose later statements are refused). A
 * webhook is answered 500, so the service retries. `cause` is the handler's error, when it threw.
 */
export class HandlerFailedError extends JournalError {
  override name = 'HandlerFailedError';
  /** `threw`, or `timed_out`: still running when the transaction's time limit passed. */
  readonly reason: 'threw' | 'timed_out';
  /** @internal */
  constructor(what: string, cause: unknown, timedOutAfterMs?: number) {
    super(
      'handler_failed',
      timedOutAfterMs === undefined
        ? `@pay/journal: the handler failed for ${what}; the event was rolled back`
        : `@pay/journal: the handler did not finish within ${timedOutAfterMs} ms (timeoutMs) for ${what}; the event was rolled back and the handler's later statements are refused`,
      timedOutAfterMs === undefined ? { cause } : undefined,
    );
    this.reason = timedOutAfterMs === undefined ? 'threw' : 'timed_out';
  }
}
