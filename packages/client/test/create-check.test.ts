// `payins.check` and `payouts.check` against `create` on the same bodies: check throws exactly
// the InvalidRequestError create throws before sending (same operation, same fields), sends
// nothing itself, and passes exactly the bodies create sends (to the test service, which answers
// each create with its in-memory record).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient, InvalidRequestError } from '../src/index.js';
import { MERCHANT, payinBody, payoutBody, SECRET, startServer, type TestServer } from './helpers/server.js';

interface Row {
  name: string;
  kind: 'payin' | 'payout';
  paymentPage?: boolean;
  body: unknown;
}

const { redirect_urls: _, ...payoutWithoutRedirects } = payoutBody({ reference_id: 'cc-page' });

const ROWS: Row[] = [
  { name: 'a valid payin', kind: 'payin', body: payinBody({ reference_id: 'cc-valid' }) },
  { name: 'a payin without reference_id (create gives it one)', kind: 'payin', body: payinBody() },
  {
    name: 'plain-http webhook_url on a listed host',
    kind: 'payin',
    body: payinBody({ reference_id: 'cc-h1', webhook_url: 'http://shop:8080/h' }),
  },
  {
    name: 'plain-http webhook_url on another host',
    kind: 'payin',
    body: payinBody({ reference_id: 'cc-h2', webhook_url: 'http://other.invalid/h' }),
  },
  { name: 'a lone surrogate in reference_id', kind: 'payin', body: payinBody({ reference_id: 'cc-\uDC00' }) },
  { name: 'two fields wrong at once', kind: 'payin', body: payinBody({ reference_id: '', payment: { amount: '0', currency: 'EUR' } }) },
  { name: 'a body that is not an object', kind: 'payin', body: ['not', 'a', 'body'] },
  { name: 'a bigint JSON cannot write', kind: 'payin', body: payinBody({ reference_id: 'cc-big', extra: 1n }) },
  { name: 'a valid payout', kind: 'payout', body: payoutBody({ reference_id: 'cc-payout' }) },
  { name: 'a payment-page payout without redirect_urls', kind: 'payout', paymentPage: true, body: payoutWithoutRedirects },
];

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  client = createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, allowHttpHosts: ['shop'] });
});
afterAll(() => server?.close());

const outcome = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
    return 'passed';
  } catch (error) {
    return error;
  }
};

/** What a refusal says: its class, operation and every field with its message; or 'passed'. */
const said = (result: unknown) =>
  result instanceof InvalidRequestError
    ? { operation: result.operation, errors: result.errors }
    : result === 'passed'
      ? result
      : String(result);

describe.each(ROWS)('$name', (row) => {
  it('check refuses what create refuses before sending, with the same error, and sends nothing', async () => {
    const before = server.received.length;
    const checked = await outcome(() =>
      row.kind === 'payin'
        ? client.payins.check(row.body as never)
        : client.payouts.check(row.body as never, { paymentPage: row.paymentPage === true }),
    );
    expect(server.received.length).toBe(before);
    const created = await outcome(() =>
      row.kind === 'payin'
        ? client.payins.create(row.body as never)
        : row.paymentPage === true
          ? client.payouts.create(row.body as never, { paymentPage: true })
          : client.payouts.create(row.body as never),
    );
    const sent = server.received.length - before;
    expect(said(checked)).toEqual(said(created));
    // The body check passed exactly when the create went out.
    expect(sent).toBe(checked === 'passed' ? 1 : 0);
  });
});
