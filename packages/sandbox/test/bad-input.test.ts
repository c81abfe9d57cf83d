// Bad input, table-driven over real HTTP: every malformed request gets a JSON error with a code
// (never a crash, a hang or a stack trace), and none of them changes anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readErrorAnswer } from '../src/admin-client/error-answer.js';
import { MAX_BODY_BYTES } from '../src/index.js';
import type { FieldError } from '../src/wire/errors.js';
import type { LoggedRequest } from '../src/wire/requests.js';
import { adminCall, call, hmac, M1, nowSeconds, payinBody, post, raw, signed, start } from './helpers.js';

let sb: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  sb = await start();
});
afterAll(async () => {
  // After every table below, nothing was created except the controls' records.
  const listed = await adminCall(sb, 'GET', '/transactions');
  expect(listed.body.map((t: { reference_id: string }) => t.reference_id).sort()).toEqual(['control-charset', 'control-json']);
  await sb.close();
});

const create = () => `${sb.url}/v2/merchants/payins/`;

/** A create signed over exactly `bytes`, sent with `contentType`. */
function signedBytes(bytes: string | Buffer, contentType: string | null = 'application/json') {
  const url = create();
  const ts = nowSeconds();
  const signature = hmac(M1.secret, Buffer.concat([Buffer.from(`${M1.id}${ts}POST${url}`), Buffer.from(bytes)]));
  const headers: Record<string, string> = { 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-signature': signature };
  if (contentType !== null) headers['content-type'] = contentType;
  return call('POST', url, { headers, body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes) });
}

describe('bodies', () => {
  const nested = (depth: number) => `{"payment":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const table: [string, string | Buffer, number, string, string?][] = [
    ['not JSON', 'payment=10', 400, 'invalid_json'],
    ['truncated JSON', '{"payment":{"amount":1', 400, 'invalid_json'],
    ['an empty body', '', 400, 'invalid_json'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 400, 'invalid_json'],
    ['an array', '[]', 400, 'invalid_request', ''],
    ['null', 'null', 400, 'invalid_request', ''],
    ['a number', '42', 400, 'invalid_request', ''],
    ['deep nesting (20,000 levels)', nested(20_000), 400, 'invalid_request', 'payment'],
    ['a __proto__ key', JSON.stringify(payinBody()).replace('{', '{"__proto__":{"polluted":true},'), 400, 'invalid_request', '__proto__'],
    [
      'a nested __proto__ key',
      JSON.stringify(payinBody()).replace('"customer":{', '"customer":{"__proto__":{"polluted":true},'),
      400,
      'invalid_request',
      'customer.__proto__',
    ],
    [
      'a constructor key',
      JSON.stringify(payinBody()).replace('{', '{"constructor":{"prototype":{"polluted":true}},'),
      400,
      'invalid_request',
      'constructor',
    ],
    ['5,000 keys', `{${Array.from({ length: 5000 }, (_, i) => `"k${i}":1`).join(',')}}`, 400, 'invalid_request'],
  ];

  it.each(table)('%s: %i %s', async (_name, bytes, status, code, path) => {
    const a = await signedBytes(bytes);
    expect(a.status).toBe(status);
    expect(a.body.error.code).toBe(code);
    if (path !== undefined) expect(a.body.error.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never quotes the body in a JSON error (it may hold card data)', async () => {
    const a = await signedBytes('{"card":{"pan":"4242424242424242" oops}');
    expect(a.status).toBe(400);
    expect(a.text).not.toContain('4242');
    expect(a.body.error.message).toMatch(/not JSON \(error at character \d+\)/);
  });

  it('lists every field error of a body, each with its path', async () => {
    const body = payinBody({ payment: { amount: -1, currency: 'eur' }, webhook_url: 'ftp://x', colour: 'red' });
    (body.customer as Record<string, unknown>) = { ...(body.customer as object), email: 'x' };
    const a = await post(create(), body);
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe('invalid_request');
    const paths = a.body.error.errors.map((e: { path: string }) => e.path);
    for (const p of ['payment.amount', 'payment.currency', 'webhook_url', 'colour', 'customer.email']) expect(paths).toContain(p);
    for (const e of a.body.error.errors) expect(e.message.length).toBeGreaterThan(3);
  });

  // The oracle is the body itself: a correct create plus `keys` properties the schema does not
  // allow, one error each. Past 100, @pay/schema lists 100 and a last entry "and N more errors":
  // every count made from that list (the 400's message, the request log's last entry, the summary
  // the admin client and the command line make of an answer) counts that entry as N, not one.
  it.each([1, 2, 5, 6, 20, 21, 100, 101, 102, 150, 5000])(
    'counts %i unknown properties as that many errors, past the list the schema cuts at 100',
    async (keys) => {
      const extra = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 1]));
      const a = await post(create(), { ...payinBody(), ...extra });
      expect(a.status).toBe(400);
      const { message, errors } = a.body.error as { message: string; errors: FieldError[] };
      expect(message).toBe(`the body does not match the create-payin (v2) schema: ${keys} error${keys === 1 ? '' : 's'}`);
      // The list as the schema cut it: every error up to 100, then the count of the rest.
      expect(errors.length).toBe(keys > 100 ? 101 : keys);
      if (keys > 100) expect(errors.at(-1)).toEqual({ path: '', message: `and ${keys - 100} more error${keys === 101 ? '' : 's'}` });
      const [logged] = (await adminCall(sb, 'GET', '/requests?limit=1')).body as LoggedRequest[];
      expect(logged?.errors).toHaveLength(Math.min(keys, 20) + (keys > 20 ? 1 : 0));
      if (keys > 20)
        expect(logged?.errors.at(-1)).toEqual({
          path: '',
          message: `and ${keys - 20} more field error${keys === 21 ? '' : 's'} (the answer lists them)`,
        });
      const summary = readErrorAnswer(a.status, a.text)?.summary;
      if (keys > 5) expect(summary).toMatch(new RegExp(`; and ${keys - 5} more$`));
      else expect(summary).not.toMatch(/ more$/);
    },
  );

  it('controls: a correct body is accepted, with or without charset=utf-8', async () => {
    expect((await signedBytes(JSON.stringify(payinBody({ reference_id: 'control-json' })))).status).toBe(200);
    expect(
      (await signedBytes(JSON.stringify(payinBody({ reference_id: 'control-charset' })), 'application/json; charset=UTF-8')).status,
    ).toBe(200);
  });
});

describe('size limit', () => {
  it(`answers 413 past ${MAX_BODY_BYTES} bytes (content-length)`, async () => {
    const big = JSON.stringify({ ...payinBody(), pad: 'x'.repeat(MAX_BODY_BYTES) });
    const a = await signedBytes(big);
    expect(a.status).toBe(413);
    expect(a.body.error.code).toBe('payload_too_large');
  });

  it('answers 413 for a chunked body that grows past the limit, and closes the connection', async () => {
    const a = await raw(sb.url, {
      method: 'POST',
      path: '/v2/merchants/payins/',
      headers: [
        ['content-type', 'application/json'],
        ['transfer-encoding', 'chunked'],
        ...Object.entries(signed(M1, 'POST', create(), 'x')),
      ],
      body: 'x'.repeat(MAX_BODY_BYTES + 10),
    });
    expect(a.status).toBe(413);
    expect(a.headers.connection).toBe('close');
  });

  it('accepts a body just under the limit (then judges it)', async () => {
    const filler = JSON.stringify({ ...payinBody(), pad: '' });
    const body = filler.replace('"pad":""', `"pad":"${'x'.repeat(MAX_BODY_BYTES - filler.length)}"`);
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const a = await signedBytes(body);
    expect(a.status).toBe(400);
    expect(a.body.error.errors).toEqual([{ path: 'pad', message: expect.any(String) }]);
  });
});

describe('content type', () => {
  it.each([
    ['missing', null],
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['another charset', 'application/json; charset=latin1'],
    ['json with a suffix', 'application/jsonx'],
  ])('%s: 415', async (_name, contentType) => {
    const a = await signedBytes(JSON.stringify(payinBody()), contentType);
    expect(a.status).toBe(415);
    expect(a.body.error.code).toBe('unsupported_media_type');
  });
});

describe('paths and methods', () => {
  it.each([
    ['GET', '/nothing-here', 404],
    ['POST', '/v3/merchants/payins/', 404],
    ['POST', '/v2/merchants/payins', 404],
    ['GET', '/v2/merchants/payins/pi_x/', 404],
    ['POST', '/card-proxy/v1/push/ct_x', 404],
    ['POST', '//v2/merchants/payins/', 404],
    ['GET', '/v2/merchants/', 404],
    ['PUT', '/v2/merchants/payins/', 405],
    ['DELETE', '/v2/merchants/payins/pi_x', 405],
    ['GET', '/v1/merchants/payins/', 405],
    ['PATCH', '/v2/merchants/payouts/', 405],
    ['GET', '/card-proxy/v1/push/ct_x/', 405],
    ['HEAD', '/v2/merchants/payins/pi_x', 405],
  ])('%s %s: %i', async (method, path, status) => {
    const a = await raw(sb.url, { method, path, headers: [['content-type', 'application/json']] });
    expect(a.status).toBe(status);
    if (method === 'HEAD') return;
    expect(a.body.error.code).toBe(status === 404 ? 'not_found' : 'method_not_allowed');
    if (status === 405) expect(a.headers.allow).toBeTruthy();
  });

  it('hints at the trailing slash', async () => {
    const a = await raw(sb.url, { method: 'POST', path: '/v2/merchants/payins', headers: [] });
    expect(a.body.error.message).toContain('ends with a slash: /v2/merchants/payins/');
    const b = await raw(sb.url, { method: 'GET', path: '/v2/merchants/payins/pi_x/', headers: [] });
    expect(b.body.error.message).toContain('no trailing slash');
  });

  it('lists the methods a path allows', async () => {
    const a = await raw(sb.url, { method: 'PUT', path: '/v2/merchants/payins/', headers: [] });
    expect(a.headers.allow).toBe('POST, GET');
  });
});

describe('headers', () => {
  it.each(['x-timestamp', 'x-signature', 'x-merchant-id', 'content-type'])('%s sent twice: 400 duplicate_header', async (name) => {
    const text = JSON.stringify(payinBody());
    const headers = { 'content-type': 'application/json', ...signed(M1, 'POST', create(), text) } as Record<string, string>;
    const list: [string, string][] = [...Object.entries(headers), [name, headers[name]!]];
    const a = await raw(sb.url, { method: 'POST', path: '/v2/merchants/payins/', headers: list, body: text });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'duplicate_header', message: expect.stringContaining(name) });
  });

  it('a Host that cannot be part of a URL: 421 misdirected_request, naming the header', async () => {
    const a = await raw(sb.url, { method: 'GET', path: '/v2/merchants/payins/pi_x', headers: [['host', 'a b']] });
    expect(a.status).toBe(421);
    expect(a.body.error.code).toBe('misdirected_request');
    expect(a.body.error.message).toContain('header host');
  });
});

describe('queries', () => {
  it.each([
    ['a create with a query', 'POST', '/v2/merchants/payins/?debug=1', ''],
    ['a lookup by id with a query', 'GET', '/v2/merchants/payins/pi_x?x=1', ''],
    ['a lookup by reference without one', 'GET', '/v2/merchants/payins/', 'reference_id'],
    ['a lookup by reference with an empty one', 'GET', '/v2/merchants/payins/?reference_id=', 'reference_id'],
    ['a lookup by reference given twice', 'GET', '/v2/merchants/payins/?reference_id=a&reference_id=b', 'reference_id'],
    ['a lookup by reference with another parameter', 'GET', '/v2/merchants/payouts/?reference_id=a&limit=5', 'limit'],
    ['a reference of 65 characters', 'GET', `/v2/merchants/payouts/?reference_id=${'r'.repeat(65)}`, 'reference_id'],
  ])('%s: 400 naming %s', async (_name, method, path, field) => {
    const url = `${sb.url}${path}`;
    const text = method === 'POST' ? JSON.stringify(payinBody()) : '';
    const a = await call(method, url, {
      headers: { 'content-type': 'application/json', ...signed(M1, method, url, text) },
      ...(text ? { body: text } : {}),
    });
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe('invalid_request');
    expect(a.body.error.errors.map((e: { path: string }) => e.path)).toContain(field);
  });
});

describe('admin bodies', () => {
  it.each([
    ['not JSON', '/clock/advance', 'nope', 'invalid_json'],
    ['an array', '/clock/advance', '[]', 'invalid_request'],
    ['a negative step', '/clock/advance', '{"seconds":-1}', 'invalid_request'],
    ['a string step', '/clock/advance', '{"seconds":"60"}', 'invalid_request'],
    ['an unknown field', '/clock/advance', '{"seconds":1,"minutes":2}', 'invalid_request'],
    ['a fault without a kind', '/faults', '{"method":"POST","path_prefix":"/","count":1}', 'invalid_request'],
    ['a fault of an unknown kind', '/faults', '{"method":"POST","path_prefix":"/","kind":"explode","count":1}', 'invalid_request'],
    ['a delay without ms', '/faults', '{"method":"POST","path_prefix":"/","kind":"delay","count":1}', 'invalid_request'],
    ['a drop with ms', '/faults', '{"method":"POST","path_prefix":"/","kind":"drop_after_commit","count":1,"ms":5}', 'invalid_request'],
    ['a zero count', '/faults', '{"method":"POST","path_prefix":"/","kind":"drop_after_commit","count":0}', 'invalid_request'],
    [
      'a fault on the admin API',
      '/faults',
      '{"method":"POST","path_prefix":"/_sandbox/reset","kind":"drop_after_commit","count":1}',
      'invalid_request',
    ],
  ])('%s: 400 %s', async (_name, path, body, code) => {
    const a = await call('POST', `${sb.url}/_sandbox${path}`, { body });
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe(code);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([]);
  });
});
