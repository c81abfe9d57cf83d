// A test control (SHOP_TEST_CONTROLS=1, never in production): the next webhooks fail, so tests
// and the demo can watch the service retry. It fails inside the journal's handler, as a real bug
// or a database outage would: the event rolls back with its order change and the webhook is
// answered 500.
import type { JournalEvent } from '@pay/journal';

/** How many webhooks to fail next, and of which status (any when not given). */
export interface WebhookFailures {
  /** Throws while failures are left for this event's status (webhooks only). */
  failIfAsked(event: JournalEvent): void;
  set(count: number, status: string | undefined): { left: number; status?: string };
}

export function webhookFailures(): WebhookFailures {
  let left = 0;
  let only: string | undefined;
  return {
    failIfAsked(event) {
      if (event.source !== 'webhook' || left === 0 || (only !== undefined && only !== event.status)) return;
      left -= 1;
      throw new Error(`test control: failing this webhook on purpose (${left} more to fail)`);
    },
    set(count, status) {
      left = count;
      only = status;
      return { left, ...(status === undefined ? {} : { status }) };
    },
  };
}
