// The shop over real HTTP against a real sandbox, no browser, its orders in an in-memory PGlite:
// the card checkout, the payout form, expiry, lost create answers, and what the shop refuses
// (cross-site posts, forged and unknown webhooks, late ones, markup in names).
import { createClient } from '@pay/client';
import { DEMO_MERCHANT, TEST_CARDS as SANDBOX_CARDS } from '@pay/sandbox';
import { EXAMPLES } from '@pay/schema';
import { createTestWebhook } from '@pay/webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../src/catalog.js';
import { ConfigError, DEMO_CREDENTIALS, readConfig } from '../src/config.js';
import { advanceClock, deliveries, handled, postForm, referenceIn, startBoth, transactions, waitFor, type Running } from './helpers.js';

let run: Running;
beforeAll(async () => {
  run = await startBoth();
});
afterAll(() => run?.close());

const text = async (path: string) => {
  const response = await fetch(`${run.shop.url}${path}`);
  return { status: response.status, body: await response.text() };
};

describe('card checkout', () => {
  it('an approved card: the payin is created with method card, the card pushed server-side, the webhook marks the order paid', async () => {
    const response = await postForm(run.shop, '/checkout/card', { product: 'tee', card: 'visa-ok' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/^\/orders\/order-[0-9a-f]{16}\/success$/);
    const reference = referenceIn(location);

    const order = await waitFor('the order to be paid', async () => {
      const now = await run.shop.orders.get(reference);
      return now?.status === 'paid' && now;
    });
    expect(order).toMatchObject({ kind: 'card', amount: '24.00', currency: 'EUR', cardLast4: '4242' });
    expect(handled(run.log, reference, 'executed', 'webhook')).toBe(1);
    expect(handled(run.log, reference, 'new')).toBe(1);
    // The journal's record: `new` from the create's answer or its webhook (whichever was recorded
    // first; the other was a duplicate), then `executed` from the webhook.
    const events = (await run.shop.orders.events(order)).map((e) => [e.status, e.source, e.outcome]);
    expect(events).toEqual([
      ['new', expect.stringMatching(/^(create|webhook)$/), 'change'],
      ['executed', 'webhook', 'change'],
    ]);

    // The sandbox saw a card payin with the right amount; its webhooks reached the shop's endpoint.
    const all = (await (await fetch(`${run.sandbox.url}/_sandbox/transactions`)).json()) as Record<string, unknown>[];
    expect(all.find((t) => t['id'] === order.transactionId)).toMatchObject({
      reference_id: reference,
      status: 'executed',
      card_last4: '4242',
      payment: { amount: 24, currency: 'EUR' },
    });
    const sent = await waitFor('both deliveries answered', async () => {
      const log = await deliveries(run.sandbox, order.transactionId!);
      return log.length === 2 && log.every((d) => d.response_status !== null) && log;
    });
    expect(sent.map((d) => [d.status, d.attempt, d.response_status, d.url])).toEqual([
      ['new', 1, 200, run.shop.webhookUrl],
      ['executed', 1, 200, run.shop.webhookUrl],
    ]);

    const page = await text(location);
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-status="paid"');
    expect(page.body).toContain('ending 4242');
    expect(page.body).not.toContain('4242424242424242');
    // Times as the sandbox's pages write them, never raw ISO text, each naming its clock: the order
    // stamped by the database (the wall clock), the events by the journal (here on the wall clock too).
    expect(page.body).not.toMatch(/>\d{4}-\d\d-\d\dT/);
    const times = [...page.body.matchAll(/<time datetime="([^"]+)" title="[^"]+" data-clock="(\w+)">([^<]+)<\/time>/g)];
    expect(times).toHaveLength(3); // ordered, and the two events
    for (const [, iso, clock, shown] of times) {
      expect(shown).toBe(`${iso!.slice(0, 10)} ${iso!.slice(11, 19)} UTC`);
      expect(clock).toBe('wall');
    }
    expect(page.body).toContain('<th>Ordered <small class="clock">wall clock</small></th>');
    expect(page.body).toContain('<th>Recorded <small class="clock">wall clock</small></th>');
  });

  it('a declined card: the fail page, the reason from the push answer, the order failed by its webhook', async () => {
    const response = await postForm(run.shop, '/checkout/card', { product: 'mug', card: 'visa-declined' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/\/fail$/);
    const reference = referenceIn(location);
    await waitFor('the order to fail', async () => (await run.shop.orders.get(reference))?.status === 'failed');
    const page = await text(location);
    expect(page.body).toContain('data-status="failed"');
    expect(page.body).toContain('The card was declined.');
    expect(handled(run.log, reference, 'failed', 'webhook')).toBe(1);
  });

  it('the shop pages never show the secret or a full card number, only names and last four digits', async () => {
    const pages = [await text('/'), await text('/orders'), await text('/payouts/new')];
    for (const { status, body } of pages) {
      expect(status).toBe(200);
      expect(body).not.toContain(DEMO_MERCHANT.secret);
      for (const card of TEST_CARDS) expect(body).not.toContain(card.pan);
    }
    for (const card of TEST_CARDS) expect(pages[0]!.body).toContain(`<option value="${card.id}">${card.label}</option>`);
    expect(run.log.join('\n')).not.toContain(DEMO_MERCHANT.secret);
    for (const card of TEST_CARDS) expect(run.log.join('\n')).not.toContain(card.pan);
  });

  it("its test cards do what their labels say, by the sandbox's own table", () => {
    for (const card of TEST_CARDS) {
      const outcome = SANDBOX_CARDS.find((c) => c.pan === card.pan);
      expect(outcome, card.id).toBeDefined();
      expect(card.label.endsWith('(approved)'), card.id).toBe(outcome!.status === 'executed');
    }
  });

  it('an unknown product or card is refused and creates nothing', async () => {
    const before = (await run.shop.orders.list()).length;
    expect((await postForm(run.shop, '/checkout/card', { product: 'tee', card: 'no-such-card' })).status).toBe(400);
    expect((await postForm(run.shop, '/checkout', { product: 'nothing' })).status).toBe(400);
    expect(await run.shop.orders.list()).toHaveLength(before);
  });
});

describe('payouts', () => {
  it('the form creates a payout; the sandbox executes it and its webhook marks it paid out; names are escaped', async () => {
    const name = '<script>alert(1)</script>';
    const response = await postForm(run.shop, '/payouts', {
      first_name: name,
      last_name: 'Roe "&" Co',
      email: 'sam@shop.example',
      country_code: '+33',
      phone: '612345678',
      amount: '25.50',
      currency: 'EUR',
    });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/^\/orders\/payout-[0-9a-f]{16}$/);
    const reference = referenceIn(location);
    const order = (await run.shop.orders.get(reference))!;
    expect(order).toMatchObject({ status: 'pending', kind: 'payout', amount: '25.50' });
    expect(order.transactionId).toMatch(/^po_/);
    const pending = (await text(location)).body;
    expect(pending).toContain('Payout pending');
    // The page says when the sandbox executes it: 60 s after its creation (the sandbox's own time is a little later).
    const due = Date.parse(/id="payout-due"[\s\S]*?<time datetime="([^"]+)"/.exec(pending)![1]!);
    const record = (await transactions(run.sandbox)).find((t) => t.id === order.transactionId) as unknown as { created_at: string };
    const created = Date.parse(`${record.created_at}Z`);
    expect(Math.abs(due - (created + 60_000))).toBeLessThan(30_000); // a bound a loaded machine keeps, far from 0 or 30 min
    expect(pending).toContain('The sandbox executes one nobody declines 60 s after its creation: about <time');

    // The sandbox executes a payout 60 s after creation, on its schedule clock.
    await advanceClock(run.sandbox, 60);
    await waitFor('the payout to be paid out', async () => (await run.shop.orders.get(reference))?.status === 'paid');
    const log = await deliveries(run.sandbox, order.transactionId!);
    expect(log.filter((d) => d.status === 'executed').map((d) => d.response_status)).toEqual([200]);

    expect((await text(location)).body).not.toContain('id="payout-due"');
    for (const path of [location, '/orders']) {
      const page = await text(path);
      expect(page.body).toContain('Paid out');
      expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Roe &quot;&amp;&quot; Co');
      expect(page.body).not.toContain('<script');
    }
  });

  it('fields the schema refuses are shown next to the form, escaped, and nothing is saved or created', async () => {
    const before = (await run.shop.orders.list()).length;
    const sent = (await transactions(run.sandbox)).length;
    const response = await postForm(run.shop, '/payouts', {
      first_name: 'S',
      last_name: 'Roe',
      email: 'x',
      country_code: '+33',
      phone: '612345678',
      amount: '<b>12,50</b>',
      currency: 'EUR',
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    for (const path of ['customer.first_name', 'customer.email', 'payment.amount']) expect(body).toContain(`data-path="${path}"`);
    expect(body).toContain('value="&lt;b&gt;12,50&lt;/b&gt;"');
    expect(body).not.toContain('<b>');
    expect(await run.shop.orders.list()).toHaveLength(before);
    expect(await transactions(run.sandbox)).toHaveLength(sent);
  });
});

describe('the hosted-page checkout without the customer', () => {
  it("creates a v2 payin with the shop's redirect and webhook URLs; unpaid, it expires after 30 min and the webhook says so", async () => {
    const response = await postForm(run.shop, '/checkout', { product: 'poster' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${run.sandbox.url}/_sandbox/pay/pi_`));
    const id = location.split('/').pop()!;
    const [order] = (await run.shop.orders.list()).filter((o) => o.transactionId === id);
    expect(order).toMatchObject({ kind: 'payin', amount: '39.90', status: 'pending' });

    // What the sandbox stored is what the shop asked for.
    const payin = await fetch(location);
    expect(await payin.text()).toContain(order!.reference);

    await advanceClock(run.sandbox, 30 * 60);
    await waitFor('the order to expire', async () => (await run.shop.orders.get(order!.reference))?.status === 'expired');
    expect((await text(`/orders/${order!.reference}`)).body).toContain('data-status="expired"');
  });
});

describe('pages waiting for the payments service', () => {
  const refreshOf = (body: string) => /<meta http-equiv="refresh" content="([^"]*)">/.exec(body)?.[1];

  it('reload every second at first, then less and less often, and stop after a bound, saying how to check again', async () => {
    const response = await postForm(run.shop, '/checkout', { product: 'poster' });
    const id = response.headers.get('location')!.split('/').pop()!;
    const [order] = (await run.shop.orders.list()).filter((o) => o.transactionId === id);
    const path = `/orders/${order!.reference}`;
    const waits: (string | undefined)[] = [];
    for (const reloads of [0, 19, 20, 29, 30, 41, 42, 49, 50, 59]) waits.push(refreshOf((await text(`${path}?reloads=${reloads}`)).body));
    expect(waits).toEqual([
      `1; url=${path}?reloads=1`,
      `1; url=${path}?reloads=20`,
      `2; url=${path}?reloads=21`,
      `2; url=${path}?reloads=30`,
      `5; url=${path}?reloads=31`,
      `5; url=${path}?reloads=42`,
      `15; url=${path}?reloads=43`,
      `15; url=${path}?reloads=50`,
      `30; url=${path}?reloads=51`,
      `30; url=${path}?reloads=60`,
    ]);
    // The customer back from the payment page keeps the page they landed on.
    expect(refreshOf((await text(`${path}/success`)).body)).toBe(`1; url=${path}/success?reloads=1`);
    // After 60 reloads (20 + 20 + 60 + 120 + 300 s, about 9 minutes): no more, and a sentence and a link instead.
    const stopped = (await text(`${path}?reloads=60`)).body;
    expect(refreshOf(stopped)).toBeUndefined();
    expect(stopped).toContain(
      `<p id="stopped">Still waiting for the payments service after about 9 minutes: this page no longer reloads by itself. <a href="${path}">Reload it</a> to check again.</p>`,
    );
    // A count that is not one starts over; the list of orders waits the same way.
    expect(refreshOf((await text(`${path}?reloads=-1`)).body)).toBe(`1; url=${path}?reloads=1`);
    expect(refreshOf((await text('/orders?reloads=25')).body)).toBe('2; url=/orders?reloads=26');
    expect((await text('/orders?reloads=60')).body).toContain('<p id="stopped">');
    // Settled, it neither reloads nor says it stopped.
    await advanceClock(run.sandbox, 30 * 60);
    await waitFor('the order to expire', async () => (await run.shop.orders.get(order!.reference))?.status === 'expired');
    for (const query of ['', '?reloads=60']) {
      const page = (await text(`${path}${query}`)).body;
      expect(refreshOf(page)).toBeUndefined();
      expect(page).not.toContain('id="stopped"');
    }
  });
});

describe('a create whose answer is lost', () => {
  // A sandbox with a 3 s tolerance and a client told so: the client can prove a lost create was
  // never made 4 s after sending, instead of 71 s. Each create has 3 s: room for a lookup on a
  // loaded machine, too little to prove a create was never made, so that one stays unknown.
  let lossy: Running;
  beforeAll(async () => {
    lossy = await startBoth({
      toleranceSeconds: 3,
      client: { toleranceSeconds: 3, settleSeconds: 1, totalTimeoutMs: 3_000 },
      // Each reconciler pass starts with recover(): it decides the lost create once it can.
      reconcileEveryMs: 500,
    });
  });
  afterAll(() => lossy?.close());
  const fault = (kind: string) =>
    fetch(`${lossy.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind, count: 1 }),
    });

  it('not committed, and no time to prove it: the order is kept as being confirmed, then recovery proves the send never arrived and sends it again, once', async () => {
    expect((await fault('drop_before_commit')).status).toBe(200);
    const response = await postForm(lossy.shop, '/checkout', { product: 'mug' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/^\/orders\/order-[0-9a-f]{16}$/);
    const reference = referenceIn(location);
    expect((await lossy.shop.orders.get(reference))!.status).toBe('unknown');
    expect(await (await fetch(`${lossy.shop.url}${location}`)).text()).toContain('Being confirmed');
    expect(lossy.log).toContain(`${reference}: outcome unknown (OutcomeUnknownError); the journal looks it up by its reference`);

    // The order was committed with its payin: the journal owes the service that payin. Proven
    // never to have arrived, it is queued again and sent by the reconciler's recover().
    const settled = await waitFor(
      'recovery to send the order again',
      async () => {
        const order = await lossy.shop.orders.get(reference);
        return order?.status === 'pending' && order;
      },
      30_000,
    );
    const all = (await (await fetch(`${lossy.sandbox.url}/_sandbox/transactions`)).json()) as { id: string; reference_id: string }[];
    const mine = all.filter((t) => t.reference_id === reference);
    expect(mine).toHaveLength(1);
    expect(settled.transactionId).toBe(mine[0]!.id);
    expect(handled(lossy.log, reference, 'new')).toBe(1);
  });

  it('committed: the client finds it by its reference; the order keeps the payin and the customer is told to try again', async () => {
    const references = async () =>
      (await (await fetch(`${lossy.sandbox.url}/_sandbox/transactions`)).json()) as { id: string; reference_id: string }[];
    const before = new Set((await references()).map((t) => t.reference_id));
    expect((await fault('drop_after_commit')).status).toBe(200);
    const response = await postForm(lossy.shop, '/checkout', { product: 'tee' });
    expect(response.status).toBe(502);
    expect(await response.text()).toContain('Your order is saved but the payment page could not be opened.');
    const mine = (await references()).filter((t) => !before.has(t.reference_id));
    expect(mine).toHaveLength(1);
    expect(await lossy.shop.orders.get(mine[0]!.reference_id)).toMatchObject({ transactionId: mine[0]!.id, status: 'pending' });
    // Once, from the create's answer or from the webhook, whichever was recorded first.
    expect(handled(lossy.log, mine[0]!.reference_id, 'new')).toBe(1);
  });
});

describe('what the shop refuses', () => {
  it('form posts from another site or with no origin (CSRF): 403, nothing created', async () => {
    const before = (await run.shop.orders.list()).length;
    expect((await postForm(run.shop, '/checkout', { product: 'mug' }, { origin: 'https://evil.example' })).status).toBe(403);
    const bare = await fetch(`${run.shop.url}/payouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'first_name=Sam&last_name=Roe&email=sam%40shop.example&amount=5&currency=EUR&country_code=%2B33&phone=612345678',
    });
    expect(bare.status).toBe(403);
    expect(await run.shop.orders.list()).toHaveLength(before);
  });

  it('a webhook not signed with the merchant secret: 401, the order unchanged; a signed one the service does not know: 500, nothing recorded', async () => {
    const [order] = (await run.shop.orders.list()).filter((o) => o.status === 'paid');
    const forged = createTestWebhook({
      merchantId: DEMO_MERCHANT.id,
      secret: 'sk_not_the_secret',
      url: run.shop.webhookUrl,
      payload: { id: order!.transactionId!, reference_id: order!.reference, status: 'failed' },
    });
    expect((await fetch(forged.request)).status).toBe(401);
    expect((await run.shop.orders.get(order!.reference))!.status).toBe('paid');

    // Neither the journal nor the service knows pi_other: the journal cannot tell payin from
    // payout, so it answers 500 and the service (were it real) would retry.
    const stranger = createTestWebhook({
      ...DEMO_CREDENTIALS,
      url: run.shop.webhookUrl,
      payload: { id: 'pi_other', reference_id: 'order-elsewhere', status: 'executed' },
    });
    expect((await fetch(stranger.request)).status).toBe(500);
    expect(await run.shop.orders.get('order-elsewhere')).toBeUndefined();
    expect(handled(run.log, 'order-elsewhere', 'executed')).toBe(0);
    expect(run.log.filter((l) => l.startsWith('webhook answered 500 (handler_failed)'))).toHaveLength(1);
  });

  it("a payin made outside the shop with the shop's webhook URL: recorded by the journal, acknowledged, no order moved", async () => {
    const before = await run.shop.orders.list();
    const elsewhere = createClient({ baseUrl: run.sandbox.url, ...DEMO_CREDENTIALS });
    const { data } = await elsewhere.payins.create({
      ...EXAMPLES.createPayin,
      reference_id: 'made-elsewhere-1',
      webhook_url: run.shop.webhookUrl,
      payment: { amount: '5.00', currency: 'EUR' },
    });
    await waitFor('its webhook answered', async () => (await deliveries(run.sandbox, data.id)).at(0)?.response_status === 200);
    expect(run.log).toContain('made-elsewhere-1: new from webhook -> no order of this shop');
    expect(await run.shop.orders.list()).toEqual(before);
  });

  it('a late webhook cannot move a settled order: the journal records it as stale and the order page says so', async () => {
    const [order] = (await run.shop.orders.list()).filter((o) => o.status === 'paid' && o.kind === 'card');
    const late = createTestWebhook({
      ...DEMO_CREDENTIALS,
      url: run.shop.webhookUrl,
      payload: { id: order!.transactionId!, reference_id: order!.reference, status: 'expired' },
    });
    expect((await fetch(late.request)).status).toBe(200);
    expect((await run.shop.orders.get(order!.reference))!.status).toBe('paid');
    expect(handled(run.log, order!.reference, 'expired')).toBe(0);
    expect(run.log).toContain(`${order!.reference}: expired from webhook (too late: a settled status stays)`);
    expect((await run.shop.orders.events(order!)).at(-1)).toMatchObject({ status: 'expired', source: 'webhook', outcome: 'stale' });
    expect((await text(`/orders/${order!.reference}`)).body).toContain(
      '<td data-label="Status">expired</td><td data-label="Learnt from">a webhook</td><td>ignored: it arrived after a settled status</td>',
    );
  });

  it('an unknown order, named with markup: 404, escaped', async () => {
    const page = await text(`/orders/${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(page.status).toBe(404);
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img');
  });

  it('the test control is not there unless asked for', async () => {
    const response = await fetch(`${run.shop.url}/_test/webhook-failures`, { method: 'POST', body: '{"count":2}' });
    expect(response.status).toBe(404);
  });

  it('pages carry a content security policy that allows no script', async () => {
    const response = await fetch(`${run.shop.url}/`);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('configuration', () => {
  it('defaults to the sandbox and its demo merchant', () => {
    expect(DEMO_CREDENTIALS).toEqual({ merchantId: DEMO_MERCHANT.id, secret: DEMO_MERCHANT.secret });
    expect(readConfig({})).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      cardProxyUrl: 'http://127.0.0.1:4010/card-proxy',
      allowHttpHosts: [],
      merchantId: 'm_demo',
      secret: 'sk_sandbox_demo',
      port: 3000,
      host: '127.0.0.1',
      testControls: false,
      database: { memory: true },
      sandboxClock: false,
    });
    expect(readConfig({ SHOP_DATA_DIR: ' /var/lib/shop ', SHOP_SANDBOX_CLOCK: '1' })).toMatchObject({
      database: { dataDir: '/var/lib/shop' },
      sandboxClock: true,
    });
    expect(readConfig({ DATABASE_URL: 'postgresql://shop:pw@db.internal/shop' }).database).toEqual({
      url: 'postgresql://shop:pw@db.internal/shop',
    });
    expect(
      readConfig({
        PAY_BASE_URL: 'https://pay.example/',
        PAY_SECRET: ' sk_live_x\n',
        SHOP_PUBLIC_URL: 'https://shop.example',
        SHOP_PORT: '0',
      }),
    ).toMatchObject({
      baseUrl: 'https://pay.example',
      cardProxyUrl: 'https://pay.example/card-proxy',
      secret: 'sk_live_x',
      publicUrl: 'https://shop.example',
      port: 0,
    });
  });

  it("PAY_ALLOW_HTTP_HOSTS: comma-separated host names for the client's allowHttpHosts, white space and empty entries ignored", () => {
    expect(readConfig({ PAY_ALLOW_HTTP_HOSTS: 'sandbox' }).allowHttpHosts).toEqual(['sandbox']);
    expect(readConfig({ PAY_ALLOW_HTTP_HOSTS: ' sandbox , Cards.internal,,[fd00::1], ' }).allowHttpHosts).toEqual([
      'sandbox',
      'Cards.internal',
      '[fd00::1]',
    ]);
    expect(readConfig({ PAY_ALLOW_HTTP_HOSTS: ' ' }).allowHttpHosts).toEqual([]);
  });

  it.each([
    [{ PAY_BASE_URL: 'pay.example' }, 'PAY_BASE_URL must be an absolute http(s) URL'],
    [{ PAY_CARD_PROXY_URL: 'ftp://x' }, 'PAY_CARD_PROXY_URL must be an absolute http(s) URL'],
    [{ SHOP_PUBLIC_URL: 'https://shop.example/?a=1' }, 'SHOP_PUBLIC_URL must have no query or fragment'],
    [{ SHOP_PORT: '70000' }, 'SHOP_PORT must be a number from 0 to 65535'],
    [{ SHOP_PORT: '-1' }, 'SHOP_PORT must be a number from 0 to 65535'],
    [{ SHOP_TEST_CONTROLS: 'yes' }, 'SHOP_TEST_CONTROLS must be 0 or 1'],
    [{ SHOP_SANDBOX_CLOCK: 'true' }, 'SHOP_SANDBOX_CLOCK must be 0 or 1'],
    [{ DATABASE_URL: 'mysql://shop:s3cret@db/shop' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [
      { DATABASE_URL: 'postgres://shop:s3cret@db/shop', SHOP_DATA_DIR: '/var/lib/shop' },
      'set DATABASE_URL (PostgreSQL) or SHOP_DATA_DIR (the embedded PGlite), not both',
    ],
    [
      { PAY_ALLOW_HTTP_HOSTS: 'sandbox:4010' },
      'PAY_ALLOW_HTTP_HOSTS must be host names separated by commas, without scheme or port (such as sandbox); got "sandbox:4010"',
    ],
    [
      { PAY_ALLOW_HTTP_HOSTS: 'sandbox,http://cards' },
      'PAY_ALLOW_HTTP_HOSTS must be host names separated by commas, without scheme or port (such as sandbox); got "http://cards"',
    ],
    [
      { PAY_ALLOW_HTTP_HOSTS: '*.internal' },
      'PAY_ALLOW_HTTP_HOSTS must be host names separated by commas, without scheme or port (such as sandbox); got "*.internal"',
    ],
    [
      { PAY_ALLOW_HTTP_HOSTS: 'sandbox cards' },
      'PAY_ALLOW_HTTP_HOSTS must be host names separated by commas, without scheme or port (such as sandbox); got "sandbox cards"',
    ],
  ])('%o is refused: %s', (env, message) => {
    expect(() => readConfig(env)).toThrow(new ConfigError(message));
  });
});
