// Create-payout request body: every row, and the two redirect-URL variants.
import { describe, it } from 'vitest';
import { CreatePayoutRequest, CreatePayoutRequestPaymentPage } from '../src/index.js';
import { expectError, expectValid, payout, REMOVE, withPath } from './helpers.js';
import { AMOUNT_ROW, CURRENCY_BAD, EMAIL_ROW, fieldTable, PHONE_CODE_ROW, type Row, URL_ROW, WEBHOOK_ROW } from './rows.js';

const rows = (redirectRequired: boolean): Row[] => [
  { path: 'reference_id', required: false, min: 1, max: 64 },
  AMOUNT_ROW,
  { path: 'payment.currency', required: true, ok: ['CAD'], bad: CURRENCY_BAD },
  { path: 'customer.id', required: true, min: 1, max: 64 },
  { path: 'customer.phone.number', required: true, min: 5, max: 40 },
  PHONE_CODE_ROW('customer.phone.country_code'),
  EMAIL_ROW('customer.email'),
  { path: 'customer.last_name', required: true, min: 2, max: 80 },
  { path: 'customer.first_name', required: true, min: 2, max: 80 },
  WEBHOOK_ROW('webhook_url', true),
  URL_ROW('redirect_urls.success', redirectRequired),
  URL_ROW('redirect_urls.fail', redirectRequired),
];

fieldTable('CreatePayoutRequest field table', CreatePayoutRequest, payout, rows(false));
fieldTable('CreatePayoutRequestPaymentPage field table', CreatePayoutRequestPaymentPage, payout, rows(true));

describe('CreatePayoutRequest: shape', () => {
  it('needs no redirect_urls outside the payment-page integration', () => {
    expectValid(CreatePayoutRequest, withPath(payout(), 'redirect_urls', REMOVE));
  });
  it('needs redirect_urls in the payment-page integration', () => {
    expectError(CreatePayoutRequestPaymentPage, withPath(payout(), 'redirect_urls', REMOVE), 'redirect_urls', 'is required');
  });
  it('has no payin-only fields', () => {
    for (const [path, value] of [
      ['customer.date_of_birth', '1990-01-01'],
      ['customer.address', {}],
      ['browser_data', {}],
      ['method', 'card'],
      ['redirect_urls.in_progress', 'https://shop.example/w'],
    ] as const) {
      expectError(CreatePayoutRequest, withPath(payout(), path, value), path, 'is not an allowed property');
    }
  });
});
