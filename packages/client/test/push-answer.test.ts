// What a card push resolves with. The interface does not show the push answer; a 2xx means the
// service accepted the card. `data` is the payin only when the answer is this payin's record
// (the sandbox's answer), and null for anything else: never an error (the card was accepted, and
// a merchant who read an error as a decline could take the card again and charge twice), and
// never a guess at a status.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';
import { CARD, MERCHANT, SECRET, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const CREATED_AT = '2031-05-06T07:08:09.123456';
const record = (id: string, status: string) =>
  JSON.stringify({
    id,
    reference_id: 'order-1',
    status,
    payment: { amount: 10.5, currency: 'EUR' },
    fee: null,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    expires_at: CREATED_AT,
    error_code: status === 'failed' ? 'card_declined' : null,
    error_message: status === 'failed' ? 'declined' : null,
  });

const JSON_TYPE = { 'content-type': 'application/json' };

// [what the push is answered with, status, headers, body, the status `data` must show (null: none)]
const ANSWERS: [string, number, Record<string, string>, string, string | null][] = [
  ['the payin, executed', 200, JSON_TYPE, record('pi_1', 'executed'), 'executed'],
  ['the payin, declined', 200, JSON_TYPE, record('pi_1', 'failed'), 'failed'],
  ['the payin, still new', 202, JSON_TYPE, record('pi_1', 'new'), 'new'],
  ['another payin', 200, JSON_TYPE, record('pi_2', 'executed'), null],
  ['JSON that is not a payin', 200, JSON_TYPE, '{"status":"accepted"}', null],
  ['JSON cut short', 200, JSON_TYPE, record('pi_1', 'executed').slice(0, 50), null],
  ['an HTML page', 200, { 'content-type': 'text/html' }, '<html>thanks</html>', null],
  ['the payin as text/plain', 200, { 'content-type': 'text/plain' }, record('pi_1', 'executed'), null],
  ['no body (204)', 204, {}, '', null],
];

describe('what a card push resolves with', () => {
  it.each(ANSWERS)('answered with %s', async (_label, status, headers, body, shows) => {
    server.next.push((_req, res: ServerResponse) => {
      res.writeHead(status, headers);
      res.end(body);
    });
    const pay = createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET });
    const pushed = await pay.payins.pushCard({ payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/tok_1/` }, CARD);
    expect(pushed.response.status).toBe(status);
    expect(pushed.response.body).toBe(body);
    if (shows === null) {
      expect(pushed.data).toBeNull();
    } else {
      expect(pushed.data?.id).toBe('pi_1');
      expect(pushed.data?.status).toBe(shows);
      expect(pushed.data?.created_at).toEqual(new Date(`${CREATED_AT.slice(0, 23)}Z`));
    }
    expect(server.received).toHaveLength(1);
  });

  it('a refusal (409, the token already used) is an ApiError, not a result', async () => {
    server.next.push((_req, res: ServerResponse) => {
      res.writeHead(409, JSON_TYPE);
      res.end('{"error":{"code":"token_used","message":"used"}}');
    });
    const pay = createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET });
    const error = await pay.payins
      .pushCard({ payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/tok_1/` }, CARD)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('token_used');
  });
});
