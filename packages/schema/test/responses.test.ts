// Payin and payout responses and the webhook payload: every row, and leniency.
import { describe, expectTypeOf, it } from 'vitest';
import {
  PayinCreateResponse,
  PayinLookupResponse,
  PayoutCreateResponse,
  PayoutLookupResponse,
  type TransactionStatus,
  WebhookPayload,
} from '../src/index.js';
import { expectError, expectValid, payinCreated, payinLookup, payoutCreated, payoutLookup, withPath } from './helpers.js';
import { fieldTable, type Row } from './rows.js';

const DATETIME: Omit<Row, 'path'> = {
  required: true,
  ok: ['2024-05-01T12:30:45.123456', '2024-05-01T12:30:45.1', '2024-05-01T12:30:45'],
  bad: [
    ['2024-05-01 12:30:45.123', 'ISO 8601 datetime'],
    ['yesterday', 'ISO 8601 datetime'],
    [1714566645, 'must be a string'],
  ],
};

const common: Row[] = [
  { path: 'id', required: true, bad: [[1, 'must be a string']] },
  { path: 'reference_id', required: false, ok: [null, 'order-1'], bad: [[5, 'must be a string or null']] },
  { path: 'status', required: true, ok: ['new', 'executed', 'refunded', 'some_future_status'], bad: [[null, 'must be a string']] },
  { path: 'payment', required: true, bad: [[null, 'must be an object']] },
  { path: 'payment.amount', required: true, ok: [0, 10.5, '10.50'], bad: [[true, 'must be a number']] },
  { path: 'payment.currency', required: true, ok: ['EUR', 'BTC-LN'], bad: [[978, 'must be a string']] },
  { path: 'created_at', ...DATETIME },
  { path: 'updated_at', ...DATETIME },
  { path: 'expires_at', ...DATETIME },
  { path: 'error_code', required: true, ok: [null, 'card_declined'], bad: [[12, 'must be a string or null']] },
  { path: 'error_message', required: true, ok: [null, 'Declined by issuer'], bad: [[false, 'must be a string or null']] },
  { path: 'fee', required: true, ok: [null, { amount: 0.3, currency: 'EUR' }], bad: [['0.30', 'must be an object or null']] },
];

const nextAction: Row[] = [
  { path: 'next_action', required: true, bad: [['https://x', 'must be an object']] },
  { path: 'next_action.type', required: true, ok: ['redirect', 'card_push', 'qr'], bad: [[1, 'must be a string']] },
  { path: 'next_action.url', required: true, ok: ['https://pay.example/p'], bad: [[null, 'must be a string']] },
];

fieldTable('PayinCreateResponse field table', PayinCreateResponse, payinCreated, [
  ...common,
  ...nextAction,
  { path: 'method', required: false, ok: ['card', 'wallet', null], bad: [[1, 'must be a string or null']] },
]);
fieldTable('PayinLookupResponse field table', PayinLookupResponse, payinLookup, [
  ...common,
  { path: 'fee.amount', required: true, ok: [0, 0.3] },
  { path: 'fee.currency', required: true, ok: ['EUR'] },
  { path: 'language', required: false, ok: ['en', 'xx-new', null], bad: [[1, 'must be a string or null']] },
]);
fieldTable('PayoutCreateResponse field table', PayoutCreateResponse, payoutCreated, [...common, ...nextAction]);
fieldTable('PayoutLookupResponse field table', PayoutLookupResponse, payoutLookup, [...common]);

fieldTable('WebhookPayload field table', WebhookPayload, () => ({ id: 'pi_123', reference_id: 'order-1001', status: 'executed' }), [
  { path: 'id', required: true, bad: [[null, 'must be a string']] },
  { path: 'reference_id', required: false, ok: ['x', null], bad: [[1, 'must be a string or null']] },
  { path: 'status', required: true, ok: ['new', 'executed', 'chargeback'], bad: [[1, 'must be a string']] },
]);

describe('responses are lenient', () => {
  it('accept a new field from the service anywhere', () => {
    expectValid(PayinCreateResponse, { ...payinCreated(), risk_score: 0.2, next_action: { type: 'redirect', url: 'u', method: 'GET' } });
    expectValid(PayoutLookupResponse, withPath(payoutLookup(), 'payment.precision', 2));
    expectValid(WebhookPayload, { id: 'p', reference_id: 'r', status: 'new', event: 'payin.updated', amount: 1 });
  });
  it('accept the legacy create response (no method)', () => {
    const { method: _m, ...legacy } = payinCreated();
    expectValid(PayinCreateResponse, legacy);
  });
  // Checked by `tsc` before the tests run: a wrong type fails the package's test script.
  it('type the status as the four known ones, open to any other', () => {
    expectTypeOf<Extract<TransactionStatus, 'new' | 'executed' | 'failed' | 'expired'>>().toEqualTypeOf<
      'new' | 'executed' | 'failed' | 'expired'
    >();
    expectTypeOf<'chargeback'>().toExtend<TransactionStatus>();
    expectTypeOf<TransactionStatus>().not.toEqualTypeOf<string>();
    expectTypeOf<WebhookPayload['status']>().toEqualTypeOf<TransactionStatus>();
  });
  it('still report what is wrong in a response', () => {
    expectError(PayinLookupResponse, withPath(payinLookup(), 'fee', { amount: 1 }), 'fee.currency', 'is required');
    expectError(WebhookPayload, [], '', 'must be an object');
  });
});
