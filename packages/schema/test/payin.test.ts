// Create-payin request body (v2): every row of the interface's table, plus the rules beyond lengths.
import { describe, expect, it } from 'vitest';
import { CreatePayinRequest } from '../src/index.js';
import { errorsOf, expectError, expectValid, payinV2, REMOVE, withPath } from './helpers.js';
import { AMOUNT_ROW, CURRENCY_BAD, EMAIL_ROW, fieldTable, PHONE_CODE_ROW, URL_ROW, WEBHOOK_ROW } from './rows.js';

fieldTable('CreatePayinRequest (v2) field table', CreatePayinRequest, payinV2, [
  { path: 'reference_id', required: false, min: 1, max: 64 },
  AMOUNT_ROW,
  { path: 'payment.currency', required: true, ok: ['EUR', 'USD', 'CHF', 'XCD'], bad: CURRENCY_BAD },
  {
    path: 'method',
    required: false,
    max: 64,
    ok: ['card', 'bank_transfer'],
    bad: [
      [42, 'must be a string'],
      ['', 'must not be empty'],
    ],
  },
  { path: 'customer.id', required: true, min: 1, max: 64 },
  EMAIL_ROW('customer.email'),
  { path: 'customer.first_name', required: true, min: 2, max: 80, ok: ['Zoë', '李雷'] },
  { path: 'customer.last_name', required: true, min: 2, max: 80 },
  PHONE_CODE_ROW('customer.phone.country_code'),
  { path: 'customer.phone.number', required: true, min: 4, max: 40 },
  {
    path: 'customer.date_of_birth',
    required: true,
    ok: ['2000-02-29', '1990-12-31', '1900-01-01'],
    bad: [
      ['2001-02-29', 'must be a real calendar date in yyyy-mm-dd form'],
      ['1900-02-29', 'must be a real calendar date in yyyy-mm-dd form'],
      ['1990-13-01', 'must be a real calendar date in yyyy-mm-dd form'],
      ['1990-04-31', 'must be a real calendar date in yyyy-mm-dd form'],
      ['1990-1-01', 'must be a real calendar date in yyyy-mm-dd form'],
      ['31/12/1990', 'must be a real calendar date in yyyy-mm-dd form'],
      ['1990-12-31T00:00:00', 'must be a real calendar date in yyyy-mm-dd form'],
      ['2999-01-01', 'must not be in the future'],
      [19901231, 'must be a string'],
    ],
  },
  { path: 'customer.address.addr_line_1', required: true, min: 3, max: 64 },
  { path: 'customer.address.addr_line_2', required: false, min: 3, max: 64 },
  { path: 'customer.address.city', required: true, min: 1, max: 40 },
  { path: 'customer.address.state', required: false, min: 2, max: 40 },
  { path: 'customer.address.zip', required: true, min: 3, max: 12 },
  {
    path: 'customer.address.country',
    required: true,
    ok: ['GB', 'DE', 'US', 'AX', 'SS', 'ZW'],
    bad: [
      ['gb', 'ISO 3166-1 alpha-2'],
      ['UK', 'ISO 3166-1 alpha-2'],
      ['XK', 'ISO 3166-1 alpha-2'],
      ['GBR', 'ISO 3166-1 alpha-2'],
      ['ZZ', 'ISO 3166-1 alpha-2'],
    ],
  },
  { path: 'browser_data.user_agent', required: true, max: 1024, ok: ['curl/8.0', ''], bad: [[null, 'must be a string']] },
  {
    path: 'browser_data.ip_address',
    required: true,
    ok: ['127.0.0.1', '255.255.255.255', '2001:db8::1', '::1', '::ffff:192.0.2.1', 'fe80:0:0:0:0:0:0:1'],
    bad: [
      ['203.0.113.7, 10.0.0.1', 'one IPv4 or IPv6 address'],
      ['256.1.1.1', 'one IPv4 or IPv6 address'],
      ['01.2.3.4', 'one IPv4 or IPv6 address'],
      ['1.2.3', 'one IPv4 or IPv6 address'],
      ['shop.example', 'one IPv4 or IPv6 address'],
      ['2001:db8:::1', 'one IPv4 or IPv6 address'],
      ['1:2:3:4:5:6:7:8:9', 'one IPv4 or IPv6 address'],
    ],
  },
  WEBHOOK_ROW('webhook_url', true),
  URL_ROW('redirect_urls.fail', true),
  URL_ROW('redirect_urls.success', true),
  URL_ROW('redirect_urls.in_progress', false),
  { path: 'language', required: false, max: 64, ok: ['en', 'fr-CA'], bad: [[1, 'must be a string']] },
]);

describe('CreatePayinRequest: Canadian state', () => {
  const canadian = (state: unknown) => withPath(withPath(payinV2(), 'customer.address.country', 'CA'), 'customer.address.state', state);

  it('accepts each of the 13 province and territory codes', () => {
    for (const code of ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']) {
      expectValid(CreatePayinRequest, canadian(code));
    }
  });
  it('requires the state when country is CA, at the path of the state', () => {
    expectError(CreatePayinRequest, canadian(REMOVE), 'customer.address.state', 'required when country is CA');
  });
  it('rejects a state that is not one of the 13 codes', () => {
    expectError(
      CreatePayinRequest,
      canadian('Ontario'),
      'customer.address.state',
      'must be one of the 13 Canadian province and territory codes',
    );
    expectError(
      CreatePayinRequest,
      canadian('on'),
      'customer.address.state',
      'must be one of the 13 Canadian province and territory codes',
    );
  });
  it('leaves the state optional and free-form [2..40] elsewhere', () => {
    expectValid(CreatePayinRequest, withPath(payinV2(), 'customer.address.state', 'Bavaria'));
    expectValid(CreatePayinRequest, withPath(payinV2(), 'customer.address.state', REMOVE));
  });
});

describe('CreatePayinRequest: strictness', () => {
  it('reports a misspelt property instead of dropping it', () => {
    const body = withPath(payinV2(), 'customer.frist_name', 'Jane');
    expectError(CreatePayinRequest, body, 'customer.frist_name', 'is not an allowed property');
  });
  it('rejects unknown properties at every level', () => {
    for (const path of [
      'extra',
      'payment.fee',
      'customer.phone.ext',
      'customer.address.street',
      'browser_data.lang',
      'redirect_urls.cancel',
    ]) {
      expectError(CreatePayinRequest, withPath(payinV2(), path, 'x'), path, 'is not an allowed property');
    }
  });
  it('reports every error of the body, not only the first', () => {
    let body = withPath(payinV2(), 'customer.first_name', 'J');
    body = withPath(body, 'customer.email', REMOVE);
    body = withPath(body, 'payment.currency', 'eur');
    body = withPath(body, 'webhook_url', 'http://shop.example/');
    expect(
      errorsOf(CreatePayinRequest, body)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['customer.email', 'customer.first_name', 'payment.currency', 'webhook_url'].sort());
  });
  it('treats an undefined property as absent (JSON.stringify drops it)', () => {
    expectValid(CreatePayinRequest, { ...payinV2(), method: undefined });
    expectError(CreatePayinRequest, { ...payinV2(), webhook_url: undefined }, 'webhook_url', 'is required');
  });
});
