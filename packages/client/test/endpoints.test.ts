// Every endpoint over real HTTP against the loopback stand-in: the URL called (trailing slashes,
// query), the exact bytes sent, each signature recomputed by the server with node:crypto, and
// the typed result.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, InvalidRequestError } from '../src/index.js';
import type { RequestEvent } from '../src/index.js';
import { CARD, hmac, legacyPayinBody, MERCHANT, payinBody, payoutBody, SECRET, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const client = (extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl: server.base, cardProxyUrl: `${server.base}/card-proxy`, merchantId: MERCHANT, secret: SECRET, ...extra });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('payins', () => {
  it('create (v2): POST {base}/v2/merchants/payins/ with the exact bytes signed, a generated reference_id returned', async () => {
    const result = await client().payins.create(payinBody() as never);
    expect(result.reconciled).toBe(false);
    expect(result.referenceId).toMatch(UUID);
    expect(server.received).toHaveLength(1);
    const [req] = server.received;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe(`${server.base}/v2/merchants/payins/`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-merchant-id']).toBe(MERCHANT);
    expect(req!.headers['x-timestamp']).toMatch(/^[0-9]+$/);
    expect(req!.signatureOk).toBe(true);
    const text = req!.body.toString('utf8');
    expect(text).toContain('"payment":{"amount":10.50,"currency":"EUR"}');
    expect(JSON.parse(text).reference_id).toBe(result.referenceId);
    if (result.reconciled) throw new Error('unexpected');
    expect(result.data.reference_id).toBe(result.referenceId);
    expect(result.data.status).toBe('new');
    expect(result.data.next_action.type).toBe('card_push');
    expect(result.data.created_at).toBeInstanceOf(Date);
    expect(result.data.expires_at.getTime()).toBeGreaterThan(result.data.created_at.getTime());
    expect(result.response.status).toBe(200);
    expect(JSON.parse(result.response.body).id).toBe(result.data.id);
  });

  it("create keeps the caller's reference_id", async () => {
    const result = await client().payins.create(payinBody({ reference_id: 'order-1001' }) as never);
    expect(result.referenceId).toBe('order-1001');
    expect(JSON.parse(server.received[0]!.body.toString()).reference_id).toBe('order-1001');
  });

  it('createLegacy: POST {base}/v1/merchants/payins/', async () => {
    const result = await client().payins.createLegacy(legacyPayinBody() as never);
    expect(server.received[0]!.url).toBe(`${server.base}/v1/merchants/payins/`);
    expect(server.received[0]!.signatureOk).toBe(true);
    expect(result.data.status).toBe('new');
  });

  it('get: GET {base}/v2/merchants/payins/<id>, no trailing slash, unknown fields kept', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody() as never);
    const found = await pay.payins.get(created.data.id);
    const req = server.received[1]!;
    expect(req.method).toBe('GET');
    expect(req.url).toBe(`${server.base}/v2/merchants/payins/${created.data.id}`);
    expect(req.body.length).toBe(0);
    expect(req.signatureOk).toBe(true);
    expect(req.expected).toBe(hmac(`${MERCHANT}${req.headers['x-timestamp']}GET${server.base}/v2/merchants/payins/${created.data.id}`));
    expect(found.data.id).toBe(created.data.id);
    expect(found.data.language).toBe('en');
    expect((found.data as Record<string, unknown>)['extra_field_from_the_future']).toEqual({ ok: true });
    expect(found.data.updated_at).toBeInstanceOf(Date);
  });

  it('getByReference: GET {base}/v2/merchants/payins/?reference_id=<encoded>', async () => {
    const pay = client();
    await pay.payins.create(payinBody({ reference_id: 'order 7&x' }) as never);
    const found = await pay.payins.getByReference('order 7&x');
    expect(server.received[1]!.url).toBe(`${server.base}/v2/merchants/payins/?reference_id=order%207%26x`);
    expect(server.received[1]!.signatureOk).toBe(true);
    expect(found.data.reference_id).toBe('order 7&x');
  });

  it('pushCard to the next_action address: x-simplified-signature, the card in the body, the payin executed', async () => {
    const pay = client();
    const events: RequestEvent[] = [];
    const withHooks = client({ hooks: { onRequest: (e: RequestEvent) => events.push(e) } });
    const created = await pay.payins.create(payinBody() as never);
    if (created.reconciled) throw new Error('unexpected');
    const pushed = await withHooks.payins.pushCard({ payinId: created.data.id, url: created.data.next_action.url }, CARD);
    const req = server.received[1]!;
    expect(req.url).toBe(created.data.next_action.url);
    expect(req.scheme).toBe('x-simplified-signature');
    expect(req.headers['x-signature']).toBeUndefined();
    expect(req.expected).toBe(hmac(`${MERCHANT}${req.headers['x-timestamp']}${created.data.id}`));
    expect(req.signatureOk).toBe(true);
    expect(JSON.parse(req.body.toString())).toEqual({ payin_id: created.data.id, card: CARD });
    expect(pushed.data?.id).toBe(created.data.id);
    expect(pushed.data?.status).toBe('executed');
    expect((await pay.payins.get(created.data.id)).data.status).toBe('executed');
    expect(events[0]!.url).toBe(`${server.base}/card-proxy/v1/push/***/`);
  });

  it('pushCard to an address of another shape: hooks see only its origin, since where its token is cannot be told', async () => {
    const events: RequestEvent[] = [];
    const pay = client({ hooks: { onRequest: (e: RequestEvent) => events.push(e) } });
    server.next.push((_req, res) => void res.writeHead(204).end());
    const url = `${server.base}/card-proxy/cards/tok-one-time-123?session=s-456`;
    await pay.payins.pushCard({ payinId: 'pi_1', url }, CARD);
    expect(server.received[0]!.url).toBe(url);
    expect(events.map((e) => e.url)).toEqual([`${server.base}/***`]);
  });

  it('pushCard by token builds {cardProxyUrl}/v1/push/<token>/', async () => {
    const pay = client();
    const created = await pay.payins.create(payinBody() as never);
    await pay.payins.pushCard({ payinId: created.data.id, token: `tok_${created.data.id}` }, CARD);
    expect(server.received[1]!.url).toBe(`${server.base}/card-proxy/v1/push/tok_${created.data.id}/`);
    expect(server.received[1]!.signatureOk).toBe(true);
  });
});

describe('payouts', () => {
  it('create without the payment page: redirect_urls optional', async () => {
    const result = await client().payouts.create(payoutBody() as never);
    expect(server.received[0]!.url).toBe(`${server.base}/v2/merchants/payouts/`);
    expect(server.received[0]!.signatureOk).toBe(true);
    expect(server.received[0]!.body.toString()).toContain('"payment":{"amount":25,"currency":"EUR"}');
    expect(result.data.id).toMatch(/^po_/);
  });

  it('create for the payment page requires redirect_urls.success and .fail', async () => {
    const pay = client();
    const missing = await pay.payouts.create(payoutBody() as never, { paymentPage: true }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidRequestError);
    expect((missing as InvalidRequestError).errors.map((e) => e.path)).toEqual(['redirect_urls']);
    expect(server.received).toHaveLength(0);
    const body = payoutBody({ redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' } });
    const result = await pay.payouts.create(body as never, { paymentPage: true });
    expect(result.data.status).toBe('new');
    expect(JSON.parse(server.received[0]!.body.toString()).redirect_urls).toEqual(body['redirect_urls']);
  });

  it('get and getByReference', async () => {
    const pay = client();
    const created = await pay.payouts.create(payoutBody({ reference_id: 'payout/7?' }) as never);
    const byId = await pay.payouts.get(created.data.id);
    const byRef = await pay.payouts.getByReference('payout/7?');
    expect(server.received[1]!.url).toBe(`${server.base}/v2/merchants/payouts/${created.data.id}`);
    expect(server.received[2]!.url).toBe(`${server.base}/v2/merchants/payouts/?reference_id=payout%2F7%3F`);
    expect(server.received.every((r) => r.signatureOk)).toBe(true);
    expect(byId.data.id).toBe(created.data.id);
    expect(byRef.data.id).toBe(created.data.id);
    expect(byRef.data.payment).toEqual({ amount: 25, currency: 'EUR' });
  });
});
