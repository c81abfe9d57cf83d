// The request log, GET /_sandbox/requests: every request to a service endpoint, accepted or
// refused, newest first, with why; card data masked and secrets never kept.
import { describe, expect, it } from 'vitest';
import { LOGGED_ERROR_CHARS, LOGGED_ERRORS, loggedErrors, MAX_LOGGED_REQUESTS } from '../src/request-log.js';
import { adminCall, call, CARD, get, M1, M2, nowSeconds, payinBody, post, push, sandboxForFile, type Started } from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const requests = async (query = '') => (await adminCall(sb, 'GET', `/requests${query}`)).body;

describe('GET /_sandbox/requests', () => {
  it('lists accepted and refused requests, newest first, with merchant, status, reason, transaction and body', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'log-1' }));
    await get(`${sb.url}/v2/merchants/payins/${created.body.id}`, M2); // another merchant's: 404
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'log-2' }), { id: M1.id, secret: 'wrong' });
    await call('GET', `${sb.url}/v2/merchants/payins`); // no such endpoint
    await adminCall(sb, 'GET', '/health'); // admin requests are not service requests

    const log = await requests();
    expect(log.map((r: { status: number; code: string | null }) => [r.status, r.code])).toEqual([
      [404, 'not_found'],
      [401, 'bad_signature'],
      [404, 'not_found'],
      [200, null],
    ]);
    const [noEndpoint, refused, missing, accepted] = log;
    expect(accepted).toMatchObject({
      merchant_id: M1.id,
      method: 'POST',
      path: '/v2/merchants/payins/',
      transaction_id: created.body.id,
      hint: null,
      errors: [],
      fault: null,
    });
    expect(JSON.parse(accepted.body).reference_id).toBe('log-1');
    expect(Date.parse(accepted.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(accepted.at.endsWith('Z')).toBe(true);
    expect(accepted.duration_ms).toBeGreaterThanOrEqual(0);
    expect(missing).toMatchObject({ merchant_id: M2.id, method: 'GET', transaction_id: null, body: null });
    expect(refused).toMatchObject({ merchant_id: M1.id, code: 'bad_signature', message: expect.stringContaining('x-signature') });
    expect(noEndpoint).toMatchObject({
      merchant_id: null,
      path: '/v2/merchants/payins',
      hint: expect.stringContaining('ends with a slash'),
    });
    for (const r of log) expect(r.seq).toBeGreaterThan(0);
    expect(log.map((r: { seq: number }) => r.seq)).toEqual([...log.map((r: { seq: number }) => r.seq)].sort((a, b) => b - a));
    const text = JSON.stringify(log);
    for (const secret of [M1.secret, M2.secret, 'wrong']) expect(text).not.toContain(`"${secret}"`);
    expect(text).not.toMatch(/x-signature":/);
  });

  it('masks card data in a card push and keeps the last four digits; the push token is hidden in the path', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }));
    await push(created.body.next_action.url, created.body.id, { ...CARD, csc: '987' });
    const [pushed] = await requests('?limit=1');
    expect(pushed.path).toBe('/card-proxy/v1/push/<token>/');
    expect(pushed.transaction_id).toBe(created.body.id);
    expect(pushed.body).not.toContain(CARD.pan);
    expect(pushed.body).not.toContain('987');
    expect(JSON.parse(pushed.body).card).toEqual({ pan: '••••4242', exp_month: '•••', exp_year: '•••', csc: '•••' });
    // A card number anywhere else in a body is masked too.
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: `r${CARD.pan}` }));
    const [other] = await requests('?limit=1');
    expect(other.body).not.toContain(CARD.pan);
    expect(other.body).toContain('••••4242');
  });

  it("keeps a 400's field errors as the answer gave them, the first 20, and counts the rest", async () => {
    const unknown = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra_${i}`, i]));
    const body = payinBody({ ...unknown, payment: { amount: '1.234', currency: 'EUR' } });
    const answer = await post(`${sb.url}/v2/merchants/payins/`, body);
    expect(answer.status).toBe(400);
    const given = answer.body.error.errors as { path: string; message: string }[];
    expect(given).toHaveLength(26);
    expect(given).toContainEqual({ path: 'payment.amount', message: 'EUR has 2 decimals; got 3' });
    const [refused] = await requests('?limit=1');
    expect(refused.message).toBe(answer.body.error.message);
    expect(refused.errors).toEqual([
      ...given.slice(0, LOGGED_ERRORS),
      { path: '', message: `and ${26 - LOGGED_ERRORS} more field errors (the answer lists them)` },
    ]);
    // Accepted requests and refusals without field errors list none.
    await get(`${sb.url}/v2/merchants/payins/pi_missing`);
    expect((await requests('?limit=1'))[0].errors).toEqual([]);
  });

  it('masks card data and URL credentials in field errors as in bodies', async () => {
    // The sandbox repeats an unexpected query string in its field error: masked in the answer as
    // in the log (every refusal is written through the one masking rule: the caller's SDK, proxy
    // and logs keep answers too).
    const query = `pan=${CARD.pan}&back=https://user:pw@shop.example/x`;
    const answer = await post(`${sb.url}/v2/merchants/payins/?${query}`, payinBody());
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors[0].message).toContain(`pan=••••${CARD.pan.slice(-4)}`);
    expect(answer.text).not.toContain(CARD.pan);
    expect(answer.text).not.toContain('user:pw');
    const [refused] = await requests('?limit=1');
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0].message).toContain(`pan=••••${CARD.pan.slice(-4)}`);
    expect(refused.errors[0].message).toContain('https://***@shop.example/x');
    expect(JSON.stringify(refused)).not.toContain(CARD.pan);
    expect(JSON.stringify(refused)).not.toContain('user:pw');
  });

  it('cuts each field path and message at its bound', () => {
    const long = 'p'.repeat(LOGGED_ERROR_CHARS + 50);
    const [kept] = loggedErrors([{ path: long, message: `${CARD.pan} ${long}` }]);
    expect(kept!.path).toBe(`${'p'.repeat(LOGGED_ERROR_CHARS)}…`);
    expect(kept!.message).toBe(`${`••••${CARD.pan.slice(-4)} ${long}`.slice(0, LOGGED_ERROR_CHARS)}…`);
    expect(loggedErrors(undefined)).toEqual([]);
    expect(loggedErrors(Array.from({ length: LOGGED_ERRORS + 1 }, () => ({ path: 'a', message: 'b' })))).toHaveLength(LOGGED_ERRORS + 1);
    expect(loggedErrors(Array.from({ length: LOGGED_ERRORS + 1 }, () => ({ path: 'a', message: 'b' }))).at(-1)).toEqual({
      path: '',
      message: 'and 1 more field error (the answer lists them)',
    });
  });

  it('notes the fault a request matched, and a dropped connection as a null status', async () => {
    await adminCall(sb, 'POST', '/faults', { method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
    await post(`${sb.url}/v2/merchants/payins/`, payinBody()).catch(() => undefined);
    const [dropped] = await requests('?limit=1');
    expect(dropped).toMatchObject({ status: null, fault: 'drop_after_commit' });
    expect(dropped.transaction_id).toMatch(/^pi_/);
  });

  it('takes ?limit from 1 to 1000, refuses anything else with the field', async () => {
    for (let i = 0; i < 3; i++) await get(`${sb.url}/v2/merchants/payins/pi_${i}`);
    expect(await requests('?limit=2')).toHaveLength(2);
    expect(await requests()).toHaveLength(3);
    for (const bad of ['0', '1001', '-1', 'ten', '1e3', '']) {
      const a = await adminCall(sb, 'GET', `/requests?limit=${bad}`);
      expect(a.status, bad).toBe(400);
      expect(a.body.error.errors[0].path).toBe('limit');
    }
  });

  it(`keeps the newest ${MAX_LOGGED_REQUESTS}, and a reset clears it`, async () => {
    const ts = nowSeconds();
    const url = `${sb.url}/v2/merchants/payins/pi_x`;
    const headers = { 'x-merchant-id': M1.id, 'x-timestamp': String(ts), 'x-signature': '0'.repeat(64) };
    const sent = MAX_LOGGED_REQUESTS + 50;
    for (let i = 0; i < sent; i += 50) await Promise.all(Array.from({ length: 50 }, () => call('GET', url, { headers })));
    const log = await requests('?limit=1000');
    expect(log).toHaveLength(MAX_LOGGED_REQUESTS);
    expect(log[0].seq).toBe(sent); // the newest first
    expect(log[MAX_LOGGED_REQUESTS - 1].seq).toBe(sent - MAX_LOGGED_REQUESTS + 1); // the oldest 50 gone
    await adminCall(sb, 'POST', '/reset');
    expect(await requests()).toEqual([]);
  });
});
