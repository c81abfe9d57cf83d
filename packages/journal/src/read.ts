// Reading what the journal recorded, for the merchant's own pages and support tools, so that they
// never read the journal's tables: a create's intent (where it stands, and the transaction once
// created) and a transaction's history of statuses (each with what brought it and what it did).
import { isTransactionKind } from '@pay/schema';
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import type { EventSource } from './handler.js';
import type { IntentState } from './intent-states.js';
import { type RecordedTransaction, toRecorded } from './recorded.js';
import { readHistory } from './sql/events.js';
import { readIntent } from './sql/intents.js';
import { run } from './sql/statement.js';
import type { EventOutcome } from './status-order.js';

/** What every recorded create carries, whatever its state. */
interface IntentFields {
  /** Payin or payout. */
  readonly kind: Kind;
  /** The merchant's reference_id. */
  readonly referenceId: string;
  /** Exact decimal text of the amount sent (the last body sent, for a reference_id created again). */
  readonly amount: string;
  /** The currency sent (ISO 4217). */
  readonly currency: string | null;
  /** How many times a create was sent under this reference_id (one, unless it was proven not created and sent again). */
  readonly attempts: number;
}

/**
 * A create as the journal recorded it, told apart by `state`: after `state === 'created'` the
 * transaction is there, after `state === 'unknown'` the time from which recover() can decide it.
 */
export type RecordedIntent =
  | (IntentFields & {
      /** Created: the service has the transaction. */
      readonly state: 'created';
      /** The transaction as recorded. */
      readonly transaction: RecordedTransaction;
      readonly decidableAt: null;
    })
  | (IntentFields & {
      /** Its answer was lost: recover() decides it once it can be. */
      readonly state: 'unknown';
      readonly transaction: null;
      /** The time from which recover() can decide it. */
      readonly decidableAt: Date;
    })
  | (IntentFields & {
      /** Queued, in flight, or not created (its reference_id is free again). */
      readonly state: Exclude<IntentState, 'created' | 'unknown'>;
      readonly transaction: null;
      readonly decidableAt: null;
    });

/** A status recorded for a transaction. */
export interface RecordedStatus {
  /** The status. */
  readonly status: string;
  /** What brought it. */
  readonly source: EventSource;
  /**
   * `change`: it became the transaction's status; `delivered`: handed to the handler but the
   * transaction stayed in its terminal status; `stale`: it came after a terminal status and was
   * not delivered. (A duplicate is not recorded again.)
   */
  readonly outcome: Exclude<EventOutcome, 'duplicate'>;
  /** The transaction's status when it came (null for the first). */
  readonly previous: string | null;
  /** When the journal recorded it (the database's clock). */
  readonly recordedAt: Date;
}

/** The readers of one journal. */
export function readers(ctx: Context) {
  const { db, names } = ctx;

  async function intent(kind: Kind, referenceId: string): Promise<RecordedIntent | undefined> {
    if (typeof referenceId !== 'string') throw new TypeError(`${kind}s.intent: referenceId must be a string`);
    const rows = await run(db, readIntent(names, kind, referenceId));
    const row = rows[0];
    if (row === undefined) return undefined;
    const state = row['state'] as IntentState;
    const fields: IntentFields = {
      kind,
      referenceId,
      amount: String(row['amount']),
      currency: (row['currency'] as string | null) ?? null,
      attempts: Number(row['attempts']),
    };
    if (state === 'created') return { ...fields, state, transaction: toRecorded(kind, referenceId, row, 'read intent'), decidableAt: null };
    // Every way to `unknown` sets decidable_at (the error's time, else the in-flight lease's end).
    if (state === 'unknown') return { ...fields, state, transaction: null, decidableAt: new Date(row['decidable_at'] as string) };
    return { ...fields, state, transaction: null, decidableAt: null };
  }

  async function history(kind: Kind, id: string): Promise<RecordedStatus[]> {
    if (!isTransactionKind(kind)) throw new TypeError("history: kind must be 'payin' or 'payout'");
    if (typeof id !== 'string') throw new TypeError('history: id must be a string');
    const rows = await run(db, readHistory(names, kind, id));
    return rows.map((r) => ({
      status: r['status'] as string,
      source: r['source'] as EventSource,
      outcome: r['outcome'] as RecordedStatus['outcome'],
      previous: (r['previous'] as string | null) ?? null,
      recordedAt: new Date(r['recorded_at'] as string),
    }));
  }

  return { intent, history };
}
