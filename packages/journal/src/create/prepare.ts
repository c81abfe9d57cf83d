// A create's body, checked and ready to record: its reference_id filled in (the caller's, or a
// new one: the journal must know it before the request leaves), its exact amount and currency,
// and the digest that tells one body from another.
import { type Client, InvalidRequestError, type Operation } from '@pay/client';
import { newReferenceId } from '@pay/schema';
import { exactAmount } from '../amount.js';
import { bodyDigest } from '../digest.js';
import type { Kind } from '../errors.js';
import type { IntentValues } from '../sql/intents.js';

/** A create, checked and ready to record: its reference_id filled in. */
export interface Prepared extends IntentValues {
  /** The body as sent, reference_id included. */
  readonly body: Record<string, unknown>;
  /** A payout to the payment page (the client's `paymentPage` option). */
  readonly paymentPage: boolean;
}

/** The client's operation of a create of `kind`, for the errors the client would throw. */
const operationOf = (kind: Kind): Operation => (kind === 'payin' ? 'payins.create' : 'payouts.create');

/**
 * Checks a body and fills in its reference_id. `checkedBy`: a client whose own check of a create
 * (`payins.check`, the rules its create applies before sending) runs here too, for a create kept
 * to be sent later (an enqueue), whose refusal nobody would see at the send; undefined for a
 * create sent now, which the client checks as it sends.
 */
export async function prepare(
  kind: Kind,
  body: Record<string, unknown>,
  paymentPage: boolean,
  checkedBy: Client | undefined,
): Promise<Prepared> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TypeError(`${kind}s.create: body must be an object`);
  const referenceId = body['reference_id'] === undefined ? newReferenceId() : body['reference_id'];
  if (typeof referenceId !== 'string' || referenceId.length === 0)
    throw new TypeError(`${kind}s.create: reference_id must be a non-empty string`);
  const payment = body['payment'] as { amount?: unknown; currency?: unknown } | undefined;
  const amount = exactAmount(payment?.amount);
  // No amount to record: the client's own error for a body it refuses, before anything is
  // recorded or sent (the client would refuse this amount too, with the same path).
  if (amount === undefined) {
    throw new InvalidRequestError(operationOf(kind), [
      { path: 'payment.amount', message: 'must be a positive number, or a decimal string such as "10.50"' },
    ]);
  }
  const full = { ...body, reference_id: referenceId };
  if (checkedBy !== undefined) {
    if (kind === 'payin') checkedBy.payins.check(full as never);
    else checkedBy.payouts.check(full as never, { paymentPage });
  }
  const currency = typeof payment?.currency === 'string' ? payment.currency : null;
  return { kind, referenceId, amount, currency, digest: bodyDigest(full), body: full, paymentPage };
}
