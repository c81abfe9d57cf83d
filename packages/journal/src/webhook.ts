// The journal as the webhook inbox: options to spread into any @pay/webhook adapter's
// `webhookHandler`. The adapter verifies the signature and parses the payload; the journal then
// records the (transaction, status) and runs the merchant's handler in one database transaction,
// and only once that commits does the adapter answer 2xx. A database or handler failure is a
// handler failure to the adapter: answered 500, so the service retries. The adapter's own
// delivery store is turned off: the events table is the store, shared by every instance, and a
// duplicate arriving at another instance waits on the transaction's row lock, then is found
// recorded and acknowledged without calling the handler.
import { TRANSACTION_KINDS } from '@pay/schema';
import type { WebhookEvent, WebhookHandlerOptions } from '@pay/webhook';
import { exactAmount } from './amount.js';
import type { Context } from './context.js';
import { type Kind, LookupFailedError, UnknownTransactionError } from './errors.js';
import { eventReport, eventWork, recordEvent } from './events.js';
import { provesMissing } from './proof.js';

/** What the journal gives a `webhookHandler`: its handler, and no delivery store of the adapter's own. */
export type JournalWebhookOptions = Required<Pick<WebhookHandlerOptions, 'handler' | 'store'>>;

/** The webhook options of one journal. */
export function webhookOptions(ctx: Context): JournalWebhookOptions {
  const { db, names } = ctx;

  /**
   * Payin or payout, asked of the service: a transaction the journal has no row or intent of.
   * Only the service's proven "not found" moves on to the other kind; any other failure is a
   * LookupFailedError (retry), never taken for a transaction that does not exist.
   */
  async function place(event: WebhookEvent): Promise<{ kind: Kind; amount?: string; currency?: string }> {
    for (const kind of TRANSACTION_KINDS) {
      try {
        const { data } = await (kind === 'payin' ? ctx.client.payins : ctx.client.payouts).get(event.id);
        return { kind, amount: exactAmount(data.payment.amount), currency: data.payment.currency as string };
      } catch (error) {
        if (!provesMissing(error)) throw new LookupFailedError(event.id, error);
      }
    }
    throw new UnknownTransactionError(event.id);
  }

  return {
    store: false,
    // Each event is work on the journal's clock (`journal.inbox`): a test clock waits for it.
    handler: (event) => ctx.clock.track('journal.inbox', () => handle(event)),
  };

  /** Records one webhook's event and runs the handler with it. */
  async function handle(event: WebhookEvent): Promise<void> {
    const input = {
      kind: undefined,
      id: event.id,
      referenceId: event.reference_id ?? '',
      status: String(event.status),
      source: 'webhook' as const,
    };
    // Known here (the common case): placed, recorded and handled in one statement's round trip.
    const recorded = await eventWork(db, ctx.handler, 'record event', (query) =>
      recordEvent(query, names, input, ctx.handler, ctx.clock.now()),
    );
    if (recorded.outcome !== 'unplaced') return ctx.report(eventReport(input, recorded));
    // Created outside the journal, or a reference_id used by both kinds: ask, then record.
    const placedInput = { ...input, ...(await place(event)) };
    const placed = await eventWork(db, ctx.handler, 'record event', (query) =>
      recordEvent(query, names, placedInput, ctx.handler, ctx.clock.now()),
    );
    ctx.report(eventReport(placedInput, placed));
  }
}
