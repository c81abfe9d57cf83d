// A create's outcome, recorded: the intent becomes `created` with its transaction, and the
// transaction's status goes down the one event path, in one statement (record_created), so a
// create answered by the service (or found by recover()) costs one round trip to the database
// when there is no handler, and a transaction around that statement and the handler when there is.
import type { Context } from './context.js';
import type { ItemResult } from './group-commit.js';
import type { DatabaseFailure, Kind } from './errors.js';
import { eventReport, eventWork, handOver, recordedFrom } from './events.js';
import type { Query, Row } from './port.js';
import { type RecordedTransaction, toRecorded } from './recorded.js';
import type { EventReport } from './report.js';
import { callRecordCreated, callRecordCreatedMany } from './sql/functions.js';
import { readIntent } from './sql/intents.js';
import { oneRow, run, runIn } from './sql/statement.js';

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
  const input = eventOf(created);
  let reported: EventReport | undefined;
  const result = await eventWork(ctx.db, ctx.handler, 'record outcome', async (query) => {
    const rows = await runIn(query, callRecordCreated(ctx.names, { ...valuesOf(created), owner: created.owner }, ctx.clock.now()));
    // Bare (no handler), the call may have committed; in a handler's transaction it rolls back.
    const row = oneRow(rows, 'record outcome', ctx.handler === undefined ? 'commit_unknown' : 'failed');
    const recorded = recordedFrom(row, input);
    await handOver(query, input, recorded, ctx.handler);
    reported = eventReport(input, recorded);
    return answerOf(row, created, recorded.status, ctx.handler === undefined ? 'commit_unknown' : 'failed', () =>
      readRecorded(query, ctx, created.kind, created.referenceId),
    );
  });
  ctx.report(reported);
  return result;
}

/**
 * Records the outcomes of many creates in one statement and one commit (group commit), when no
 * handler runs: with a handler, each create's status commits with its own handler's writes, in a
 * transaction of its own. One result per item, in their order; throws (nothing recorded) when the
 * statement fails.
 */
export async function recordCreatedTogether(
  ctx: Context,
  items: readonly Created[],
): Promise<ItemResult<{ transaction: RecordedTransaction; taken: boolean }>[]> {
  const rows = await run(ctx.db, callRecordCreatedMany(ctx.names, items.map(valuesOf), ctx.clock.now()));
  const answers = JSON.parse(String(rows[0]?.['r_rows'] ?? '[]')) as Row[];
  const byIndex = new Map(answers.map((row) => [Number(row['r_index']), row]));
  return Promise.all(
    items.map(async (created, i) => {
      const row = byIndex.get(i);
      if (row === undefined) return { ok: false, error: new Error('@pay/journal: record_created answered no row for a create') } as const;
      const input = eventOf(created);
      const recorded = recordedFrom(row, input);
      ctx.report(eventReport(input, recorded));
      try {
        const value = await answerOf(row, created, recorded.status, 'commit_unknown', () =>
          recordedTransaction(ctx, created.kind, created.referenceId),
        );
        return { ok: true, value } as const;
      } catch (error) {
        return { ok: false, error } as const;
      }
    }),
  );
}

/** The event a create's outcome records. */
const eventOf = (created: Created) =>
  ({
    kind: created.kind,
    id: String(created.data.id),
    referenceId: created.referenceId,
    status: String(created.data.status),
    source: created.source,
    amount: created.amount,
    currency: created.currency ?? undefined,
  }) as const;

/** A create's outcome as record_created takes it (all but the owner). */
const valuesOf = (created: Created) => ({
  ...eventOf(created),
  currency: created.currency,
  nextAction: created.data.next_action === undefined ? null : JSON.stringify(created.data.next_action),
});

/**
 * What a create resolves with, from record_created's answer: decided here, everything is known
 * from the one statement; decided elsewhere meanwhile, the transaction is read back (`readBack`).
 * `status` is the transaction's status after the statement: the create's, or the one its row had
 * (a webhook recorded it first); `reason` is the DatabaseError's should the answer lack it.
 */
async function answerOf(
  row: Row,
  created: Created,
  status: string | null,
  reason: DatabaseFailure,
  readBack: () => Promise<RecordedTransaction>,
): Promise<{ transaction: RecordedTransaction; taken: boolean }> {
  const { kind, referenceId } = created;
  if (row['r_taken'] !== true) return { transaction: await readBack(), taken: false };
  const answer = {
    id: String(created.data.id),
    status,
    amount: row['r_amount'],
    currency: row['r_currency'],
    next_action: row['r_next_action'],
  };
  const transaction = toRecorded(kind, referenceId, answer, 'record outcome', reason);
  return { transaction, taken: true };
}

/** The transaction of a created intent, read with `query`. */
async function readRecorded(query: Query, ctx: Context, kind: Kind, referenceId: string): Promise<RecordedTransaction> {
  const rows = await runIn(query, readIntent(ctx.names, kind, referenceId));
  return toRecorded(kind, referenceId, oneRow(rows, 'read transaction', 'failed'), 'read transaction');
}

/** The transaction recorded under a created intent (read in one statement; a failure names the step `read transaction`). */
export async function recordedTransaction(ctx: Context, kind: Kind, referenceId: string): Promise<RecordedTransaction> {
  const rows = await run(ctx.db, { ...readIntent(ctx.names, kind, referenceId), step: 'read transaction' });
  return toRecorded(kind, referenceId, oneRow(rows, 'read transaction', 'failed'), 'read transaction');
}
