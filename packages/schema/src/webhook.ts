/**
 * Webhook payload (interface: "Payload": id, reference_id, status). Lenient: "Webhook payload
 * fields beyond id, reference_id and status: not shown", so any other field passes.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { TransactionStatus } from './responses.js';

/** Body of a webhook sent by the service on a status change. */
export const WebhookPayload = Type.Object(
  {
    id: Type.String({ description: 'Transaction id.' }),
    // Optional and nullable for the same reason as in responses: the create body may omit it.
    reference_id: Type.Optional(Type.Union([Type.String({ description: "The merchant's own id." }), Type.Null()])),
    status: TransactionStatus,
  },
  { title: 'WebhookPayload', description: 'Webhook payload sent on each transaction status change.' },
);

/** Body of a webhook. */
export type WebhookPayload = Static<typeof WebhookPayload>;
