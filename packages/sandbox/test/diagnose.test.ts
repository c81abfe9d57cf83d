// Signature diagnosis over real HTTP: for each mistake integrators make, the refusal's error.hint
// names it, and the log line and the request log carry the same words. Requests are signed here
// with node:crypto (helpers.ts), the way each mistake would sign them.
import { describe, expect, it } from 'vitest';
import { HINTS_PER_SECOND } from '../src/diagnose.js';
import { adminCall, call, CARD, hmac, M1, M2, nowSeconds, payinBody, post, sandboxForFile, signed, type Started } from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const body = JSON.stringify(payinBody({ reference_id: 'diag-1' }));
const pretty = JSON.stringify(payinBody({ reference_id: 'diag-1' }), null, 2);
const python = JSON.stringify(payinBody({ reference_id: 'diag-1' }))
  .replace(/,"/g, ', "')
  .replace(/":/g, '": ');

interface Case {
  name: string;
  /** How the mistaken caller signs and sends a create (or a lookup, with `get`). */
  request: (url: string) => {
    signUrl?: string;
    callUrl?: string;
    signBody?: string;
    sendBody?: string;
    signMethod?: string;
    timestamp?: number;
    merchant?: typeof M1;
    id?: string;
    /** The merchant id put in the string to sign, when not the one sent in x-merchant-id. */
    signId?: string;
    get?: true;
  };
  code: string;
  hint: RegExp;
}

const cases: Case[] = [
  {
    name: 'a dropped trailing slash',
    request: (url) => ({ signUrl: url.slice(0, -1) }),
    code: 'bad_signature',
    hint: /URL without its trailing slash/,
  },
  {
    name: 'an added trailing slash',
    request: (url) => ({ signUrl: `${url}pi_x/`, callUrl: `${url}pi_x`, get: true }),
    code: 'bad_signature',
    hint: /URL with a trailing slash/,
  },
  {
    name: 'a dropped query',
    request: (url) => ({ signUrl: url, callUrl: `${url}?reference_id=diag-1`, get: true }),
    code: 'bad_signature',
    hint: /without its query string/,
  },
  {
    name: 'a body pretty-printed when signed, minified when sent',
    request: () => ({ signBody: pretty, sendBody: body }),
    code: 'bad_signature',
    hint: /pretty-printed with 2 spaces/,
  },
  {
    name: 'a body re-serialised by Python after signing',
    request: () => ({ signBody: python, sendBody: body }),
    code: 'bad_signature',
    hint: /Python's json\.dumps/,
  },
  {
    name: 'a minified body signed, a pretty one sent',
    request: () => ({ signBody: body, sendBody: pretty }),
    code: 'bad_signature',
    hint: /body minified/,
  },
  {
    name: 'the method in lower case',
    request: () => ({ signMethod: 'post' }),
    code: 'bad_signature',
    hint: /method in lower case \(post\)/,
  },
  {
    name: 'a path without scheme and host',
    request: (url) => ({ signUrl: new URL(url).pathname }),
    code: 'bad_signature',
    hint: /path alone/,
  },
  {
    name: 'another host name for this machine',
    request: (url) => ({ signUrl: url.replace('127.0.0.1', 'localhost') }),
    code: 'bad_signature',
    hint: /host localhost/,
  },
  {
    name: 'https for http',
    request: (url) => ({ signUrl: url.replace('http:', 'https:') }),
    code: 'bad_signature',
    hint: /https:\/\/ form/,
  },
  {
    name: "another merchant's secret",
    request: () => ({ merchant: { id: M1.id, secret: M2.secret } }),
    code: 'bad_signature',
    hint: /secret of merchant m_2/,
  },
  {
    name: "another merchant's id in the string to sign, with the named merchant's secret",
    request: () => ({ signId: M2.id }),
    code: 'bad_signature',
    hint: /string to sign that begins with merchant m_2's id, while x-merchant-id names m_1/,
  },
  {
    name: "another merchant's id and secret",
    request: () => ({ merchant: M2, signId: M2.id, id: 'sent-as-m1' }),
    code: 'bad_signature',
    hint: /merchant m_2's id and secret, while x-merchant-id names m_1/,
  },
  {
    // Node's Buffer.from('sk_test_one', 'hex') stops at the first pair that is not hex: an empty key.
    name: 'the secret decoded as hex',
    request: () => ({ merchant: { id: M1.id, secret: Buffer.from(M1.secret, 'hex').toString('utf8') } }),
    code: 'bad_signature',
    hint: /secret decoded as hex \(an empty key/,
  },
  {
    name: 'the port dropped from the signed URL',
    request: (url) => ({ signUrl: url.replace(/:[0-9]+\//, '/') }),
    code: 'bad_signature',
    hint: /URL without its port/,
  },
  {
    name: 'a body signed on a GET',
    request: (url) => ({ callUrl: `${url}pi_x`, signUrl: `${url}pi_x`, get: true, signBody: '{}' }),
    code: 'bad_signature',
    hint: /body of \{\}/,
  },
  {
    name: 'a timestamp one second off the one sent',
    request: () => ({ timestamp: nowSeconds() - 1, id: 'drift' }),
    code: 'bad_signature',
    hint: /one second before x-timestamp/,
  },
  {
    name: 'a clock 300 s slow',
    request: () => ({ timestamp: nowSeconds() - 300 }),
    code: 'expired',
    hint: /(29[89]|30[012]) s behind the sandbox's clock/,
  },
  {
    name: 'a clock 120 s fast',
    request: () => ({ timestamp: nowSeconds() + 120 }),
    code: 'expired',
    hint: /(11[89]|12[012]) s ahead of the sandbox's clock/,
  },
  { name: 'milliseconds', request: () => ({ timestamp: Date.now() }), code: 'expired', hint: /milliseconds/ },
  {
    name: 'a merchant id in the wrong case',
    request: () => ({ merchant: { id: 'M_1', secret: M1.secret } }),
    code: 'merchant_mismatch',
    hint: /only in case/,
  },
];

/** Sends one mistaken request; the signature is computed with node:crypto over what the mistake signs. */
async function mistaken(c: Case) {
  const base = `${sb.url}/v2/merchants/payins/`;
  const r = c.request(base);
  const merchant = r.merchant ?? M1;
  const method = r.get ? 'GET' : 'POST';
  const ts = r.timestamp ?? nowSeconds();
  const signBody = r.signBody ?? (r.get ? '' : body);
  const signature = hmac(merchant.secret, `${r.signId ?? merchant.id}${ts}${r.signMethod ?? method}${r.signUrl ?? base}${signBody}`);
  // A drifted timestamp: signed with one value, sent with the next.
  const sentTs = r.id === 'drift' ? ts + 1 : ts;
  const headers = {
    'content-type': 'application/json',
    'x-merchant-id': r.id === 'sent-as-m1' ? M1.id : merchant.id,
    'x-timestamp': String(sentTs),
    'x-signature': signature,
  };
  return call(method, r.callUrl ?? base, { headers, ...(r.get ? {} : { body: r.sendBody ?? body }) });
}

describe('error.hint on a refused x-signature', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: the hint names it', async (_name, c) => {
    const a = await mistaken(c);
    expect(a.status).toBe(401);
    expect(a.body.error.code).toBe(c.code);
    expect(a.body.error.hint).toMatch(c.hint);
    // Never the secret, never a signature that would have passed.
    expect(a.text).not.toContain(M1.secret);
    expect(a.text).not.toContain(M2.secret);
    expect(a.text).not.toMatch(/[0-9a-f]{64}/);
    // The same words in the log line and in the request log.
    expect(sb.lines.some((line) => line.includes(a.body.error.hint))).toBe(true);
    const [logged] = (await adminCall(sb, 'GET', '/requests?limit=1')).body;
    expect(logged).toMatchObject({ status: 401, code: c.code, hint: a.body.error.hint });
  });

  it('a signature that matches no known mistake: the hint says the secret is likeliest, and where it comes from', async () => {
    const url = `${sb.url}/v2/merchants/payins/`;
    const a = await post(url, body, M1, { 'x-signature': hmac('some-other-key', 'x') });
    expect(a.body.error.code).toBe('bad_signature');
    expect(a.body.error.hint).toBe(
      `no common signing mistake matches (URL, method, body and secret variants were tried): the secret is most likely not merchant ${M1.id}'s; sign with the one this sandbox was started with for ${M1.id} (--merchant ${M1.id}:<secret>, or merchants in startSandbox)`,
    );
    expect(a.text).not.toContain(M1.secret);
    expect(a.text).not.toMatch(/[0-9a-f]{64}/);
  });

  it('the card push: a method put into the simplified signature, and x-signature used instead', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }));
    const { id } = created.body;
    const pushUrl = created.body.next_action.url as string;
    const pushBody = JSON.stringify({ payin_id: id, card: CARD });
    const ts = nowSeconds();
    const withMethod = await call('POST', pushUrl, {
      headers: {
        'content-type': 'application/json',
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts),
        'x-simplified-signature': hmac(M1.secret, `${M1.id}${ts}POST${id}`),
      },
      body: pushBody,
    });
    expect(withMethod.status).toBe(401);
    expect(withMethod.body.error.hint).toMatch(/method is not part of x-simplified-signature/);
    const fullScheme = await call('POST', pushUrl, {
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', pushUrl, pushBody) },
      body: pushBody,
    });
    expect(fullScheme.status).toBe(401);
    expect(fullScheme.body.error.hint).toMatch(/x-simplified-signature/);
    // The card number never reaches the log.
    const log = JSON.stringify((await adminCall(sb, 'GET', '/requests')).body);
    expect(log).not.toContain(CARD.pan);
    expect(log).toContain('••••4242');
  });

  it(`works out at most ${HINTS_PER_SECOND} a second: a burst of forged requests gets most hints skipped`, async () => {
    const url = `${sb.url}/v2/merchants/payins/`;
    const c = cases[0]!;
    const answers = await Promise.all(Array.from({ length: 60 }, () => mistaken(c)));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    const skipped = answers.filter((a) => /not worked out/.test(a.body.error.hint ?? ''));
    const named = answers.filter((a) => /trailing slash/.test(a.body.error.hint ?? ''));
    expect(skipped.length).toBeGreaterThan(0);
    expect(named.length).toBeGreaterThan(0);
    expect(named.length + skipped.length).toBe(60);
    void url;
  });
});
