// Legacy create-payin body (endpoint 7): the v2 rows with the legacy differences.
import { describe, it } from 'vitest';
import { CreatePayinRequestV1 } from '../src/index.js';
import { expectError, expectValid, payinV1, withPath } from './helpers.js';
import { AMOUNT_ROW, CURRENCY_BAD, EMAIL_ROW, fieldTable, PHONE_CODE_ROW, URL_ROW, WEBHOOK_ROW } from './rows.js';

fieldTable('CreatePayinRequestV1 (legacy) field table', CreatePayinRequestV1, payinV1, [
  { path: 'reference_id', required: false, min: 1, max: 64 },
  AMOUNT_ROW,
  // docs/design.md: payment.currency and webhook_url are optional in the legacy body.
  { path: 'payment.currency', required: false, ok: ['EUR'], bad: CURRENCY_BAD },
  { path: 'customer.id', required: true, min: 1, max: 64 },
  EMAIL_ROW('customer.email'),
  { path: 'customer.first_name', required: true, min: 2, max: 80 },
  { path: 'customer.last_name', required: true, min: 2, max: 80 },
  PHONE_CODE_ROW('customer.phone.country_code'),
  // Legacy: phone number [5..40] (v2: [4..40]).
  { path: 'customer.phone.number', required: true, min: 5, max: 40 },
  {
    path: 'customer.date_of_birth',
    required: true,
    ok: ['2000-02-29'],
    bad: [
      ['2001-02-29', 'real calendar date'],
      ['2999-12-31', 'must not be in the future'],
    ],
  },
  { path: 'customer.address.addr_line_1', required: true, min: 3, max: 64 },
  { path: 'customer.address.addr_line_2', required: false, min: 3, max: 64 },
  // Legacy: city [3..40] (v2: [1..40]).
  { path: 'customer.address.city', required: true, min: 3, max: 40 },
  { path: 'customer.address.zip', required: true, min: 3, max: 12 },
  { path: 'customer.address.country', required: true, ok: ['CA', 'FR'], bad: [['Canada', 'ISO 3166-1 alpha-2']] },
  { path: 'browser_data.user_agent', required: true, max: 1024 },
  { path: 'browser_data.ip_address', required: true, ok: ['198.51.100.1'], bad: [['1.2.3.4.5', 'IPv4 or IPv6']] },
  WEBHOOK_ROW('webhook_url', false),
  URL_ROW('redirect_urls.fail', true),
  URL_ROW('redirect_urls.success', true),
  { path: 'language', required: false, max: 64, ok: ['de'] },
]);

describe('CreatePayinRequestV1: fields that exist only in v2', () => {
  for (const [path, value] of [
    ['method', 'card'],
    ['customer.address.state', 'ON'],
    ['redirect_urls.in_progress', 'https://shop.example/wait'],
  ] as const) {
    it(`rejects ${path}`, () => {
      expectError(CreatePayinRequestV1, withPath(payinV1(), path, value), path, 'is not an allowed property');
    });
  }
  it('accepts a Canadian address without a state', () => {
    expectValid(CreatePayinRequestV1, withPath(payinV1(), 'customer.address.country', 'CA'));
  });
  it('rejects a city of 2 characters and a phone number of 4 digits, which v2 accepts', () => {
    expectError(CreatePayinRequestV1, withPath(payinV1(), 'customer.address.city', 'Oz'), 'customer.address.city', 'at least 3 characters');
    expectError(
      CreatePayinRequestV1,
      withPath(payinV1(), 'customer.phone.number', '1234'),
      'customer.phone.number',
      'at least 5 characters',
    );
  });
});
