// "Is this record ours?": whether a transaction found under a reference_id is the one a create
// asked for. The interface has no idempotency key, so the reference_id and this check are the
// only handle; the client (a 409, a lost answer), the journal (a repeat of a recorded create, an
// enqueue, recover()) all ask it, and must all answer alike.
import { sameDecimal } from './decimals.js';

/** The money a create sent: its amount, and its currency when it named one (the legacy body may not). */
export interface SentMoney {
  readonly amount: number | string;
  readonly currency?: string | null | undefined;
}

/**
 * True when a record `found` under a create's reference_id is that create's: the same amount,
 * compared as decimal text (never as numbers: past 15 digits two amounts can be one double, and
 * `10.5` is `"10.50"`), and the same currency. A create that named no currency (the legacy body,
 * where the service picks it) matches a record in any currency: nothing sent says otherwise. A
 * record with no readable amount is never ours.
 */
export function isSameCreate(sent: SentMoney, found: { readonly amount: unknown; readonly currency: unknown }): boolean {
  const amount = found.amount;
  if (typeof amount !== 'number' && typeof amount !== 'string') return false;
  if (!sameDecimal(String(amount), String(sent.amount))) return false;
  return sent.currency == null || found.currency === sent.currency;
}
