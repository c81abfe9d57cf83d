// A create's outcome, recorded: the intent becomes `created` with its transaction, and the
// transaction's status goes down the one event path, in one statement (record_created), so a
// create answered by the service (or found by recover()) costs one round trip to the database
// when there is no handler, and a transaction around that statement and the handler when there is.
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import { eventReport, eventWork, handOver, recordedFrom, TERMINAL_LIST } from './events.js';
import type { EventReport } from './report.js';
import { PREPARE, type Row } from './port.js';

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

/** What the service said of a create: its answer, or the record a lookup found. */
export interface Created {
  readonly kind: Kind;
  readonly referenceId: string;
  /** The transaction's id, status and, from a create answer, next_action. */
  readonly data: { readonly id?: unknown; readonly status?: unknown; readonly next_action?: unknown };
  /** Exact decimal text of the amount (the answer's, else the one sent). */
  readonly amount: string;
  readonly currency: string | null;
  /** `create` for the create's answer, `recovery` for a lookup by recover(). */
  readonly source: 'create' | 'recovery';
  /** recover(): only while this instance holds the intent's lease. Null: whoever holds it. */
  readonly owner: string | null;
}

/**
 * Records a create's outcome and hands its status to the handler. Resolves with the transaction
 * as recorded and whether this call decided the intent (false: decided elsewhere meanwhile).
 *
 * @throws HandlerFailedError, DatabaseError (nothing recorded).
 */
export async function recordCreated(ctx: Context, created: Created): Promise<{ transaction: RecordedTransaction; taken: boolean }> {
  const { db, names } = ctx;
  const { kind, referenceId, data } = created;
  const id = String(data.id);
  const input = {
    kind,
    id,
    referenceId,
    status: String(data.status),
    source: created.source,
    amount: created.amount,
    currency: created.currency ?? undefined,
  } as const;
  const nextAction = data.next_action === undefined ? null : JSON.stringify(data.next_action);
  let reported: EventReport | undefined;
  const result = await eventWork(db, ctx.handler, 'record outcome', async (query) => {
    const rows = await query(
      `${PREPARE}SELECT r_outcome, r_previous, r_kind, r_taken, r_amount, r_currency, r_next_action
         FROM ${names.recordCreated}($1, $2, $3, $4::jsonb, $5, $6, $7::numeric, $8, $9, $10)`,
      [kind, referenceId, id, nextAction, input.status, input.source, input.amount, created.currency, created.owner, TERMINAL_LIST],
    );
    const row = rows[0]!;
    const recorded = recordedFrom(row, input);
    await handOver(query, input, recorded, ctx.handler);
    reported = eventReport(input, recorded);
    const taken = row['r_taken'] === true;
    // Decided here: everything is known from the one statement. Decided elsewhere: read back.
    const transaction = taken
      ? toRecorded(kind, referenceId, {
          id,
          status: recorded.status,
          amount: row['r_amount'],
          currency: row['r_currency'],
          next_action: row['r_next_action'],
        })
      : await readRecorded(query, ctx, kind, referenceId);
    return { transaction, taken };
  });
  ctx.report(reported);
  return result;
}

/** The transaction of a created intent, read with `query`. */
async function readRecorded(
  query: (text: string, params?: readonly unknown[]) => Promise<Row[]>,
  ctx: Context,
  kind: Kind,
  referenceId: string,
): Promise<RecordedTransaction> {
  const rows = await query(
    `${PREPARE}SELECT i.transaction_id AS id, t.status, i.amount::text AS amount, i.currency, i.next_action
       FROM ${ctx.names.intents} i LEFT JOIN ${ctx.names.transactions} t ON t.kind = i.kind AND t.id = i.transaction_id
      WHERE i.kind = $1 AND i.reference_id = $2`,
    [kind, referenceId],
  );
  return toRecorded(kind, referenceId, rows[0]!);
}

/** The transaction recorded under a created intent (read in one statement). */
export const recordedTransaction = (ctx: Context, kind: Kind, referenceId: string) =>
  readRecorded((text, params) => ctx.db.query('read transaction', text, params), ctx, kind, referenceId);

/** A transaction from a row of the intent joined with its transaction (id, status, amount, currency, next_action). */
export function toRecorded(kind: Kind, referenceId: string, row: Row): RecordedTransaction {
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
