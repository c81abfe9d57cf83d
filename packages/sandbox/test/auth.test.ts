// Authentication, table-driven over real HTTP: each forged, tampered or stale request is refused
// with the harness's reason code, and changes nothing.
import { describe, expect, it } from 'vitest';
import {
  adminCall,
  call,
  CARD,
  hmac,
  M1,
  M2,
  nowSeconds,
  payinBody,
  post,
  raw,
  sandboxForFile,
  signed,
  start,
  type Started,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const body = JSON.stringify(payinBody({ reference_id: 'auth-1' }));
const pretty = JSON.stringify(payinBody({ reference_id: 'auth-1' }), null, 2);

interface Case {
  name: string;
  /** URL signed, URL called, body signed, body sent, headers to send (after signing). */
  request: (url: string) => {
    signUrl?: string;
    callUrl?: string;
    signBody?: string;
    sendBody?: string;
    headers?: (h: Record<string, string>) => Record<string, string>;
    method?: string;
    timestamp?: number;
  };
  code: string;
}

const cases: Case[] = [
  { name: 'no x-signature', request: () => ({ headers: ({ 'x-signature': _s, ...h }) => h }), code: 'missing_header' },
  { name: 'no x-timestamp', request: () => ({ headers: ({ 'x-timestamp': _t, ...h }) => h }), code: 'missing_header' },
  { name: 'no x-merchant-id', request: () => ({ headers: ({ 'x-merchant-id': _m, ...h }) => h }), code: 'missing_header' },
  { name: 'an empty x-signature', request: () => ({ headers: (h) => ({ ...h, 'x-signature': '' }) }), code: 'missing_header' },
  { name: 'a timestamp in milliseconds', request: () => ({ timestamp: Date.now() }), code: 'expired' },
  {
    name: 'a decimal timestamp',
    request: () => ({ headers: (h) => ({ ...h, 'x-timestamp': `${nowSeconds()}.5` }) }),
    code: 'malformed_timestamp',
  },
  {
    name: 'a negative timestamp',
    request: () => ({ headers: (h) => ({ ...h, 'x-timestamp': `-${nowSeconds()}` }) }),
    code: 'malformed_timestamp',
  },
  { name: 'a timestamp 61 s old', request: () => ({ timestamp: nowSeconds() - 61 - 5 }), code: 'expired' },
  { name: 'a timestamp 61 s ahead', request: () => ({ timestamp: nowSeconds() + 61 + 5 }), code: 'expired' },
  { name: 'a huge timestamp', request: () => ({ headers: (h) => ({ ...h, 'x-timestamp': '9'.repeat(400) }) }), code: 'expired' },
  { name: 'an unknown merchant', request: () => ({ headers: (h) => ({ ...h, 'x-merchant-id': 'm_nobody' }) }), code: 'merchant_mismatch' },
  { name: 'a short signature', request: () => ({ headers: (h) => ({ ...h, 'x-signature': 'abc123' }) }), code: 'malformed_signature' },
  {
    name: 'a signature that is not hex',
    request: () => ({ headers: (h) => ({ ...h, 'x-signature': 'z'.repeat(64) }) }),
    code: 'malformed_signature',
  },
  {
    name: 'the wrong secret',
    request: () => ({ headers: (h) => ({ ...h, 'x-signature': hmac('not-the-secret', 'x') }) }),
    code: 'bad_signature',
  },
  {
    name: "another merchant's signature under its id",
    request: () => ({ headers: (h) => ({ ...h, 'x-merchant-id': M2.id }) }),
    code: 'bad_signature',
  },
  { name: 'signed without the trailing slash', request: (url) => ({ signUrl: url.slice(0, -1) }), code: 'bad_signature' },
  { name: 'signed with an extra query', request: (url) => ({ signUrl: `${url}?x=1` }), code: 'bad_signature' },
  { name: 'signed over a path, not the full URL', request: (url) => ({ signUrl: new URL(url).pathname }), code: 'bad_signature' },
  { name: 'signed with https instead of http', request: (url) => ({ signUrl: url.replace('http:', 'https:') }), code: 'bad_signature' },
  { name: 'signed on another host name', request: (url) => ({ signUrl: url.replace('127.0.0.1', 'localhost') }), code: 'bad_signature' },
  { name: 'a pretty body signed, minified sent', request: () => ({ signBody: pretty, sendBody: body }), code: 'bad_signature' },
  { name: 'a body with one byte changed', request: () => ({ sendBody: body.replace('10.5', '10.6') }), code: 'bad_signature' },
  { name: 'signed as GET, sent as POST', request: () => ({ method: 'GET' }), code: 'bad_signature' },
  { name: 'a lower-case method signed', request: () => ({ method: 'post' }), code: 'bad_signature' },
];

describe('x-signature on a create', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s is refused, and nothing is created', async (_name, c) => {
    const url = `${sb.url}/v2/merchants/payins/`;
    const r = c.request(url);
    const signBody = r.signBody ?? body;
    const headers = signed(M1, r.method ?? 'POST', r.signUrl ?? url, signBody, r.timestamp);
    const sent = r.headers ? r.headers(headers) : headers;
    const a = await call('POST', r.callUrl ?? url, { headers: { 'content-type': 'application/json', ...sent }, body: r.sendBody ?? body });
    expect(a.status).toBe(401);
    expect(a.body.error.code).toBe(c.code);
    expect(a.text).not.toContain(M1.secret);
    expect((await adminCall(sb, 'GET', '/transactions')).body).toEqual([]);
  });

  it("accepts the same request correctly signed (the table's control)", async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, body);
    expect(a.status).toBe(200);
  });

  it('accepts a pretty-printed body signed and sent as is, and upper-case hex', async () => {
    const url = `${sb.url}/v2/merchants/payins/`;
    const headers = signed(M1, 'POST', url, pretty);
    const a = await call('POST', url, {
      headers: { 'content-type': 'application/json', ...headers, 'x-signature': headers['x-signature'].toUpperCase() },
      body: pretty,
    });
    expect(a.status).toBe(200);
  });

  it('accepts a timestamp 55 s away either way', async () => {
    for (const [i, skew] of [-55, 55].entries()) {
      const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: `skew-${i}` }), M1);
      expect(a.status).toBe(200);
      const url = `${sb.url}/v2/merchants/payins/`;
      const text = JSON.stringify(payinBody({ reference_id: `skew-b-${i}` }));
      const b = await call('POST', url, {
        headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, text, nowSeconds() + skew) },
        body: text,
      });
      expect(b.status).toBe(200);
    }
  });
});

describe('x-signature on lookups', () => {
  it('covers the exact query string: a reference signed but another asked for is refused', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'q-1' }));
    const url = `${sb.url}/v2/merchants/payins/?reference_id=q-1`;
    const ok = await call('GET', url, { headers: signed(M1, 'GET', url) });
    expect(ok.body.id).toBe(created.body.id);
    const dropped = await call('GET', url, { headers: signed(M1, 'GET', `${sb.url}/v2/merchants/payins/`) });
    expect(dropped.status).toBe(401);
    expect(dropped.body.error.code).toBe('bad_signature');
  });

  it('signs the query as sent: %20 and + are different bytes', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'a b' }));
    const sent = `${sb.url}/v2/merchants/payins/?reference_id=a%20b`;
    const a = await call('GET', sent, { headers: signed(M1, 'GET', `${sb.url}/v2/merchants/payins/?reference_id=a+b`) });
    expect(a.status).toBe(401);
    const b = await call('GET', sent, { headers: signed(M1, 'GET', sent) });
    expect(b.status).toBe(200);
  });

  it('ignores a GET body: the signed body part is empty', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const url = `${sb.url}/v2/merchants/payins/${created.body.id}`;
    // fetch cannot send a GET body; a raw request can.
    const a = await raw(sb.url, {
      method: 'GET',
      path: new URL(url).pathname,
      headers: [...Object.entries(signed(M1, 'GET', url)), ['content-length', '2']],
      body: '{}',
    });
    expect(a.body).toMatchObject({ id: created.body.id });
  });

  it('a lookup signed for another id is refused', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const url = `${sb.url}/v2/merchants/payins/${created.body.id}`;
    const a = await call('GET', url, { headers: signed(M1, 'GET', `${sb.url}/v2/merchants/payins/pi_other`) });
    expect(a.status).toBe(401);
  });
});

describe('the raw request target is what is signed', () => {
  it('verifies against the target byte for byte, not a normalised URL', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: "it's" }));
    // fetch would encode the quote; sent raw, the quote is what the client signed.
    const path = "/v2/merchants/payins/?reference_id=it's";
    const ok = await raw(sb.url, { method: 'GET', path, headers: Object.entries(signed(M1, 'GET', `${sb.url}${path}`)) });
    expect(ok.body).toMatchObject({ reference_id: "it's" });
    const normalised = await raw(sb.url, {
      method: 'GET',
      path,
      headers: Object.entries(signed(M1, 'GET', `${sb.url}/v2/merchants/payins/?reference_id=it%27s`)),
    });
    expect(normalised.status).toBe(401);
  });

  it('uses the Host header as received', async () => {
    const port = new URL(sb.url).port;
    const url = `http://localhost:${port}/v2/merchants/payins/`;
    const text = JSON.stringify(payinBody());
    const a = await raw(sb.url, {
      method: 'POST',
      path: '/v2/merchants/payins/',
      headers: [['host', `localhost:${port}`], ['content-type', 'application/json'], ...Object.entries(signed(M1, 'POST', url, text))],
      body: text,
    });
    expect(a.status).toBe(200);
    expect(a.body.next_action.url.startsWith(`http://localhost:${port}/`)).toBe(true);
  });
});

describe('tolerance option', () => {
  it('a shorter tolerance refuses what 60 s would accept; the default is 60', async () => {
    const short = await start({ toleranceSeconds: 5 });
    try {
      const url = `${short.url}/v2/merchants/payins/`;
      const a = await call('POST', url, {
        headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body, nowSeconds() - 30) },
        body,
      });
      expect(a.status).toBe(401);
      expect(a.body.error.code).toBe('expired');
    } finally {
      await short.close();
    }
    const url = `${sb.url}/v2/merchants/payins/`;
    const b = await call('POST', url, {
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body, nowSeconds() - 30) },
      body,
    });
    expect(b.status).toBe(200);
  });

  it('refuses a tolerance outside 0 to 60 s', async () => {
    await expect(start({ toleranceSeconds: 61 })).rejects.toThrow(/toleranceSeconds/);
    await expect(start({ toleranceSeconds: -1 })).rejects.toThrow(/toleranceSeconds/);
  });
});

describe('x-simplified-signature on the card push', () => {
  async function cardPayin() {
    return (await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }))).body;
  }
  const pushBody = (payinId: string) => JSON.stringify({ payin_id: payinId, card: CARD });

  const pushCases: [string, (id: string, ts: number) => Record<string, string>, string][] = [
    ['no signature', (_id, ts) => ({ 'x-merchant-id': M1.id, 'x-timestamp': String(ts) }), 'missing_header'],
    [
      'an x-signature instead',
      (id, ts) => ({ 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-signature': hmac(M1.secret, `${M1.id}${ts}${id}`) }),
      'missing_header',
    ],
    [
      'a malformed timestamp',
      (id, ts) => ({ 'x-merchant-id': M1.id, 'x-timestamp': `${ts}s`, 'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts}${id}`) }),
      'malformed_timestamp',
    ],
    [
      'an old timestamp',
      (id, ts) => ({
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts - 120),
        'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts - 120}${id}`),
      }),
      'expired',
    ],
    [
      'another merchant',
      (id, ts) => ({ 'x-merchant-id': M2.id, 'x-timestamp': String(ts), 'x-simplified-signature': hmac(M2.secret, `${M2.id}${ts}${id}`) }),
      'merchant_mismatch',
    ],
    [
      'a malformed signature',
      (_id, ts) => ({ 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-simplified-signature': 'nope' }),
      'malformed_signature',
    ],
    [
      'the method included',
      (id, ts) => ({
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts),
        'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts}POST${id}`),
      }),
      'bad_signature',
    ],
    [
      'the full x-signature string',
      (id, ts) => ({
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts),
        'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts}POST${pushBody(id)}`),
      }),
      'bad_signature',
    ],
    [
      'the wrong secret',
      (id, ts) => ({ 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-simplified-signature': hmac('wrong', `${M1.id}${ts}${id}`) }),
      'bad_signature',
    ],
  ];

  it.each(pushCases)('%s is refused and the payin stays new', async (_name, headers, code) => {
    const payin = await cardPayin();
    const a = await call('POST', payin.next_action.url, {
      headers: { 'content-type': 'application/json', ...headers(payin.id, nowSeconds()) },
      body: pushBody(payin.id),
    });
    expect(a.status).toBe(401);
    expect(a.body.error.code).toBe(code);
    const listed = await adminCall(sb, 'GET', '/transactions');
    expect(listed.body[0]).toMatchObject({ status: 'new', card_last4: null });
    // The token was not spent by the refused push.
    const ts = nowSeconds();
    const ok = await call('POST', payin.next_action.url, {
      headers: {
        'content-type': 'application/json',
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts),
        'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts}${payin.id}`),
      },
      body: pushBody(payin.id),
    });
    expect(ok.status).toBe(200);
  });
});
