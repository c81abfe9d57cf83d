/**
 * Response bodies of the service: payin and payout, create and lookup. Lenient by design: unknown
 * properties pass and open values (status, method, language, next_action.type, error_code) accept
 * any string, so a new field or value from the service never breaks a merchant's parse.
 *
 * @module
 */
import Type, { type Static, type TSchema } from 'typebox';
import { ServiceDateTime } from './datetime.js';
import { ResponseMoney } from './money.js';
import type { KnownStatus } from './statuses.js';

/**
 * The status of a payin or payout: one of `KNOWN_STATUSES` (statuses.ts) or any other string. The
 * static type is `'new' | 'executed' | 'failed' | 'expired' | (string & {})`: autocompletion for
 * the known four, any string accepted, so a new status never breaks a merchant's build or parse.
 */
export const TransactionStatus = Type.Unsafe<KnownStatus | (string & {})>(
  Type.String({ description: 'Transaction status: new and executed are documented; others may appear.' }),
);

/** The status of a payin or payout. */
export type TransactionStatus = Static<typeof TransactionStatus>;

function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** `next_action` of create responses: `{ type, url }` (interface: "Fields: type (string), url (string)"). */
export const NextAction = Type.Object(
  {
    type: Type.String({ description: 'Kind of action, for example redirect (values not documented).' }),
    url: Type.String({ description: 'Where the action happens (a page, or the card-data push address).' }),
  },
  { title: 'NextAction', description: 'What the merchant does next with a created transaction.' },
);

/** `next_action` of create responses. */
export type NextAction = Static<typeof NextAction>;

// Shared fields. `reference_id` is optional and nullable because it is optional in the create
// bodies: a transaction created without one has nothing to echo.
const common = {
  id: Type.String({ description: 'Identifier assigned by the service.' }),
  reference_id: Type.Optional(nullable(Type.String({ description: "The merchant's own transaction id, echoed back." }))),
  status: TransactionStatus,
  payment: ResponseMoney,
  created_at: ServiceDateTime,
  updated_at: ServiceDateTime,
  expires_at: ServiceDateTime,
  error_code: nullable(Type.String({ description: 'Error code of a failed transaction (values not documented).' })),
  error_message: nullable(Type.String({ description: 'Error message of a failed transaction.' })),
};

// "Null at creation" for fee, error_code and error_message: present, and nullable.
const fee = nullable(ResponseMoney);

/**
 * Response of the create-payin calls (v2 and legacy). `method` is present in v2 and absent from
 * legacy, so it is optional (and nullable: the request's method is optional).
 */
export const PayinCreateResponse = Type.Object(
  {
    ...common,
    method: Type.Optional(nullable(Type.String({ description: 'Payment method (values not documented beyond card).' }))),
    fee,
    next_action: NextAction,
  },
  { title: 'PayinCreateResponse', description: 'Payin create response (status new).' },
);

/** Response of the create-payin calls. */
export type PayinCreateResponse = Static<typeof PayinCreateResponse>;

/** Response of the payin lookups (by id and by reference id): with `fee` and `language`, no `method`. */
export const PayinLookupResponse = Type.Object(
  {
    ...common,
    fee,
    language: Type.Optional(nullable(Type.String({ description: 'Language (values not documented).' }))),
  },
  { title: 'PayinLookupResponse', description: 'Payin lookup response.' },
);

/** Response of the payin lookups. */
export type PayinLookupResponse = Static<typeof PayinLookupResponse>;

/** Response of create-payout: like the payin's, without `method` and `language`. */
export const PayoutCreateResponse = Type.Object(
  { ...common, fee, next_action: NextAction },
  { title: 'PayoutCreateResponse', description: 'Payout create response (status new).' },
);

/** Response of create-payout. */
export type PayoutCreateResponse = Static<typeof PayoutCreateResponse>;

/** Response of the payout lookups: id, reference_id, status, payment, fee, datetimes, errors. */
export const PayoutLookupResponse = Type.Object(
  { ...common, fee },
  { title: 'PayoutLookupResponse', description: 'Payout lookup response.' },
);

/** Response of the payout lookups. */
export type PayoutLookupResponse = Static<typeof PayoutLookupResponse>;
