// A transaction as the journal recorded it, read from an intent joined with its transaction
// (sql/intents.ts, readIntent): what a create resolves with and what the readers hand out.
import { type DatabaseFailure, DatabaseError, type Kind } from './errors.js';
import type { Row } from './port.js';

/**
 * A transaction as the journal has recorded it: the transaction of a created intent (a create's
 * result, `intent()` in state `created`, `get()`). The intent becomes `created` in the statement
 * that records its transaction with the create's status (record_created), so it always has one.
 */
export interface RecordedTransaction {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The service's id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** The current status, by the status order: the create's, or a later one. */
  readonly status: string;
  /** Exact decimal text, as sent. */
  readonly amount: string;
  /** The currency, as sent (ISO 4217). */
  readonly currency: string | null;
  /** The create answer's `next_action` (where to send the customer), when the create answer was received. */
  readonly nextAction: { readonly type: string; readonly url: string } | null;
}

/** What a create through the journal resolves with. */
export interface JournalCreateResult {
  /** The transaction as recorded, after the create's event was recorded and handled. */
  readonly transaction: RecordedTransaction;
  /** True when nothing was sent: the reference_id was already created, and this is the record. */
  readonly replayed: boolean;
}

/**
 * A transaction from a row of the intent joined with its transaction (id, status, amount, currency,
 * next_action). `step` and `reason` are the error's when the row breaks what the journal writes (a
 * created intent without its transaction's id, status or amount: a table changed by hand).
 *
 * @throws DatabaseError when the row lacks one of them.
 */
export function toRecorded(
  kind: Kind,
  referenceId: string,
  row: Row,
  step: string,
  reason: DatabaseFailure = 'failed',
): RecordedTransaction {
  // A string: earlier versions sent next_action to postgres.js as text for a jsonb parameter, which
  // it JSON-encoded once more, so such a row holds a JSON string; it reads as the object all the same.
  const next = row['next_action'];
  const { id, status, amount } = row;
  if (typeof id !== 'string' || typeof status !== 'string' || typeof amount !== 'string') {
    const missing = Object.entries({ id, status, amount }).find(([, value]) => typeof value !== 'string')?.[0];
    throw new DatabaseError(
      step,
      new Error(`the created ${kind} ${JSON.stringify(referenceId)} has no transaction ${missing} recorded`),
      reason,
    );
  }
  return {
    kind,
    id,
    referenceId,
    status,
    amount,
    currency: (row['currency'] as string | null) ?? null,
    nextAction: (typeof next === 'string' ? JSON.parse(next) : (next ?? null)) as RecordedTransaction['nextAction'],
  };
}
