// A create's outcome, recorded: the intent becomes `created` with its transaction, and the
// transaction's status goes down the one event path, in one statement (record_created), so a
// create answered by the service (or found by recover()) costs one round trip to the database
// when there is no handler, and a transaction around that statement and the handler when there is.
import type { Context } from './context.js';
import type { Kind } from './errors.js';
import { eventReport, eventWork, handOver, recordedFrom } from './events.js';
import type { Query } from './port.js';
import { type RecordedTransaction, toRecorded } from './recorded.js';
import type { EventReport } from './report.js';
import { callRecordCreated } from './sql/functions.js';
import { readIntent } from './sql/intents.js';
import { run, runIn } from './sql/statement.js';

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
    const rows = await runIn(
      query,
      callRecordCreated(names, { ...input, nextAction, currency: created.currency, owner: created.owner }, ctx.clock.now()),
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
async function readRecorded(query: Query, ctx: Context, kind: Kind, referenceId: string): Promise<RecordedTransaction> {
  const rows = await runIn(query, readIntent(ctx.names, kind, referenceId));
  return toRecorded(kind, referenceId, rows[0]!);
}

/** The transaction recorded under a created intent (read in one statement; a failure names the step `read transaction`). */
export async function recordedTransaction(ctx: Context, kind: Kind, referenceId: string): Promise<RecordedTransaction> {
  const rows = await run(ctx.db, { ...readIntent(ctx.names, kind, referenceId), step: 'read transaction' });
  return toRecorded(kind, referenceId, rows[0]!);
}
