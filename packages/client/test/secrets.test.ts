// The secret and card data never leave the request: not in errors (message, stack, cause,
// util.inspect with hidden fields, JSON), not in hook events, not on the client object.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type InvalidRequestError, PayError } from '../src/index.js';
import { CARD, json, MERCHANT, payinBody, SECRET, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const events: unknown[] = [];
const hooks = {
  onRequest: (e: unknown) => events.push(e),
  onResponse: (e: unknown) => events.push(e),
  onRetry: (e: unknown) => events.push(e),
  onReconcile: (e: unknown) => events.push(e),
};
const client = () =>
  createClient({
    baseUrl: server.base,
    cardProxyUrl: `${server.base}/card-proxy`,
    merchantId: MERCHANT,
    secret: SECRET,
    retries: 1,
    hooks,
  });

/** Everything an error shows, by every route a log could take. */
function everything(value: unknown): string {
  const parts = [
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    inspect(value, { customInspect: false, showHidden: true, depth: Infinity }),
    JSON.stringify(value, (_k, v) => (v instanceof Headers ? [...v] : v)),
    String(value),
  ];
  if (value instanceof Error) {
    parts.push(value.stack ?? '', value.message);
    for (let c: unknown = value.cause; c; c = (c as Error).cause) parts.push(inspect(c, { showHidden: true, depth: Infinity }));
  }
  return parts.join('\n');
}

const FORBIDDEN = [SECRET, CARD.pan, '"987"', 'x-signature'];
function expectClean(text: string) {
  for (const secret of FORBIDDEN) expect(text).not.toContain(secret);
}

describe('secrets and card data stay out', () => {
  it('the client object', () => {
    expectClean(everything(client()));
  });

  it('errors of every kind, and the hook events of those calls', async () => {
    const errors: unknown[] = [];
    const pay = client();
    const catchIt = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => errors.push(e),
      );
    await catchIt(createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: `${SECRET}x` }).payins.get('pi_1')); // 401
    await catchIt(pay.payins.get('nope')); // 404
    server.next.push(
      (_r, res) => void res.socket?.destroy(),
      (_r, res) => void res.socket?.destroy(),
    );
    await catchIt(pay.payins.get('pi_1')); // network
    server.next.push(() => {});
    await catchIt(createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, timeoutMs: 100, retries: 0 }).payins.get('p')); // timeout
    server.next.push((_r, res) => json(res, 200, { not: 'a payin' }));
    await catchIt(pay.payins.get('pi_1')); // invalid response
    // Card errors: an invalid card, and a receiver that echoes the card back in its refusal.
    await catchIt(
      pay.payins.pushCard({ payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/t/` }, { ...CARD, pan: '4242424242424241' }),
    );
    server.next.push((req, res) =>
      json(res, 400, {
        error: {
          code: 'bad_card',
          message: `card ${JSON.parse(req.body.toString()).card.pan} refused`,
          card: JSON.parse(req.body.toString()).card,
        },
      }),
    );
    await catchIt(pay.payins.pushCard({ payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/t/` }, CARD));
    server.next.push(() => {});
    await catchIt(
      createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, timeoutMs: 100, hooks }).payins.pushCard(
        { payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/t/` },
        CARD,
      ),
    );
    expect(errors).toHaveLength(8);
    for (const error of errors) {
      expect(error).toBeInstanceOf(PayError);
      expectClean(everything(error));
    }
    const invalidCard = errors[5] as InvalidRequestError;
    expect(invalidCard.errors.map((e) => e.path)).toEqual(['card.pan']);
    expect(invalidCard.message).toContain('**** 4241');
    const echoed = errors[6] as PayError;
    expect(echoed.response?.body).toContain('**** 4242');
    expect(echoed.response?.body).toContain('"csc":"***"');
    expect(events.length).toBeGreaterThan(8);
    expectClean(everything(events));
    expect(JSON.stringify(events)).not.toContain('/push/t/'); // the one-time token is masked
  });

  it('a card push refusal that repeats the card in other spellings: grouped, JSON-escaped, the code by its key', async () => {
    const pan = CARD.pan;
    const escaped = [...pan].map((d) => `\\u003${d}`).join('');
    server.next.push((_r, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      // Written by hand: the JSON escapes must reach the client as escapes.
      res.end(
        `{"error":{"code":"bad_card","message":"card ${pan.match(/.{4}/g)!.join(' ')} refused (csc=${CARD.csc})",` +
          `"hint":"${escaped} or ${pan.match(/.{4}/g)!.join('-')}?",` +
          `"errors":[{"path":"card.csc","message":"cvv: ${CARD.csc} is wrong"}],"card":{"csc":${CARD.csc}}}}`,
      );
    });
    const error = await client()
      .payins.pushCard({ payinId: 'pi_1', url: `${server.base}/card-proxy/v1/push/t/` }, CARD)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayError);
    // An oracle of its own: JSON escapes read, digits joined across separators.
    const read = everything(error)
      .replace(/\\+u00([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/(?<=\d)[\s.+-]+(?=\d)/g, '');
    expect(read).not.toContain(pan);
    expect(read).not.toContain(pan.slice(0, 12));
    expect(read).not.toMatch(new RegExp(`(?:csc|cvv)\\W{0,4}${CARD.csc}`, 'i'));
    expect((error as PayError).message).toContain('bad_card');
  });

  it('util.inspect of an error is short and says what happened', async () => {
    server.next.push((_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html>${'x'.repeat(10_000)}</html>`);
    });
    const error = await createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, retries: 0 })
      .payins.get('pi_1')
      .catch((e: unknown) => e);
    const shown = inspect(error);
    expect(shown.split('\n')[0]).toMatch(
      /^ApiError: payins\.get: the service answered 502 \{ operation: "payins\.get", status: 502, body: "<html>x+…" \}$/,
    );
    expect(shown.split('\n')[1]).toMatch(/^\s+at /);
    expect(shown.length).toBeLessThan(2000);
  });

  it('a throwing hook changes nothing', async () => {
    const boom = () => {
      throw new Error('logger down');
    };
    const pay = createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, hooks: { onRequest: boom, onResponse: boom } });
    const created = await pay.payins.create(payinBody() as never);
    expect(created.data.status).toBe('new');
  });
});
