// The public types a strict TypeScript program reads, checked by the compiler (`tsc -p
// tsconfig.json`, the first step of `pnpm test`): each expectTypeOf holds, and each line marked
// as an expected error must not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { IntentState, Journal, RecordedIntent, RecordedTransaction } from '../src/index.js';

declare const intent: RecordedIntent;
declare const journal: Journal;

describe('RecordedIntent', () => {
  it('is told apart by state: created has the transaction, unknown the time it can be decided', () => {
    expectTypeOf(intent.state).toEqualTypeOf<IntentState>();
    if (intent.state === 'created') {
      expectTypeOf(intent.transaction).toEqualTypeOf<RecordedTransaction>();
      expectTypeOf(intent.decidableAt).toEqualTypeOf<null>();
    } else if (intent.state === 'unknown') {
      expectTypeOf(intent.decidableAt).toEqualTypeOf<Date>();
      expectTypeOf(intent.transaction).toEqualTypeOf<null>();
    } else {
      expectTypeOf(intent.state).toEqualTypeOf<'queued' | 'in_flight' | 'not_created'>();
      expectTypeOf(intent.transaction).toEqualTypeOf<null>();
      expectTypeOf(intent.decidableAt).toEqualTypeOf<null>();
    }
  });

  it('narrows through optional chaining on what intent() resolves with', async () => {
    const read = await journal.payins.intent('order-1');
    if (read?.state === 'created') expectTypeOf(read.transaction.id).toEqualTypeOf<string>();
    // Before narrowing, the transaction may be null and the intent undefined.
    // @ts-expect-error
    read.transaction.id;
    // @ts-expect-error
    read?.transaction.id;
  });

  it('keeps the fields every state has', () => {
    expectTypeOf(intent.referenceId).toEqualTypeOf<string>();
    expectTypeOf(intent.amount).toEqualTypeOf<string>();
    expectTypeOf(intent.attempts).toEqualTypeOf<number>();
    expectTypeOf(intent.currency).toEqualTypeOf<string | null>();
  });
});

describe('RecordedTransaction', () => {
  it('always has a status and an amount: it is the transaction of a created intent, recorded with its status', () => {
    expectTypeOf<RecordedTransaction['status']>().toEqualTypeOf<string>();
    expectTypeOf<RecordedTransaction['amount']>().toEqualTypeOf<string>();
    expectTypeOf<RecordedTransaction['currency']>().toEqualTypeOf<string | null>();
  });

  it("has next_action only when the create's answer was received", () => {
    expectTypeOf<RecordedTransaction['nextAction']>().toEqualTypeOf<{ readonly type: string; readonly url: string } | null>();
  });
});
