// One check of a create's body, whichever way it goes: the client's create refuses before sending
// exactly what the journal's enqueue refuses before recording, at the same fields. Each row goes
// through both: a client create against a loopback service that counts what reaches it (and
// refuses everything with a 400, so an accepted body is one that was sent), and an enqueue in a
// merchant's transaction (an accepted body is one recorded). PGlite only: the check comes before
// any statement, so the database it would have gone to does not matter.
import { createServer, type Server } from 'node:http';
import { createTestClock } from '@pay/clock/test-clock';
import { type Client, createClient, InvalidRequestError } from '@pay/client';
import { payinBody, payoutBody } from '@pay/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, freshSchema, openBackend } from './helpers/backends.js';
import { MERCHANT } from './helpers/shop.js';

/** One body, and what both paths must make of it: sent and recorded, or refused at these fields. */
interface Row {
  name: string;
  kind: 'payin' | 'payout';
  paymentPage?: boolean;
  body: Record<string, unknown>;
  /** The fields the check refuses, or [] for a body both accept. */
  refusedAt: string[];
}

const { redirect_urls: _, ...payoutWithoutRedirects } = payoutBody({ reference_id: 'chk-payout-page' }) as Record<string, unknown>;

const ROWS: Row[] = [
  { name: 'a valid payin', kind: 'payin', body: payinBody({ reference_id: 'chk-valid' }), refusedAt: [] },
  {
    name: 'a plain-http webhook_url on a host listed in allowHttpHosts',
    kind: 'payin',
    body: payinBody({ reference_id: 'chk-listed-http', webhook_url: 'http://shop:8080/pay/hooks' }),
    refusedAt: [],
  },
  {
    name: 'a plain-http webhook_url on a host not listed',
    kind: 'payin',
    body: payinBody({ reference_id: 'chk-other-http', webhook_url: 'http://elsewhere.invalid/pay/hooks' }),
    refusedAt: ['webhook_url'],
  },
  {
    name: 'a reference_id with a lone surrogate',
    kind: 'payin',
    body: payinBody({ reference_id: 'chk-\uD800-lone' }),
    refusedAt: ['reference_id'],
  },
  {
    name: 'an amount below zero',
    kind: 'payin',
    body: payinBody({ reference_id: 'chk-negative', payment: { amount: '-5', currency: 'EUR' } }),
    refusedAt: ['payment.amount'],
  },
  { name: 'a valid payout', kind: 'payout', body: payoutBody({ reference_id: 'chk-payout' }), refusedAt: [] },
  {
    name: 'a payout to the payment page without redirect_urls',
    kind: 'payout',
    paymentPage: true,
    body: payoutWithoutRedirects,
    refusedAt: ['redirect_urls'],
  },
];

let service: Server;
let sent: string[];
let client: Client;
let backend: Backend;
let journal: Journal;
let schema: string;

beforeAll(async () => {
  sent = [];
  service = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      sent.push(`${req.method} ${req.url}`);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'invalid_request', message: 'every create is refused here' } }));
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const { port } = service.address() as { port: number };
  client = createClient({
    baseUrl: `http://127.0.0.1:${port}`,
    merchantId: MERCHANT.id,
    secret: MERCHANT.secret,
    allowHttpHosts: ['shop'],
  });
  backend = await openBackend('pglite', 'create-check');
  schema = freshSchema();
  // A test clock that never moves: nothing enqueued is sent in the background.
  journal = await openJournal({ client, database: backend.database, schema, clock: createTestClock() });
});

afterAll(async () => {
  await journal?.close();
  await backend?.close();
  await new Promise((resolve) => service?.close(resolve));
});

/** The fields a refusal names, or [] when the call went on (whatever came of it after). */
const refusedFields = (outcome: unknown): string[] => (outcome instanceof InvalidRequestError ? outcome.errors.map((e) => e.path) : []);

const recordedIntents = async (): Promise<number> =>
  Number((await journal.transaction((q) => q(`SELECT count(*)::int AS n FROM "${schema}".pay_intents`)))[0]?.['n']);

describe.each(ROWS)('$name', (row) => {
  it('the client refuses it before sending exactly when the journal refuses it before recording, at the same fields', async () => {
    const sentBefore = sent.length;
    const created = await (row.kind === 'payin'
      ? client.payins.create(row.body as never)
      : row.paymentPage === true
        ? client.payouts.create(row.body as never, { paymentPage: true })
        : client.payouts.create(row.body as never)
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusedFields(created)).toEqual(row.refusedAt);
    // Refused: nothing reached the service. Accepted: the create was sent (and the service's 400 came back).
    expect(sent.length - sentBefore).toBe(row.refusedAt.length > 0 ? 0 : 1);
    if (row.refusedAt.length === 0) expect(created).not.toBeInstanceOf(InvalidRequestError);

    const recordedBefore = await recordedIntents();
    const enqueued = await journal
      .transaction((query) =>
        row.kind === 'payin'
          ? journal.payins.enqueue(query, row.body as never)
          : journal.payouts.enqueue(query, row.body as never, { paymentPage: row.paymentPage === true }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusedFields(enqueued)).toEqual(row.refusedAt);
    if (row.refusedAt.length === 0) expect(enqueued).toBeUndefined();
    expect((await recordedIntents()) - recordedBefore).toBe(row.refusedAt.length > 0 ? 0 : 1);
    expect(sent.length - sentBefore).toBe(row.refusedAt.length > 0 ? 0 : 1); // an enqueue sends nothing
  });
});

// A copy of @pay/client older than `check` would let the journal keep a body the client refuses at the send.
it('refuses a client that cannot check a create, naming what is missing', async () => {
  const { check: _, ...payins } = client.payins;
  const older = { ...client, payins } as unknown as Client;
  await expect(openJournal({ client: older, database: backend.database, schema: freshSchema() })).rejects.toThrow(
    /client\.payins\.check is missing/,
  );
});
