// allowHttpHosts end to end: the client reaches a real sandbox over plain http by a host name that
// is not a loopback one, as in docker-compose (`http://sandbox:4010`), over this run's way of
// sending (node:http or fetch) with no `options.fetch`. The sandbox verifies each signature
// against the URL it was called by (its Host header), so a payin created, its card pushed to the
// address the sandbox gave (on the same name) and the payin read back executed prove that the name
// went on the wire and that what was signed is what was sent.
//
// The name: `sandbox`, resolved to 127.0.0.1 by a resolver entry this test adds (helpers/
// hosts-entry.ts), so the test runs on any machine; and, where the machine has one, a name from
// its own resolver (/etc/hosts) that maps to 127.0.0.1, with nothing added (skipped otherwise).
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { startSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { withHostsEntry } from './helpers/hosts-entry.js';
import { CARD, payinBody } from './helpers/server.js';

const MERCHANT = { id: 'm_hosts', secret: 'sk_hosts_secret' };

let sandbox: Awaited<ReturnType<typeof startSandbox>>;

/** A name other than localhost that this machine's resolver maps to 127.0.0.1 only, if any. */
async function loopbackNameOfThisMachine(): Promise<string | undefined> {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return undefined;
  }
  const names = hosts
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([address]) => address === '127.0.0.1')
    .flatMap(([, ...aliases]) => aliases)
    .filter((name) => /^[a-z0-9.-]+$/i.test(name) && !/(?:^|\.)localhost$/i.test(name));
  for (const name of names) {
    const addresses = await dns.promises.lookup(name, { all: true }).catch(() => []);
    if (addresses.length > 0 && addresses.every((a) => a.address === '127.0.0.1')) return name;
  }
  return undefined;
}
const machineName = await loopbackNameOfThisMachine();

// The sandbox answers only under its own names: it is told the docker-compose ones, as
// `pay-sandbox --allow-http-host sandbox --allow-http-host shop` would be.
beforeAll(async () => {
  sandbox = await startSandbox({
    merchants: [MERCHANT],
    allowHttpHosts: ['sandbox', 'shop', ...(machineName === undefined ? [] : [machineName])],
  });
});
afterAll(() => sandbox?.close());

/** A card payin through `name`, pushed and read back; returns the URLs the client called. */
async function payThrough(name: string) {
  const base = `http://${name}:${new URL(sandbox.url).port}`;
  const urls: string[] = [];
  const pay = createClient({
    baseUrl: base,
    cardProxyUrl: `${base}/card-proxy`,
    allowHttpHosts: [name],
    merchantId: MERCHANT.id,
    secret: MERCHANT.secret,
    hooks: { onRequest: (e) => urls.push(e.url) },
  });
  // A webhook address on loopback where nothing listens: deliveries fail at once, off this test's path.
  const created = await pay.payins.create(payinBody({ webhook_url: 'http://127.0.0.1:9/hooks' }) as never);
  if (created.reconciled) throw new Error('expected the create answer');
  expect(created.data.status).toBe('new');
  // The sandbox builds the push address on the name it was called by.
  expect(created.data.next_action.url.startsWith(`${base}/card-proxy/v1/push/`)).toBe(true);
  const pushed = await pay.payins.pushCard({ payinId: created.data.id, url: created.data.next_action.url }, CARD);
  expect(pushed.data?.status).toBe('executed');
  expect((await pay.payins.get(created.data.id)).data.status).toBe('executed');
  // Told names of a private network (allowHttpHosts), the sandbox asks every admin caller for its token.
  const listed = await sandbox.admin.transactions();
  expect(listed.find((t) => t.id === created.data.id)?.status).toBe('executed');
  return urls;
}

describe('allowHttpHosts against a real sandbox reached by name over plain http', () => {
  it('`sandbox`, as docker-compose names it: create, card push and lookup go to http://sandbox:<port>', async () => {
    const { urls, asked } = await withHostsEntry('sandbox', '127.0.0.1', async (asked) => ({ urls: await payThrough('sandbox'), asked }));
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url.startsWith(`http://sandbox:${new URL(sandbox.url).port}/`)).toBe(true);
    // The connections were opened by that name (not by an address the client worked out itself).
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set(['sandbox']));
  });

  it.skipIf(machineName === undefined)(
    `a name this machine's own resolver maps to 127.0.0.1 (${machineName ?? 'none found in /etc/hosts: skipped'})`,
    async () => {
      const urls = await payThrough(machineName!);
      expect(urls).toHaveLength(3);
      for (const url of urls) expect(new URL(url).hostname).toBe(machineName!.toLowerCase());
    },
  );

  it('a webhook_url on a listed host (http://shop:<port>) is sent, and the sandbox delivers to it, signed over that URL', async () => {
    const received: { url: string; host: string; headers: Record<string, string>; body: string }[] = [];
    const shop = createServer((req, res) => {
      let body = '';
      req
        .on('data', (c: Buffer) => (body += c.toString('utf8')))
        .on('end', () => {
          received.push({ url: req.url ?? '', host: req.headers.host ?? '', headers: req.headers as Record<string, string>, body });
          res.writeHead(200).end();
        });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const webhookUrl = `http://shop:${(shop.address() as AddressInfo).port}/webhooks/pay`;
    try {
      await withHostsEntry('sandbox', '127.0.0.1', () =>
        withHostsEntry('shop', '127.0.0.1', async () => {
          const base = `http://sandbox:${new URL(sandbox.url).port}`;
          const pay = createClient({
            baseUrl: base,
            allowHttpHosts: ['sandbox', 'shop'],
            merchantId: MERCHANT.id,
            secret: MERCHANT.secret,
          });
          const created = await pay.payins.create(payinBody({ webhook_url: webhookUrl }) as never);
          for (let i = 0; received.length === 0 && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 25));
          expect(received).toHaveLength(1);
          const [hook] = received;
          expect(hook!.host).toBe(new URL(webhookUrl).host);
          expect(JSON.parse(hook!.body)).toMatchObject({ id: created.data.id, status: 'new' });
          const expected = createHmac('sha256', MERCHANT.secret)
            .update(`${MERCHANT.id}${hook!.headers['x-timestamp']}POST${webhookUrl}${hook!.body}`)
            .digest('hex');
          expect(hook!.headers['x-signature']).toBe(expected);
        }),
      );
      // Without shop in allowHttpHosts, the client refuses that webhook_url before sending.
      const strict = createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: MERCHANT.secret });
      await expect(strict.payins.create(payinBody({ webhook_url: webhookUrl }) as never)).rejects.toMatchObject({
        name: 'InvalidRequestError',
      });
    } finally {
      shop.close();
    }
  });

  it('the same name without the opt-in is refused before anything is sent', () => {
    expect(() =>
      createClient({ baseUrl: `http://sandbox:${new URL(sandbox.url).port}`, merchantId: MERCHANT.id, secret: MERCHANT.secret }),
    ).toThrow(/baseUrl must use https.*allowHttpHosts: \["sandbox"\]/);
  });
});
