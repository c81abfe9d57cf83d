// A create whose intent is already there (claimed by nobody new): what is recorded, a conflict,
// a refused queued create, or one in flight.
import { isSameCreate, TRANSACTION_KINDS } from '@pay/schema';
import type { Context } from '../context.js';
import { CreateInFlightError, CreateRefusedError, type Kind, NotRecordedError, ReferenceConflictError } from '../errors.js';
import type { IntentState } from '../intent-states.js';
import { recordedTransaction } from '../outcome.js';
import { readIntentState } from '../sql/intents.js';
import { run } from '../sql/statement.js';
import type { JournalCreateResult } from '../recorded.js';
import type { Prepared } from './prepare.js';

/**
 * The intent already there: what is recorded, a conflict (when `given` is another amount or
 * currency), a refused queued create, or a create in flight.
 */
export async function existing(
  ctx: Context,
  kind: Kind,
  referenceId: string,
  given: Pick<Prepared, 'amount' | 'currency'> | undefined,
): Promise<JournalCreateResult> {
  const { db, names } = ctx;
  const rows = await run(db, readIntentState(names, kind, referenceId));
  const row = rows[0];
  if (row === undefined) {
    if (given === undefined) {
      // Nothing of this kind: name what the other kind holds under it, a likely mix-up.
      const other = TRANSACTION_KINDS.find((k) => k !== kind)!;
      const elsewhere = (await run(db, readIntentState(names, other, referenceId)))[0];
      throw new NotRecordedError(kind, referenceId, elsewhere && { kind: other, state: elsewhere['state'] as IntentState });
    }
    // Gone between the two statements: impossible, intents are never deleted; say so plainly.
    throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
  }
  const recordedAmount = String(row['amount']);
  const recordedCurrency = (row['currency'] as string | null) ?? null;
  if (given !== undefined && !isSameCreate(given, { amount: recordedAmount, currency: recordedCurrency })) {
    throw new ReferenceConflictError(kind, referenceId, { amount: recordedAmount, currency: recordedCurrency }, given);
  }
  const state = row['state'] as IntentState;
  if (state === 'created') return { transaction: await recordedTransaction(ctx, kind, referenceId), replayed: true };
  if (state === 'not_created' && given === undefined) throw new CreateRefusedError(kind, referenceId, String(row['last_error'] ?? ''));
  const decidable = row['decidable_at'] == null ? undefined : new Date(row['decidable_at'] as string);
  // not_created was re-claimed above unless another instance just did; queued is being sent by another.
  throw new CreateInFlightError(kind, referenceId, state === 'unknown' ? 'unknown' : 'in_flight', decidable);
}
