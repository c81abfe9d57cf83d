/**
 * Create-payout request bodies (`POST /v2/merchants/payouts/`). The interface marks
 * `redirect_urls.success` and `redirect_urls.fail` "conditional: Required only for the
 * payment-page integration type"; the integration type is not part of the body, so both variants
 * are exported and the caller picks the one of their integration.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { httpUrl, webhookUrl } from './annotations.js';
import { PayoutCustomer } from './customer.js';
import { Money } from './money.js';
import { ReferenceId } from './payin.js';

const success = () => httpUrl('Customer redirect after success.');
const fail = () => httpUrl('Customer redirect after failure.');

/** Body of create-payout for integrations without the payment page: redirect URLs optional. */
export const CreatePayoutRequest = Type.Object(
  {
    reference_id: Type.Optional(ReferenceId),
    payment: Money,
    customer: PayoutCustomer,
    webhook_url: webhookUrl('Merchant server address for notifications.'),
    redirect_urls: Type.Optional(
      Type.Object({ success: Type.Optional(success()), fail: Type.Optional(fail()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false, title: 'CreatePayoutRequest', description: 'Create-payout request body (v2).' },
);

/** Body of create-payout for integrations without the payment page. */
export type CreatePayoutRequest = Static<typeof CreatePayoutRequest>;

/** Body of create-payout for the payment-page integration: `redirect_urls.success` and `.fail` required. */
export const CreatePayoutRequestPaymentPage = Type.Object(
  {
    reference_id: Type.Optional(ReferenceId),
    payment: Money,
    customer: PayoutCustomer,
    webhook_url: webhookUrl('Merchant server address for notifications.'),
    redirect_urls: Type.Object({ success: success(), fail: fail() }, { additionalProperties: false }),
  },
  {
    additionalProperties: false,
    title: 'CreatePayoutRequestPaymentPage',
    description: 'Create-payout request body (v2) for the payment-page integration type.',
  },
);

/** Body of create-payout for the payment-page integration. */
export type CreatePayoutRequestPaymentPage = Static<typeof CreatePayoutRequestPaymentPage>;
