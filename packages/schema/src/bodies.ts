// Every body schema of the interface by the name the documents use: the one list the endpoint
// table, the OpenAPI document and the JSON Schema files are made from. A leaf, so the endpoint table
// can name bodies without importing the document generator.
import type { TSchema } from 'typebox';
import { CardPushRequest } from './card.js';
import { Money, MoneyV1, ResponseMoney } from './money.js';
import { CreatePayinRequest, CreatePayinRequestV1 } from './payin.js';
import { CreatePayoutRequest, CreatePayoutRequestPaymentPage } from './payout.js';
import { NextAction, PayinCreateResponse, PayinLookupResponse, PayoutCreateResponse, PayoutLookupResponse } from './responses.js';
import { WebhookPayload } from './webhook.js';

/** Every body schema of the interface, by the name the documents (and the endpoint table) use. */
export const BODY_SCHEMAS = {
  Money,
  MoneyV1,
  ResponseMoney,
  NextAction,
  CreatePayinRequest,
  CreatePayinRequestV1,
  CreatePayoutRequest,
  CreatePayoutRequestPaymentPage,
  CardPushRequest,
  PayinCreateResponse,
  PayinLookupResponse,
  PayoutCreateResponse,
  PayoutLookupResponse,
  WebhookPayload,
} satisfies Record<string, TSchema>;

/** Name of a body schema that is published as a JSON Schema file. */
export type SchemaName = keyof typeof BODY_SCHEMAS;

/** Names of the body schemas published as `json-schema/<Name>.json`. */
export const SCHEMA_NAMES = Object.keys(BODY_SCHEMAS) as readonly SchemaName[];
