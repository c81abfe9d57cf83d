/**
 * `@pay/schema`: every body of the payments service interface as a TypeBox schema with its static
 * type, and validation whose errors say where (dotted path) and what to do (a sentence).
 *
 * @packageDocumentation
 */
export { ERROR_MESSAGE, HTTP_URL_PATTERN, MAX_URL_LENGTH, WEBHOOK_URL_PATTERN } from './annotations.js';
export { Card, CardPushRequest, Pan } from './card.js';
export { CANADIAN_PROVINCE_CODES, COUNTRY_CODES, type CanadianProvinceCode, type CountryCode, isCountryCode } from './countries.js';
export { CURRENCY_CODES, CURRENCY_MINOR_UNITS, type CurrencyCode, minorUnitOf } from './currencies.js';
export {
  AddressV1,
  AddressV2,
  Country,
  DateOfBirth,
  PayinCustomer,
  PayinCustomerV1,
  PayoutCustomer,
  PhoneCountryCode,
  PhoneV1,
  PhoneV2,
} from './customer.js';
export { parseDateTime, SERVICE_DATETIME_PATTERN, ServiceDateTime } from './datetime.js';
export { customFormats, FORMATS, type FormatDefinition, isCalendarDate, maskPan, passesLuhn } from './formats.js';
export { customKeywords } from './keywords.js';
export { MONEY_KEYWORD, type MoneyKeyword } from './money-rule.js';
export {
  Amount,
  Currency,
  Money,
  MoneyV1,
  POSITIVE_DECIMAL_PATTERN,
  ResponseMoney,
} from './money.js';
export {
  type Endpoint,
  type EndpointMatch,
  type EndpointName,
  type EndpointParams,
  ENDPOINTS,
  endpointPath,
  endpointsAt,
  endpointUrl,
  takesQuery,
} from './endpoints.js';
export { canonicalDecimal, sameDecimal } from './decimals.js';
export { newReferenceId } from './reference-id.js';
export { isLoopbackAddress, isLoopbackHost } from './loopback.js';
export { isSameCreate, type SentMoney } from './same-create.js';
export { EXAMPLES } from './examples.js';
export { BODY_SCHEMAS, SCHEMA_NAMES, type SchemaName } from './bodies.js';
export { jsonSchemas, openApiDocument } from './openapi.js';
export {
  BrowserData,
  CreatePayinRequest,
  CreatePayinRequestV1,
  PayinRedirectUrls,
  PayinRedirectUrlsV1,
  ReferenceId,
} from './payin.js';
export { CreatePayoutRequest, CreatePayoutRequestPaymentPage } from './payout.js';
export {
  NextAction,
  PayinCreateResponse,
  PayinLookupResponse,
  PayoutCreateResponse,
  PayoutLookupResponse,
  TransactionStatus,
} from './responses.js';
export {
  canGenerateCode,
  createValidator,
  validate,
  type ValidationError,
  type ValidationResult,
  type Validator,
  type ValidatorOptions,
} from './validate.js';
export {
  FIRST_STATUS,
  isTerminalStatus,
  isTransactionKind,
  KNOWN_STATUSES,
  type KnownStatus,
  TERMINAL_STATUSES,
  TRANSACTION_KINDS,
  type TransactionKind,
} from './statuses.js';
export { WebhookPayload } from './webhook.js';
