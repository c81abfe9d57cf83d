// Money and email mistakes over real HTTP: every create endpoint refuses them with 400
// invalid_request, the field path and the message @pay/schema gives (the client refuses the same
// before sending), and creates nothing. Bodies are written as JSON text, so the amounts are the
// numbers on the wire (`1.0E-7`, `10.50`), not what JavaScript would print.
import { CreatePayinRequest, CreatePayinRequestV1, CreatePayoutRequest, validate } from '@pay/schema';
import { describe, expect, it } from 'vitest';
import { adminCall, payinBody, payinV1Body, payoutBody, post, sandboxForFile, type Started } from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const routes = [
  ['create-payin v2', '/v2/merchants/payins/', payinBody, CreatePayinRequest],
  ['create-payin legacy', '/v1/merchants/payins/', payinV1Body, CreatePayinRequestV1],
  ['create-payout', '/v2/merchants/payouts/', payoutBody, CreatePayoutRequest],
] as const;

/** A body as JSON text whose `payment` is written exactly as `payment` (raw JSON). */
function bodyText(make: (overrides?: Record<string, unknown>) => object, payment: string, overrides: Record<string, unknown> = {}): string {
  const text = JSON.stringify(make({ ...overrides, payment: '<payment>' }));
  return text.replace('"payment":"<payment>"', `"payment":${payment}`);
}

const NOT_ISO = 'must be an ISO 4217 currency code in use, in capitals, such as EUR, USD or JPY';
const DIGITS = 'has 17 significant digits; a JSON number carries at most 15 exactly, so give this amount as a decimal string';

// [mistake, payment as sent, the one error expected]
const mistakes: [string, string, { path: string; message: string }][] = [
  ['an unknown currency', '{"amount":10,"currency":"ABC"}', { path: 'payment.currency', message: NOT_ISO }],
  ['gold, which has no minor unit', '{"amount":10,"currency":"XAU"}', { path: 'payment.currency', message: NOT_ISO }],
  ['a withdrawn currency', '{"amount":10,"currency":"HRK"}', { path: 'payment.currency', message: NOT_ISO }],
  ['0.001 EUR', '{"amount":0.001,"currency":"EUR"}', { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' }],
  ['1e-7 EUR', '{"amount":1e-7,"currency":"EUR"}', { path: 'payment.amount', message: 'EUR has 2 decimals; got 7' }],
  ['1.0E-7 EUR', '{"amount":1.0E-7,"currency":"EUR"}', { path: 'payment.amount', message: 'EUR has 2 decimals; got 7' }],
  ['"10.505" EUR', '{"amount":"10.505","currency":"EUR"}', { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' }],
  ['10.5 JPY', '{"amount":10.5,"currency":"JPY"}', { path: 'payment.amount', message: 'JPY has no decimals; got 1' }],
  ['1.2345 KWD', '{"amount":1.2345,"currency":"KWD"}', { path: 'payment.amount', message: 'KWD has 3 decimals; got 4' }],
  // Read as a double, 1234567890123456.78 is 1234567890123456.8: the sandbox cannot know the cents.
  ['a number past 15 digits', '{"amount":1234567890123456.78,"currency":"EUR"}', { path: 'payment.amount', message: DIGITS }],
  ['negative zero', '{"amount":-0,"currency":"EUR"}', { path: 'payment.amount', message: 'must be greater than 0' }],
];

describe.each(routes)('%s', (_name, path, make, schema) => {
  it.each(mistakes)('refuses %s: 400 invalid_request with its path and message', async (_what, payment, error) => {
    const text = bodyText(make, payment);
    const a = await post(`${sb.url}${path}`, text);
    expect(a.status).toBe(400);
    expect(a.body).toEqual({
      error: {
        code: 'invalid_request',
        message: expect.stringMatching(/^the body does not match the .+ schema: 1 error$/),
        errors: [error],
      },
    });
    // The same answer the schema gives the client.
    const checked = validate(schema, JSON.parse(text));
    expect(checked.ok ? [] : checked.errors).toEqual([error]);
  });

  it('refuses an email that is not an address', async () => {
    const body = make();
    (body as { customer: { email: string } }).customer.email = 'not-an-email';
    const a = await post(`${sb.url}${path}`, body);
    expect(a.status).toBe(400);
    expect(a.body.error.errors).toEqual([
      { path: 'customer.email', message: 'must be an email address such as jane@shop.example: it has no @' },
    ]);
  });

  it('accepts amounts that fit their currency, however the number is written, and echoes the amount', async () => {
    const fits = [
      ['{"amount":10.50,"currency":"EUR"}', 10.5],
      ['{"amount":1.0E+3,"currency":"JPY"}', 1000],
      ['{"amount":"1000.000","currency":"JPY"}', 1000],
      ['{"amount":0.125,"currency":"BHD"}', 0.125],
    ] as const;
    for (const [i, [payment, echoed]] of fits.entries()) {
      const a = await post(`${sb.url}${path}`, bodyText(make, payment, { reference_id: `ok-${i}` }));
      expect(a.status, payment).toBe(200);
      expect(a.body.payment.amount).toBe(echoed);
    }
  });
});

it('a refused create leaves nothing behind', async () => {
  for (const [, path, make] of routes) {
    for (const [, payment] of mistakes) expect((await post(`${sb.url}${path}`, bodyText(make, payment))).status).toBe(400);
  }
  expect((await adminCall(sb, 'GET', '/transactions')).body).toEqual([]);
});
