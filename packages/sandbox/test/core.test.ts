// The web-standard core on its own (`createSandbox().fetch`, as a Fetch host such as Deno or Bun
// runs it), the publicUrl option, option checks, and secrets staying out of every output.
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT, parseMerchant, sandboxAdmin, startSandbox } from '../src/index.js';
import { adminCall, CARD, hmac, M1, nowSeconds, payinBody, post, push, receiver, signed, start, webhookSignatureOk } from './helpers.js';

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe('createSandbox().fetch, a Fetch handler', () => {
  it('creates, looks up and sends the webhook with fetch, signed over request.url', async () => {
    const hooks = await receiver();
    closers.push(hooks.close);
    const core = createSandbox({ merchants: [M1] });
    closers.push(() => core.close());
    const url = 'http://sandbox.example/v2/merchants/payins/';
    const body = JSON.stringify(payinBody({ reference_id: 'core-1', webhook_url: hooks.url() }));
    const created = await core.fetch(
      new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) } }),
    );
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const record = await created.json();
    expect(record.next_action.url).toBe(`http://sandbox.example/_sandbox/pay/${record.id}`);
    const webhook = await hooks.next();
    expect(JSON.parse(webhook.body)).toEqual({ id: record.id, reference_id: 'core-1', status: 'new' });
    expect(webhookSignatureOk(M1, hooks.url(), webhook)).toBe(true);
    const lookupUrl = `http://sandbox.example/v2/merchants/payins/${record.id}`;
    const looked = await core.fetch(new Request(lookupUrl, { headers: signed(M1, 'GET', lookupUrl) }));
    expect((await looked.json()).status).toBe('new');
  });

  it('reads a streamed body up to the limit, and refuses a larger one with 413', async () => {
    const core = createSandbox({ merchants: [M1] });
    closers.push(() => core.close());
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(chunk);
      },
    });
    const answer = await core.fetch(
      new Request('http://sandbox.example/v2/merchants/payins/', {
        method: 'POST',
        body: endless,
        duplex: 'half',
        headers: { 'content-type': 'application/json' },
      } as RequestInit),
    );
    expect(answer.status).toBe(413);
    expect(sent).toBeLessThan(10); // it stopped reading
  });

  it('answers every admin call and the dashboard', async () => {
    const core = createSandbox();
    closers.push(() => core.close());
    expect(core.merchants).toEqual([{ id: DEMO_MERCHANT.id, secret: DEMO_MERCHANT.secret }]);
    // The host says the peer is loopback: the developer.
    const page = await core.fetch(new Request('http://sandbox.example/_sandbox/'), { remoteAddress: '127.0.0.1' });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Payments sandbox');
  });

  it('takes nothing for local unless the host says so: no peer address needs the admin token', async () => {
    const core = createSandbox({ merchants: [M1] });
    closers.push(() => core.close());
    expect(core.adminToken).toMatch(/^[0-9a-f]{32}$/);
    expect(createSandbox({ merchants: [M1] }).adminToken).not.toBe(core.adminToken); // random per sandbox
    for (const context of [undefined, {}, { remoteAddress: '192.0.2.10' }]) {
      const refused = await core.fetch(new Request('http://127.0.0.1/_sandbox/reset', { method: 'POST' }), context);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('forbidden');
      const transactions = await core.fetch(new Request('http://127.0.0.1/_sandbox/transactions'), context);
      expect(transactions.status).toBe(403);
    }
    const withToken = await core.fetch(
      new Request('http://127.0.0.1/_sandbox/transactions', { headers: { authorization: `Bearer ${core.adminToken}` } }),
    );
    expect(withToken.status).toBe(200);
    const wrong = await core.fetch(
      new Request('http://127.0.0.1/_sandbox/transactions', { headers: { authorization: `Bearer ${'0'.repeat(32)}` } }),
    );
    expect(wrong.status).toBe(403);
    // The admin client in process uses the sandbox's own token.
    expect((await sandboxAdmin(core).health()).ok).toBe(true);
  });
});

describe('publicUrl', () => {
  it('signs and builds next_action on the public origin, whatever Host arrives', async () => {
    const sb = await startSandbox({ merchants: [M1], publicUrl: 'https://sandbox.example.com' });
    closers.push(sb.close);
    const publicCreate = 'https://sandbox.example.com/v2/merchants/payins/';
    // Reachable from outside: a webhook to this machine's loopback would be refused.
    const body = JSON.stringify(payinBody({ method: 'card', webhook_url: 'https://shop.invalid/hooks' }));
    const answer = await fetch(`${sb.url}/v2/merchants/payins/`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', publicCreate, body) },
    });
    expect(answer.status).toBe(200);
    const record = await answer.json();
    expect(record.next_action.url.startsWith('https://sandbox.example.com/card-proxy/v1/push/')).toBe(true);
    // Signed over the local URL instead: refused.
    expect((await post(`${sb.url}/v2/merchants/payins/`, payinBody())).status).toBe(401);
  });

  it('must be an origin', () => {
    expect(() => createSandbox({ publicUrl: 'https://sandbox.example.com/api' })).toThrow(/publicUrl/);
    expect(() => createSandbox({ publicUrl: 'ftp://x' })).toThrow(/publicUrl/);
  });
});

describe('options', () => {
  it.each([
    [{ merchants: [{ id: '', secret: 's' }] }, /id/],
    [{ merchants: [{ id: 'has space', secret: 's' }] }, /id/],
    [{ merchants: [{ id: 'm', secret: '' }] }, /secret/],
    [{ merchants: [{ id: 'm', secret: 's', webhookUrl: 'http://shop.example/hooks' }] }, /webhookUrl/],
    [{ merchants: [M1, { ...M1, secret: 'other' }] }, /twice/],
    [{ toleranceSeconds: Number.NaN }, /toleranceSeconds/],
  ])('refuses %j with a TypeError that names the problem, never the secret', (options, message) => {
    let error: unknown;
    try {
      createSandbox(options as Parameters<typeof createSandbox>[0]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(M1.secret);
  });

  it('parses ID:SECRET[:STATIC_WEBHOOK_URL], the URL keeping its colons', () => {
    expect(parseMerchant('m_1:sk_1')).toEqual({ id: 'm_1', secret: 'sk_1' });
    expect(parseMerchant('m_1:sk_1:http://127.0.0.1:4000/hooks')).toEqual({
      id: 'm_1',
      secret: 'sk_1',
      webhookUrl: 'http://127.0.0.1:4000/hooks',
    });
    expect(() => parseMerchant('m_1')).toThrow(TypeError);
  });

  it('takes an option set to undefined as not given, every one (the types accept undefined for each)', async () => {
    const sandbox = await startSandbox({
      merchants: undefined,
      port: undefined,
      host: undefined,
      toleranceSeconds: undefined,
      log: undefined,
      publicUrl: undefined,
      allowHttpHosts: undefined,
      maxTransactions: undefined,
      uniqueReferences: undefined,
      stateFile: undefined,
      seed: undefined,
      adminToken: undefined,
      localReceivers: undefined,
      clock: undefined,
    });
    closers.push(() => sandbox.close());
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.merchants).toEqual([DEMO_MERCHANT]);
    expect(sandbox.signInUrl).toBeUndefined(); // on loopback alone, nothing exposed
    expect(sandbox.adminToken).toMatch(/^\S{16,}$/);
    const core = createSandbox({ merchants: [{ ...M1, webhookUrl: undefined }] });
    closers.push(() => core.close());
    expect(core.merchants).toEqual([{ id: M1.id, secret: M1.secret }]);
  });

  it('refuses a bad port before listening', async () => {
    await expect(startSandbox({ port: 70_000 })).rejects.toThrow(/port/);
  });
});

describe('secrets and card data stay out', () => {
  it('of log lines, records, deliveries, the dashboard and util.inspect', async () => {
    const hooks = await receiver();
    closers.push(hooks.close);
    const sb = await start();
    closers.push(sb.close);
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card', webhook_url: hooks.url() }));
    const token = created.body.next_action.url.split('/push/')[1].slice(0, -1);
    await push(created.body.next_action.url, created.body.id, { ...CARD, pan: '4000000000009995', csc: '4321' });
    await hooks.next(created.body.id);
    await hooks.next(created.body.id);
    // A forged push with a signature computed over the secret, to see nothing of it is echoed.
    const ts = nowSeconds();
    await fetch(created.body.next_action.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-merchant-id': M1.id,
        'x-timestamp': String(ts),
        'x-simplified-signature': hmac('guess', `${M1.id}${ts}`),
      },
      body: JSON.stringify({ payin_id: created.body.id, card: { ...CARD, pan: '4000000000009995' } }),
    });
    const outputs = [
      sb.lines.join('\n'),
      (await adminCall(sb, 'GET', '/transactions')).text,
      (await adminCall(sb, 'GET', '/deliveries')).text,
      (await adminCall(sb, 'GET', '/')).text,
      inspect(sb, { depth: 5 }),
    ];
    for (const output of outputs) {
      for (const secret of [M1.secret, '4000000000009995', '4321']) expect(output).not.toContain(secret);
    }
    expect(sb.lines.join('\n')).not.toContain(token);
    expect(outputs[1]).toContain('"card_last4":"9995"');
  });
});
