// The admin area is the developer's alone, wherever the sandbox is reached from. A tunnel (ngrok,
// cloudflared, Codespaces) or a local nginx connects from 127.0.0.1 on behalf of anyone: here a
// real forwarding proxy written with node:http stands in front of a real sandbox, rewriting Host to
// the sandbox's own address and adding X-Forwarded-For, as those tools do.
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startSandbox } from '../src/index.js';
import { M1, payinBody, raw, receiver, signed, start, type Started } from './helpers.js';
import { forwardingTunnel } from './stand-ins.js';

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A request through the proxy (or straight), answered as status, headers and parsed body. */
async function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const answer = await fetch(`${base}${path}`, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
  const text = await answer.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: answer.status, headers: answer.headers, text, body: parsed };
}

describe('behind a tunnel that rewrites Host and adds X-Forwarded-For', () => {
  let sandbox: Started;
  let tunnel: Awaited<ReturnType<typeof forwardingTunnel>>;

  it('starts', async () => {
    sandbox = await start();
    closers.push(sandbox.close);
    tunnel = await forwardingTunnel(sandbox.url);
    closers.push(tunnel.close);
    expect(sandbox.adminToken).toMatch(/^[0-9a-f]{32}$/);
  });

  const ADMIN_CALLS: [string, string, string?][] = [
    ['GET', '/_sandbox/health'],
    ['GET', '/_sandbox/transactions'],
    ['GET', '/_sandbox/requests'],
    ['GET', '/_sandbox/deliveries'],
    ['GET', '/_sandbox/snapshot'],
    ['GET', '/_sandbox/'],
    ['GET', '/_sandbox/log'],
    ['GET', '/_sandbox/events'],
    ['POST', '/_sandbox/reset', '{}'],
    ['POST', '/_sandbox/clock/advance', '{"seconds":3600}'],
    ['POST', '/_sandbox/faults', '{"method":"POST","path_prefix":"/","kind":"drop_before_commit","count":1}'],
  ];

  it.each(ADMIN_CALLS)('%s %s from the tunnel without the token: 403, nothing done', async (method, path, body) => {
    const before = await sandbox.admin.clock();
    const answer = await send(tunnel.url, method, path, {}, body);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('forbidden');
    expect(answer.body.error.message).toMatch(/admin token/);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await sandbox.admin.faults()).toEqual([]);
    expect(Date.parse(`${(await sandbox.admin.clock()).now}Z`) - Date.parse(`${before.now}Z`)).toBeLessThan(60_000);
  });

  it.each(ADMIN_CALLS.filter(([, path]) => path !== '/_sandbox/events'))(
    '%s %s from the tunnel with the token: answered',
    async (method, path, body) => {
      const answer = await send(tunnel.url, method, path, { authorization: `Bearer ${sandbox.adminToken}` }, body);
      expect(answer.status).toBe(200);
    },
  );

  it('a wrong or guessable token is refused', async () => {
    for (const token of ['sk_sandbox_demo', 'admin', '0'.repeat(32), `${sandbox.adminToken}x`, sandbox.adminToken.toUpperCase()]) {
      if (token === sandbox.adminToken) continue;
      expect((await send(tunnel.url, 'GET', '/_sandbox/transactions', { authorization: `Bearer ${token}` })).status, token).toBe(403);
    }
  });

  it('the same calls straight from this machine need no token (the developer)', async () => {
    expect((await send(sandbox.url, 'GET', '/_sandbox/transactions')).status).toBe(200);
    expect((await send(sandbox.url, 'POST', '/_sandbox/reset', {}, '{}')).status).toBe(200);
  });

  it('a browser through the tunnel is sent to the sign-in page; the right token opens the dashboard', async () => {
    const page = await send(tunnel.url, 'GET', '/_sandbox/', { accept: 'text/html' });
    expect(page.status).toBe(303);
    // A relative address: the sign-in page on the origin the browser is on (the proxy rewrote Host).
    expect(page.headers.get('location')).toBe('/_sandbox/sign-in');
    const form = await send(tunnel.url, 'GET', '/_sandbox/sign-in', { accept: 'text/html' });
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="token"');
    const form_ = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await send(tunnel.url, 'POST', '/_sandbox/sign-in', form_, 'token=sk_sandbox_demo');
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const right = await send(tunnel.url, 'POST', '/_sandbox/sign-in', form_, `token=${sandbox.adminToken}`);
    expect(right.status).toBe(303);
    const cookie = right.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pay_sandbox_admin=[0-9a-f]{32}; Path=\/_sandbox; HttpOnly; SameSite=Strict$/);
    const dashboard = await send(tunnel.url, 'GET', '/_sandbox/', { accept: 'text/html', cookie: cookie.split(';')[0]! });
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('Payments sandbox');
    // A page action (the reset button's call) with the cookie, from the page's own origin.
    const reset = await send(tunnel.url, 'POST', '/_sandbox/reset', { cookie: cookie.split(';')[0]!, origin: sandbox.url }, '{}');
    expect(reset.status).toBe(200);
  });

  it('the hosted payment page stays the customer’s: answered through the tunnel', async () => {
    const url = `${sandbox.url}/v2/merchants/payins/`;
    const body = JSON.stringify(payinBody({ webhook_url: 'https://shop.invalid/hooks' }));
    const answer = await send(
      sandbox.url,
      'POST',
      '/v2/merchants/payins/',
      { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) },
      body,
    );
    expect(answer.status).toBe(200);
    const page = await send(tunnel.url, 'GET', `/_sandbox/pay/${answer.body.id}`);
    expect(page.status).toBe(200);
  });

  it('a create from outside may not send webhooks to this machine’s loopback', async () => {
    const victim = await receiver();
    closers.push(victim.close);
    // Signed over the URL the sandbox receives (the proxy rewrote Host to the sandbox's own).
    const url = `${sandbox.url}/v2/merchants/payins/`;
    const body = JSON.stringify(payinBody({ webhook_url: victim.url('/internal') }));
    const answer = await send(
      tunnel.url,
      'POST',
      '/v2/merchants/payins/',
      { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) },
      body,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors[0].path).toBe('webhook_url');
    expect(answer.body.error.errors[0].message).toMatch(/loopback/);
    // The same create straight from this machine is the developer's own: accepted.
    const direct = await send(
      sandbox.url,
      'POST',
      '/v2/merchants/payins/',
      { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) },
      body,
    );
    expect(direct.status).toBe(200);
  });
});

describe.each([
  ['Forwarded', 'for=203.0.113.7'],
  ['X-Forwarded-For', '203.0.113.7'],
  ['X-Forwarded-Host', 'tunnel.example'],
  ['X-Forwarded-Proto', 'https'],
  ['X-Forwarded-Port', '443'],
  ['X-Real-IP', '203.0.113.7'],
  ['Via', '1.1 nginx'],
  ['CF-Connecting-IP', '203.0.113.7'],
  ['True-Client-IP', '203.0.113.7'],
])('a request from 127.0.0.1 with %s', (name, value) => {
  it('is not local: the admin API needs the token', async () => {
    const sandbox = await start();
    try {
      const plain = await raw(sandbox.url, { method: 'GET', path: '/_sandbox/transactions', headers: [[name, value]] });
      expect(plain.status).toBe(403);
      const token = await raw(sandbox.url, {
        method: 'GET',
        path: '/_sandbox/transactions',
        headers: [
          [name, value],
          ['authorization', `Bearer ${sandbox.adminToken}`],
        ],
      });
      expect(token.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the demo merchant, whose secret is published', () => {
  it('works from this machine, and is refused through the tunnel', async () => {
    const sandbox = await startSandbox({ port: 0 });
    closers.push(sandbox.close);
    const tunnel = await forwardingTunnel(sandbox.url);
    closers.push(tunnel.close);
    const url = `${sandbox.url}/v2/merchants/payins/`;
    const body = JSON.stringify(payinBody({ webhook_url: 'https://shop.invalid/hooks' }));
    const headers = () => ({ 'content-type': 'application/json', ...signed(DEMO_MERCHANT, 'POST', url, body) });
    const remote = await send(tunnel.url, 'POST', '/v2/merchants/payins/', headers(), body);
    expect(remote.status).toBe(403);
    expect(remote.body.error.code).toBe('published_secret');
    expect(remote.text).not.toContain(DEMO_MERCHANT.secret);
    expect((await send(sandbox.url, 'POST', '/v2/merchants/payins/', headers(), body)).status).toBe(200);
  });

  it.each([
    [{ publicUrl: 'https://tunnel.example' }, /publicUrl/],
    [{ host: '0.0.0.0' }, /beyond loopback/],
    [{ merchants: [{ id: 'm_x', secret: DEMO_MERCHANT.secret }], publicUrl: 'https://tunnel.example' }, /m_x/],
  ])('a sandbox reachable from outside does not start with it (%o)', async (options, message) => {
    await expect(startSandbox({ port: 0, ...options })).rejects.toThrow(message);
  });

  it('a public URL on a loopback name is not outside', async () => {
    const sandbox = await startSandbox({ port: 0, publicUrl: 'http://localhost:4999' });
    await sandbox.close();
  });
});

describe('reachable from outside: no webhook to this machine unless named', () => {
  it('publicUrl: a loopback webhook_url is refused at create, and allowed once named in localReceivers', async () => {
    const victim = await receiver();
    closers.push(victim.close);
    const open = await start({ merchants: [M1], publicUrl: 'https://tunnel.example' });
    closers.push(open.close);
    const url = 'https://tunnel.example/v2/merchants/payins/';
    const body = JSON.stringify(payinBody({ webhook_url: victim.url('/hooks') }));
    const headers = () => ({ 'content-type': 'application/json', ...signed(M1, 'POST', url, body) });
    // Straight from this machine too: the sandbox cannot tell the tunnel's calls from the developer's.
    const refused = await send(open.url, 'POST', '/v2/merchants/payins/', headers(), body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.errors[0].path).toBe('webhook_url');

    const named = await start({ merchants: [M1], publicUrl: 'https://tunnel.example', localReceivers: [new URL(victim.url()).origin] });
    closers.push(named.close);
    const accepted = await send(named.url, 'POST', '/v2/merchants/payins/', headers(), body);
    expect(accepted.status).toBe(200);
    expect(JSON.parse((await victim.next(accepted.body.id)).body).status).toBe('new');
  });

  it('a static address on loopback is refused at delivery; the receiver gets nothing', async () => {
    const victim = await receiver();
    closers.push(victim.close);
    const merchant = { ...M1, webhookUrl: victim.url('/static') };
    const open = await start({ merchants: [merchant], publicUrl: 'https://tunnel.example' });
    closers.push(open.close);
    const url = 'https://tunnel.example/v2/merchants/payins/';
    const body = JSON.stringify(payinBody({ webhook_url: 'https://shop.invalid/hooks' }));
    const created = await send(
      open.url,
      'POST',
      '/v2/merchants/payins/',
      { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) },
      body,
    );
    expect(created.status).toBe(200);
    await open.admin.advance(0);
    const attempts = await open.admin.deliveries(created.body.id);
    expect(attempts.map((a) => a.error)).toEqual([expect.stringMatching(/^refused: a loopback address/)]);
    expect(victim.all).toEqual([]);
  });

  it('localReceivers must be origins on this machine', async () => {
    for (const bad of [
      ['https://shop.example'],
      ['http://127.0.0.1:3000/path'],
      ['http://user:pw@127.0.0.1:3000'],
      'http://127.0.0.1:3000',
    ]) {
      await expect(startSandbox({ merchants: [M1], localReceivers: bad as never })).rejects.toThrow(/localReceivers/);
    }
  });
});

describe('adminToken', () => {
  it('a given token is used; a short or spaced one is refused without repeating it', async () => {
    const token = 'my-own-admin-token-123';
    const sandbox = await startSandbox({ merchants: [M1], adminToken: token });
    try {
      expect(sandbox.adminToken).toBe(token);
      const answer = await raw(sandbox.url, {
        method: 'GET',
        path: '/_sandbox/health',
        headers: [
          ['x-forwarded-for', '203.0.113.7'],
          ['authorization', `Bearer ${token}`],
        ],
      });
      expect(answer.status).toBe(200);
    } finally {
      await sandbox.close();
    }
    for (const bad of ['short', 'has a space in it here', 'x'.repeat(300)]) {
      const error = await startSandbox({ merchants: [M1], adminToken: bad }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).not.toContain(bad);
    }
  });
});
