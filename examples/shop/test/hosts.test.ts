// The names the shop answers to, over real HTTP against the real shop and sandbox: a page whose
// name was rebound to 127.0.0.1 (DNS rebinding) gets nothing, not even the product page, and
// cannot create a payout; the loopback names and the configured public URL keep working. Then the
// payments service reached by name over plain http (PAY_ALLOW_HTTP_HOSTS, as in docker-compose).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, referenceIn, send, sendRaw, startBoth, transactions, withHostsEntry, type Running } from './helpers.js';

// What the security review's rebound page posted.
const PAYOUT = {
  first_name: 'Eve',
  last_name: 'Rebind',
  email: 'eve@rebind.example',
  country_code: '+33',
  phone: '612345678',
  amount: '777.00',
  currency: 'EUR',
};

let run: Running;
let port: string;
beforeAll(async () => {
  run = await startBoth();
  port = new URL(run.shop.url).port;
});
afterAll(() => run?.close());

/** Payouts (shop orders and sandbox transactions) now, to compare after a refused post. */
const payouts = async (r: Running) => ({
  orders: (await r.shop.orders.list()).filter((o) => o.kind === 'payout').length,
  transactions: (await transactions(r.sandbox)).length,
});

describe('a page whose name was rebound to this machine (DNS rebinding)', () => {
  it('its Host is refused on every route with 421 and a plain message naming the Host header', async () => {
    const rebound = `rebind.example:${port}`;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/orders'],
      ['GET', '/payouts/new'],
      ['GET', '/no-such-page'],
      ['POST', '/webhooks/pay'],
    ] as const) {
      const answer = await send(run.shop, path, { method, headers: { host: rebound } });
      expect(answer.status, `${method} ${path}`).toBe(421);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      expect(answer.body).toBe(
        `Misdirected Request: the Host header is not one of this shop's names (localhost, 127.0.0.1 and [::1] on port ${port}, and 127.0.0.1:${port} (its public address, SHOP_PUBLIC_URL))`,
      );
    }
  });

  it('the payout form posted as the rebound page posts it (its Host, its Origin, Sec-Fetch-Site: same-origin): 421, no payout anywhere', async () => {
    const before = await payouts(run);
    const answer = await send(run.shop, '/payouts', {
      form: PAYOUT,
      headers: { host: `rebind.example:${port}`, origin: `http://rebind.example:${port}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(answer.status).toBe(421);
    expect(await payouts(run)).toEqual(before);
  });

  it('a rebound Origin with a loopback Host is refused (403), whatever Sec-Fetch-Site says; so are an opaque and a missing Origin', async () => {
    const before = await payouts(run);
    for (const origin of [
      `http://rebind.example:${port}`,
      'null',
      `http://127.0.0.1:${port}/payouts`,
      `https://127.0.0.1:${port}`,
      `http://localhost:1`,
      undefined,
    ]) {
      const headers: Record<string, string> = {
        host: `127.0.0.1:${port}`,
        'sec-fetch-site': 'same-origin',
        ...(origin === undefined ? {} : { origin }),
      };
      const answer = await send(run.shop, '/payouts', { form: PAYOUT, headers });
      expect(answer.status, `Origin ${origin}`).toBe(403);
      expect(answer.body).toBe("Forbidden: the Origin header is not one of this shop's addresses");
    }
    expect(await payouts(run)).toEqual(before);
  });

  it("a loopback name on another port, or one written in a form browsers do not send, is not one of the shop's names", async () => {
    for (const host of [
      'localhost:1',
      '127.0.0.1',
      `127.1:${port}`,
      `0x7f.0.0.1:${port}`,
      `128.0.0.1:${port}`,
      `127.0.0.256:${port}`,
      `localhost.rebind.example:${port}`,
      `[::2]:${port}`,
    ]) {
      expect((await send(run.shop, '/', { headers: { host } })).status, host).toBe(421);
    }
  });

  it('a request in absolute form is judged by both its target and its Host header', async () => {
    const target = (host: string, authority: string) => `GET http://${authority}/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    expect(await sendRaw(run.shop, target(`rebind.example:${port}`, `127.0.0.1:${port}`))).toMatch(/^HTTP\/1\.1 421 /);
    expect(await sendRaw(run.shop, target(`127.0.0.1:${port}`, `rebind.example:${port}`))).toMatch(/^HTTP\/1\.1 421 /);
    expect(await sendRaw(run.shop, target(`127.0.0.1:${port}`, `localhost:${port}`))).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a request with no Host header (HTTP/1.0) is refused with 400, a form post included, and creates nothing', async () => {
    const before = await payouts(run);
    // In origin form the HTTP adapter refuses it before the app runs (it cannot build the URL).
    expect(await sendRaw(run.shop, 'GET / HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    // In absolute form the adapter has a URL; the shop refuses it for want of a Host header.
    const form = new URLSearchParams(PAYOUT).toString();
    const post = await sendRaw(
      run.shop,
      `POST http://127.0.0.1:${port}/payouts HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
    );
    expect(post).toMatch(/^HTTP\/1\.1 400 /);
    expect(post).toMatch(/\r\n\r\nBad Request: the request has no Host header$/);
    expect(await payouts(run)).toEqual(before);
  });
});

describe("the shop's own names keep working", () => {
  it("localhost, 127.0.0.1, the rest of 127.0.0.0/8 and [::1], on the shop's port, serve the pages", async () => {
    for (const host of [`localhost:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`, `127.3.2.1:${port}`, `[::1]:${port}`]) {
      const answer = await send(run.shop, '/', { headers: { host } });
      expect(answer.status, host).toBe(200);
      expect(answer.body).toContain('data-action="pay"');
    }
  });

  it("a payout posted from the shop's page under localhost is created (and from 127.0.0.1 under another loopback name)", async () => {
    const before = await payouts(run);
    for (const [host, origin] of [
      [`localhost:${port}`, `http://localhost:${port}`],
      [`localhost:${port}`, `http://127.0.0.1:${port}`],
    ] as const) {
      const answer = await send(run.shop, '/payouts', {
        form: { ...PAYOUT, first_name: 'Sam', amount: '5.00' },
        headers: { host, origin },
      });
      expect(answer.status, `${host} ${origin}`).toBe(303);
      const reference = referenceIn(answer.headers.location!);
      expect((await transactions(run.sandbox)).find((t) => t.reference_id === reference)).toMatchObject({
        payment: { amount: 5, currency: 'EUR' },
      });
    }
    expect(await payouts(run)).toEqual({ orders: before.orders + 2, transactions: before.transactions + 2 });
  });
});

// Its public name is under .invalid: the payouts it creates send webhooks there, which the
// sandbox fails without a lookup (no test leaves loopback, not even with a DNS query).
describe('a shop with a public URL (SHOP_PUBLIC_URL=https://shop.invalid)', () => {
  let proxied: Running;
  let shopPort: string;
  beforeAll(async () => {
    proxied = await startBoth({ env: () => ({ SHOP_PUBLIC_URL: 'https://shop.invalid' }) });
    shopPort = new URL(proxied.shop.url).port;
  });
  afterAll(() => proxied?.close());

  it('answers under its public host (as a TLS proxy in front forwards it) and under loopback names; others are refused', async () => {
    for (const host of ['shop.invalid', 'SHOP.invalid:443', `localhost:${shopPort}`]) {
      expect((await send(proxied.shop, '/', { headers: { host } })).status, host).toBe(200);
    }
    for (const host of ['shop.invalid:80', `shop.invalid:${shopPort}`, 'www.shop.invalid', `rebind.example:${shopPort}`]) {
      expect((await send(proxied.shop, '/', { headers: { host } })).status, host).toBe(421);
    }
    expect((await send(proxied.shop, '/', { headers: { host: 'rebind.example' } })).body).toContain(
      'and shop.invalid (its public address, SHOP_PUBLIC_URL)',
    );
  });

  it('takes a payout posted from its public origin, not from the same name over http', async () => {
    const before = await payouts(proxied);
    const created = await send(proxied.shop, '/payouts', {
      form: { ...PAYOUT, amount: '6.00' },
      headers: { host: 'shop.invalid', origin: 'https://shop.invalid' },
    });
    expect(created.status).toBe(303);
    const refused = await send(proxied.shop, '/payouts', {
      form: { ...PAYOUT, amount: '6.00' },
      headers: { host: 'shop.invalid', origin: 'http://shop.invalid' },
    });
    expect(refused.status).toBe(403);
    expect(await payouts(proxied)).toEqual({ orders: before.orders + 1, transactions: before.transactions + 1 });
  });
});

describe('the payments service by name over plain http (PAY_ALLOW_HTTP_HOSTS, as in docker-compose)', () => {
  it('PAY_BASE_URL=http://sandbox:<port> and PAY_ALLOW_HTTP_HOSTS=sandbox: a card checkout is created and pushed by that name', async () => {
    await withHostsEntry('sandbox', '127.0.0.1', async () => {
      const named = await startBoth({
        sandboxHosts: ['sandbox'],
        env: (sandbox) => {
          const base = `http://sandbox:${new URL(sandbox.url).port}`;
          return { PAY_BASE_URL: base, PAY_CARD_PROXY_URL: `${base}/card-proxy`, PAY_ALLOW_HTTP_HOSTS: ' cards, sandbox ' };
        },
      });
      try {
        const answer = await postForm(named.shop, '/checkout/card', { product: 'mug', card: 'visa-ok' });
        expect(answer.status).toBe(303);
        expect(answer.headers.get('location')).toMatch(/\/success$/);
        const [payin] = await transactions(named.sandbox);
        expect(payin).toMatchObject({ reference_id: referenceIn(answer.headers.get('location')!), status: 'executed' });
      } finally {
        await named.close();
      }
    });
  });

  it('without PAY_ALLOW_HTTP_HOSTS the shop does not start, and says which option allows the host', async () => {
    await expect(startBoth({ env: (sandbox) => ({ PAY_BASE_URL: `http://sandbox:${new URL(sandbox.url).port}` }) })).rejects.toThrow(
      /baseUrl must use https.*allowHttpHosts: \["sandbox"\]/,
    );
  });
});
