// A claimed create, sent through the client: its own checks, signing, retries and reconciling
// (the client's create sends it exactly once), as a payin or a payout (to the payment page or not).
import type { Client } from '@pay/client';
import type { Prepared } from './prepare.js';

/** Sends a prepared create through the client; its answer's record. */
export function sendThroughClient(client: Client, p: Prepared): Promise<{ data: Record<string, unknown> }> {
  const { payins, payouts } = client;
  const body = p.body as never;
  if (p.kind === 'payin') return payins.create(body) as Promise<{ data: Record<string, unknown> }>;
  return (p.paymentPage ? payouts.create(body, { paymentPage: true }) : payouts.create(body)) as Promise<{
    data: Record<string, unknown>;
  }>;
}
