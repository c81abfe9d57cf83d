/**
 * The `customer` object of create bodies: phone, address, and the three customer shapes
 * (create-payin v2, legacy create-payin, create-payout). Bounds are the interface's, inclusive.
 *
 * @module
 */
import Type, { type Static, type TSchema } from 'typebox';
import { boundedString, ERROR_MESSAGE } from './annotations.js';
import { CANADIAN_PROVINCE_CODES, COUNTRY_CODES, type CountryCode } from './countries.js';

/** `customer.phone.country_code`: [2..4], "Starts with the plus sign"; digits after it. */
export const PhoneCountryCode = boundedString(2, 4, {
  pattern: '^\\+[0-9]+$',
  description: 'Calling code with its plus sign, for example +1 or +351.',
  [ERROR_MESSAGE]: 'must be a plus sign followed by digits, such as +1',
});

function phone(numberMin: 4 | 5) {
  return Type.Object(
    {
      country_code: PhoneCountryCode,
      number: boundedString(numberMin, 40, { description: 'Phone number without the country code.' }),
    },
    { additionalProperties: false },
  );
}

/** `customer.phone` of create-payin v2: number [4..40]. */
export const PhoneV2 = phone(4);
/** `customer.phone` of the legacy create-payin and of create-payout: number [5..40]. */
export const PhoneV1 = phone(5);

/** `customer.address.country`: an officially assigned ISO 3166-1 alpha-2 code. */
export const Country = Type.Unsafe<CountryCode>(
  Type.String({
    enum: [...COUNTRY_CODES],
    description: 'ISO 3166-1 alpha-2 country code, two capital letters.',
    [ERROR_MESSAGE]: 'must be an ISO 3166-1 alpha-2 country code in capitals, such as CA or GB',
  }),
);

/**
 * `customer.date_of_birth`: "date, Format yyyy-mm-dd". A real calendar date (`format: date`) and,
 * since nobody is born tomorrow, not in the future (`format: pay-not-in-future`, in an `allOf`
 * because a schema has one `format`).
 */
export const DateOfBirth = Type.String({
  format: 'date',
  allOf: [{ format: 'pay-not-in-future' }],
  description: 'Real calendar date, yyyy-mm-dd, not in the future.',
});

const CANADA_STATE_MESSAGE = `must be one of the 13 Canadian province and territory codes (${CANADIAN_PROVINCE_CODES.join(', ')})`;

/**
 * `customer.address` of create-payin v2. `state` is "[2..40] or enum ... Required for Canada,
 * where it is an enum": expressed in plain JSON Schema with `if`/`then`, so it survives export to
 * JSON Schema and OpenAPI unchanged.
 */
export const AddressV2 = Type.Object(
  {
    addr_line_1: boundedString(3, 64, { description: 'Street address.' }),
    addr_line_2: Type.Optional(boundedString(3, 64, { description: 'Extra address data.' })),
    city: boundedString(1, 40),
    state: Type.Optional(boundedString(2, 40, { description: 'State or region; required for Canada, then one of the 13 codes.' })),
    zip: boundedString(3, 12, { description: 'Postal code.' }),
    country: Country,
  },
  {
    additionalProperties: false,
    if: { properties: { country: { const: 'CA' } }, required: ['country'] },
    then: {
      required: ['state'],
      properties: { state: { enum: [...CANADIAN_PROVINCE_CODES], [ERROR_MESSAGE]: CANADA_STATE_MESSAGE } },
    },
  },
);

/**
 * `customer.address` of the legacy create-payin: no `state` ("There is no ... customer.address.state
 * ... in its field table") and city [3..40].
 */
export const AddressV1 = Type.Object(
  {
    addr_line_1: boundedString(3, 64, { description: 'Street address.' }),
    addr_line_2: Type.Optional(boundedString(3, 64, { description: 'Extra address data.' })),
    city: boundedString(3, 40),
    zip: boundedString(3, 12, { description: 'Postal code.' }),
    country: Country,
  },
  { additionalProperties: false },
);

const customerId = () => boundedString(1, 64, { description: "Id of the customer in the merchant's system." });
// [6..255] is the interface's; the rest is this package's pragmatic rule (email.ts).
const email = () =>
  boundedString(6, 255, {
    format: 'pay-email',
    description: 'Email address: one @, no spaces, a domain with a dot (format pay-email).',
  });
const name = () => boundedString(2, 80);

/** A create-payin `customer`: the same fields in both versions, each with its own phone and address. */
function payinCustomer<Phone extends TSchema, Address extends TSchema>(phone: Phone, address: Address) {
  return Type.Object(
    {
      id: customerId(),
      email: email(),
      first_name: name(),
      last_name: name(),
      phone,
      date_of_birth: DateOfBirth,
      address,
    },
    { additionalProperties: false },
  );
}

/** `customer` of create-payin v2. */
export const PayinCustomer = payinCustomer(PhoneV2, AddressV2);

/** `customer` of create-payin v2. */
export type PayinCustomer = Static<typeof PayinCustomer>;

/** `customer` of the legacy create-payin: phone number [5..40], legacy address. */
export const PayinCustomerV1 = payinCustomer(PhoneV1, AddressV1);

/** `customer` of the legacy create-payin. */
export type PayinCustomerV1 = Static<typeof PayinCustomerV1>;

/** `customer` of create-payout: id, phone (number [5..40]), email, names; no address, no birth date. */
export const PayoutCustomer = Type.Object(
  {
    id: customerId(),
    phone: PhoneV1,
    email: email(),
    last_name: name(),
    first_name: name(),
  },
  { additionalProperties: false },
);

/** `customer` of create-payout. */
export type PayoutCustomer = Static<typeof PayoutCustomer>;
