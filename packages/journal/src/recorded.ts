// A transaction as the journal recorded it, read from an intent joined with its transaction
// (sql/intents.ts, readIntent): what a create resolves with and what the readers hand out.
import type { Kind } from './errors.js';
import type { Row } from './port.js';

/** A transaction as the journal has recorded it. */
export interface RecordedTransaction {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The service's id. */
  readonly id: string;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** The current status, by the status order. */
  readonly status: string | null;
  /** Exact decimal text, as sent. */
  readonly amount: string | null;
  /** The currency, as sent (ISO 4217). */
  readonly currency: string | null;
  /** The create answer's `next_action` (where to send the customer), when the create answer was received. */
  readonly nextAction: { readonly type: string; readonly url: string } | null;
}

/** A transaction from a row of the intent joined with its transaction (id, status, amount, currency, next_action). */
export function toRecorded(kind: Kind, referenceId: string, row: Row): RecordedTransaction {
  // A string: earlier versions sent next_action to postgres.js as text for a jsonb parameter, which
  // it JSON-encoded once more, so such a row holds a JSON string; it reads as the object all the same.
  const next = row['next_action'];
  return {
    kind,
    id: row['id'] as string,
    referenceId,
    status: (row['status'] as string | null) ?? null,
    amount: (row['amount'] as string | null) ?? null,
    currency: (row['currency'] as string | null) ?? null,
    nextAction: (typeof next === 'string' ? JSON.parse(next) : (next ?? null)) as RecordedTransaction['nextAction'],
  };
}
