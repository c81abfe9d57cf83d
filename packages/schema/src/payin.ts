/**
 * Create-payin request bodies: v2 (`POST /v2/merchants/payins/`) and legacy
 * (`POST /v1/merchants/payins/`). Strict: an unknown property is an error, so a typo such as
 * `frist_name` is reported instead of being silently dropped by the service.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { boundedString, ERROR_MESSAGE, httpUrl, webhookUrl } from './annotations.js';
import { PayinCustomer, PayinCustomerV1 } from './customer.js';
import { Money, MoneyV1 } from './money.js';

/** `reference_id`: the merchant's own transaction id, [1..64]. */
export const ReferenceId = boundedString(1, 64, { description: "The merchant's own transaction id." });

/**
 * The longest value of an enum the interface does not list (`method`, `language`), in characters:
 * room for any method or language tag, and no more.
 */
const MAX_OPEN_ENUM_LENGTH = 64;
/** The longest `browser_data.user_agent`, in characters (real user agents stay well under 512). */
const MAX_USER_AGENT_LENGTH = 1024;

/**
 * An enum the interface does not list (`method`, `language`): docs/design.md keeps these open, so any
 * non-empty string of at most MAX_OPEN_ENUM_LENGTH characters passes; `card` is the one documented method.
 */
function openEnum(description: string) {
  return Type.String({ minLength: 1, maxLength: MAX_OPEN_ENUM_LENGTH, description });
}

/** `browser_data`: the customer's user agent and IP address, both required. */
export const BrowserData = Type.Object(
  {
    user_agent: Type.String({ maxLength: MAX_USER_AGENT_LENGTH, description: "The customer's current user agent." }),
    // Not in the interface's rule column, but "If incorrect, the customer cannot see the
    // transaction details": a single address is checked so that a forwarded-for list
    // ("1.2.3.4, 10.0.0.1") or a host name is caught before it costs a payment.
    ip_address: Type.String({
      anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }],
      description: "The customer's current IP address (one IPv4 or IPv6 address).",
      [ERROR_MESSAGE]: "must be the customer's IP address: one IPv4 or IPv6 address",
    }),
  },
  { additionalProperties: false },
);

/** `redirect_urls` of create-payin v2: `fail` and `success` required, `in_progress` optional. */
export const PayinRedirectUrls = Type.Object(
  {
    fail: httpUrl('Customer is redirected here when the transaction fails or is canceled.'),
    success: httpUrl('Customer is redirected here after successful completion.'),
    in_progress: Type.Optional(
      httpUrl('Customer is redirected here on going back while processing is under way and the result is unknown.'),
    ),
  },
  { additionalProperties: false },
);

/** `redirect_urls` of the legacy create-payin: no `in_progress`. */
export const PayinRedirectUrlsV1 = Type.Object(
  {
    fail: httpUrl('Customer is redirected here when the transaction fails or is canceled.'),
    success: httpUrl('Customer is redirected here after successful completion.'),
  },
  { additionalProperties: false },
);

/** Body of `POST /v2/merchants/payins/` (interface: "Create-payin request body (v2)"). */
export const CreatePayinRequest = Type.Object(
  {
    reference_id: Type.Optional(ReferenceId),
    payment: Money,
    method: Type.Optional(openEnum('Payment method, for example card.')),
    customer: PayinCustomer,
    browser_data: BrowserData,
    webhook_url: webhookUrl('Merchant server address for notifications.'),
    redirect_urls: PayinRedirectUrls,
    language: Type.Optional(openEnum('Language of the payment pages.')),
  },
  { additionalProperties: false, title: 'CreatePayinRequest', description: 'Create-payin request body (v2).' },
);

/** Body of `POST /v2/merchants/payins/`. */
export type CreatePayinRequest = Static<typeof CreatePayinRequest>;

/**
 * Body of `POST /v1/merchants/payins/` (legacy): the v2 fields without `method`,
 * `customer.address.state` and `redirect_urls.in_progress`; phone number [5..40]; city [3..40];
 * `payment.currency` and `webhook_url` optional (docs/design.md: the interface cannot tell).
 */
export const CreatePayinRequestV1 = Type.Object(
  {
    reference_id: Type.Optional(ReferenceId),
    payment: MoneyV1,
    customer: PayinCustomerV1,
    browser_data: BrowserData,
    webhook_url: Type.Optional(webhookUrl('Merchant server address for notifications.')),
    redirect_urls: PayinRedirectUrlsV1,
    language: Type.Optional(openEnum('Language of the payment pages.')),
  },
  {
    additionalProperties: false,
    title: 'CreatePayinRequestV1',
    description: 'Create-payin request body (legacy, endpoint 7).',
  },
);

/** Body of `POST /v1/merchants/payins/` (legacy). */
export type CreatePayinRequestV1 = Static<typeof CreatePayinRequestV1>;
