// The payin every create benchmark of this package sends: the schema's example, with a new
// reference_id each call (unique across processes too) and its webhooks to `webhookUrl`.
import { EXAMPLES } from '@pay/schema';

/** A function that returns a new payin body at each call. */
export function payinBodies(webhookUrl) {
  let n = 0;
  return () => ({
    ...EXAMPLES.createPayin,
    webhook_url: webhookUrl,
    reference_id: `bench-${process.pid}-${++n}`,
    payment: { amount: '10.50', currency: 'EUR' },
  });
}
