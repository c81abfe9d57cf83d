// Every endpoint over real HTTP, its answers checked against @pay/schema's response schemas
// (by the helpers, on every call) and their contents checked here.
import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../src/index.js';
import {
  adminCall,
  CARD,
  get,
  M1,
  M2,
  payinBody,
  payinV1Body,
  payoutBody,
  post,
  push,
  sandboxForFile,
  type Started,
  withoutGenerated,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('create payin (v2)', () => {
  it('answers the record: status new, fee and errors null, a hosted-page next_action', async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1', language: 'en' }));
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      reference_id: 'order-1',
      status: 'new',
      payment: { amount: 10.5, currency: 'EUR' },
      method: null,
      fee: null,
      error_code: null,
      error_message: null,
      next_action: { type: 'redirect' },
    });
    expect(a.body.id).toMatch(/^pi_[0-9a-z]{20}$/);
    expect(a.body.next_action.url).toBe(`${sb.url}/_sandbox/pay/${a.body.id}`);
    for (const field of ['created_at', 'updated_at', 'expires_at']) expect(a.body[field]).toMatch(DATETIME);
    expect(Date.parse(`${a.body.expires_at}Z`) - Date.parse(`${a.body.created_at}Z`)).toBe(30 * 60 * 1000);
    expect(a.body).not.toHaveProperty('language');
  });

  it('gives a card payin a one-time card push address under the card proxy', async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }));
    expect(a.body.method).toBe('card');
    expect(a.body.next_action.type).toBe('card_push');
    expect(a.body.next_action.url).toMatch(new RegExp(`^${sb.cardProxyUrl}/v1/push/ct_[0-9a-z]{32}/$`));
    expect(a.body.reference_id).toBeNull();
  });

  it('keeps a decimal string amount as the number it writes', async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ payment: { amount: '1234.50', currency: 'USD' } }));
    expect(a.body.payment).toEqual({ amount: 1234.5, currency: 'USD' });
  });
});

describe('create payin (legacy v1)', () => {
  it('answers the v2 shape without method', async () => {
    const a = await post(`${sb.url}/v1/merchants/payins/`, payinV1Body({ reference_id: 'legacy-1' }));
    expect(a.status).toBe(200);
    expect(a.body).not.toHaveProperty('method');
    expect(a.body).toMatchObject({ status: 'new', reference_id: 'legacy-1', payment: { amount: 20, currency: 'USD' } });
  });

  it('defaults a missing currency to EUR and accepts a body without webhook_url', async () => {
    const { webhook_url: _w, ...body } = payinV1Body();
    const a = await post(`${sb.url}/v1/merchants/payins/`, { ...body, payment: { amount: 5 } });
    expect(a.status).toBe(200);
    expect(a.body.payment).toEqual({ amount: 5, currency: 'EUR' });
  });

  it('refuses v2-only fields (method, state, in_progress)', async () => {
    const body = payinV1Body({ method: 'card' });
    const a = await post(`${sb.url}/v1/merchants/payins/`, body);
    expect(a.status).toBe(400);
    expect(a.body.error.errors).toContainEqual({ path: 'method', message: expect.any(String) });
  });

  it('shares the payin reference space with v2', async () => {
    const first = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'shared' }));
    const second = await post(`${sb.url}/v1/merchants/payins/`, payinV1Body({ reference_id: 'shared' }));
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'duplicate_reference_id', id: first.body.id });
  });
});

describe('create payout', () => {
  it('answers the payout record with a hosted-page next_action', async () => {
    const a = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'po-1' }));
    expect(a.status).toBe(200);
    expect(a.body.id).toMatch(/^po_/);
    expect(a.body).toMatchObject({
      status: 'new',
      fee: null,
      payment: { amount: 99.99, currency: 'EUR' },
      next_action: { type: 'redirect' },
    });
    expect(a.body).not.toHaveProperty('method');
  });

  it('has its own reference space, separate from payins', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'same' }));
    expect((await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'same' }))).status).toBe(200);
    expect((await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'same' }))).status).toBe(409);
  });
});

describe('reference_id is unique per merchant and resource', () => {
  it('answers 409 with the existing id, and creates nothing', async () => {
    const first = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'dup' }));
    const second = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'dup' }));
    expect(second.status).toBe(409);
    expect(second.body.error.id).toBe(first.body.id);
    expect((await adminCall(sb, 'GET', '/transactions')).body).toHaveLength(1);
  });

  it('lets another merchant use the same reference', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'mine' }), M1);
    expect((await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'mine' }), M2)).status).toBe(200);
  });
});

describe('lookups', () => {
  it('by id and by reference give the lookup shape (fee and language, no method, no next_action)', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'look-1', method: 'card', language: 'fr' }));
    const byId = await get(`${sb.url}/v2/merchants/payins/${created.body.id}`);
    const byRef = await get(`${sb.url}/v2/merchants/payins/?reference_id=look-1`);
    for (const a of [byId, byRef]) {
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ id: created.body.id, reference_id: 'look-1', status: 'new', fee: null, language: 'fr' });
      expect(a.body).not.toHaveProperty('method');
      expect(a.body).not.toHaveProperty('next_action');
    }
    expect(byRef.body).toEqual(byId.body);
  });

  it('payouts by id and by reference', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'po-look' }));
    const byId = await get(`${sb.url}/v2/merchants/payouts/${created.body.id}`);
    const byRef = await get(`${sb.url}/v2/merchants/payouts/?reference_id=po-look`);
    expect(byId.status).toBe(200);
    expect(byRef.body).toEqual(byId.body);
    expect(byId.body).not.toHaveProperty('language');
  });

  it.each([
    ['spaces and symbols', 'order 1&2/3?x=%'],
    ['non-ASCII', 'commande-été-№5'],
    ['a plus sign', 'a+b'],
  ])('finds a reference with %s, percent-encoded in the query', async (_label, reference) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: reference }));
    const a = await get(`${sb.url}/v2/merchants/payins/?reference_id=${encodeURIComponent(reference)}`);
    expect(a.status).toBe(200);
    expect(a.body.id).toBe(created.body.id);
  });

  it("answers 404 for an unknown id or reference, another merchant's record, or the wrong resource", async () => {
    const payin = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'r-404' }));
    const cases = [
      get(`${sb.url}/v2/merchants/payins/pi_doesnotexist`),
      get(`${sb.url}/v2/merchants/payins/?reference_id=nope`),
      get(`${sb.url}/v2/merchants/payins/${payin.body.id}`, M2),
      get(`${sb.url}/v2/merchants/payins/?reference_id=r-404`, M2),
      get(`${sb.url}/v2/merchants/payouts/${payin.body.id}`),
      get(`${sb.url}/v2/merchants/payouts/?reference_id=r-404`),
    ];
    for (const a of await Promise.all(cases)) {
      expect(a.status).toBe(404);
      expect(a.body.error.code).toBe('not_found');
    }
  });
});

describe('card push', () => {
  async function cardPayin() {
    return (await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }))).body;
  }

  it.each(TEST_CARDS.map((c) => [c.pan, c] as const))('test card %s decides the outcome', async (_pan, card) => {
    const payin = await cardPayin();
    const a = await push(payin.next_action.url, payin.id, { ...CARD, pan: card.pan });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: payin.id, status: card.status, error_code: card.error_code, error_message: card.error_message });
    const looked = await get(`${sb.url}/v2/merchants/payins/${payin.id}`);
    expect(looked.body.status).toBe(card.status);
    if (card.status === 'executed') expect(looked.body.fee).toEqual({ amount: 0.26, currency: 'EUR' });
    else expect(looked.body.fee).toBeNull();
  });

  it('covers at least success, decline with a code, and insufficient funds', () => {
    const codes = TEST_CARDS.map((c) => c.error_code);
    expect(codes).toContain(null);
    expect(codes).toContain('card_declined');
    expect(codes).toContain('insufficient_funds');
  });

  it('fails another valid card whose expiry has passed, and executes one that has not', async () => {
    const expired = await cardPayin();
    const a = await push(expired.next_action.url, expired.id, { pan: '4111111111111111', exp_month: '01', exp_year: '2001', csc: '999' });
    expect(a.body).toMatchObject({ status: 'failed', error_code: 'expired_card' });
    const fine = await cardPayin();
    expect((await push(fine.next_action.url, fine.id, { ...CARD, pan: '4111111111111111' })).body.status).toBe('executed');
  });

  it('a token works once; a second push is 409 token_used', async () => {
    const payin = await cardPayin();
    expect((await push(payin.next_action.url, payin.id, CARD)).status).toBe(200);
    const again = await push(payin.next_action.url, payin.id, CARD);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('token_used');
  });

  it("refuses a payin_id other than the token's payin, and an unknown token", async () => {
    const payin = await cardPayin();
    const other = await cardPayin();
    // Signed correctly for the body's payin, but the address belongs to another payin.
    const wrong = await push(payin.next_action.url, other.id, CARD);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('bad_signature');
    // Signed for the token's payin, but the body names another one.
    const mismatch = await push(payin.next_action.url, other.id, CARD, M1, undefined, payin.id);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.errors).toEqual([{ path: 'payin_id', message: expect.stringContaining('payin this push address') }]);
    const a = await push(`${sb.cardProxyUrl}/v1/push/ct_unknown/`, payin.id, CARD);
    expect(a.status).toBe(404);
    expect((await get(`${sb.url}/v2/merchants/payins/${payin.id}`)).body.status).toBe('new');
  });

  it('refuses a push to a payin that is no longer new (409 invalid_state)', async () => {
    const payin = await cardPayin();
    await adminCall(sb, 'POST', `/payins/${payin.id}/status`, { status: 'expired' });
    const a = await push(payin.next_action.url, payin.id, CARD);
    expect(a.status).toBe(409);
    expect(a.body.error.code).toBe('invalid_state');
  });

  it('never returns or keeps card data: only the last four digits, on the admin view', async () => {
    const payin = await cardPayin();
    const a = await push(payin.next_action.url, payin.id, { ...CARD, pan: '4000000000000002', csc: '987' });
    expect(a.text).not.toContain('4000000000000002');
    expect(withoutGenerated(a.text)).not.toContain('987');
    const listed = await adminCall(sb, 'GET', '/transactions');
    expect(listed.body[0].card_last4).toBe('0002');
    expect(listed.text).not.toContain('4000000000000002');
  });
});

describe('next_action and the base URL', () => {
  it('builds next_action on the host the client called (localhost works as well as 127.0.0.1)', async () => {
    const base = sb.url.replace('127.0.0.1', 'localhost');
    const a = await post(`${base}/v2/merchants/payins/`, payinBody({ method: 'card' }));
    expect(a.status).toBe(200);
    expect(a.body.next_action.url.startsWith(`${base}/card-proxy/v1/push/`)).toBe(true);
  });
});
