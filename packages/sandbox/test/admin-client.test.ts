// The typed admin client (`sandboxAdmin`), every method against a sandbox over real HTTP
// (`startSandbox().admin`) and in process (`sandboxAdmin(createSandbox())`), and every way a call
// can fail: the sandbox's refusals, bad arguments, hostile ids, an address with nothing or
// something else behind it, a server that never answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, isSandboxAdminError, sandboxAdmin, SandboxAdminError, type SandboxAdmin } from '../src/index.js';
import { adminClient } from '../src/admin-client/client.js';
import { nodeTransport } from '../src/admin-client/transport-node.js';
import { M1, M2, payinBody, payoutBody, receiver, signed, start } from './helpers.js';

/** The admin client over each transport a base URL can take: fetch (public), node:http (the command line's). */
const TRANSPORTS = [
  ['fetch', sandboxAdmin],
  ['node:http (the command line)', ((target, options = {}) => adminClient(target, options, nodeTransport)) as typeof sandboxAdmin],
] as const;

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const time = (datetime: string) => Date.parse(`${datetime}Z`);

/** One sandbox to drive: its admin client, and a signed create (node:crypto) to make records with. */
interface Target {
  admin: SandboxAdmin;
  create(kind: 'payin' | 'payout', body: unknown): Promise<{ id: string; status: string }>;
  close(): Promise<void>;
}

async function overHttp(): Promise<Target> {
  return overHttpWith(
    async () => start(),
    (sandbox) => sandbox.admin,
  );
}

async function overNodeHttp(): Promise<Target> {
  return overHttpWith(
    async () => start(),
    (sandbox) => adminClient(sandbox.url, { adminToken: sandbox.adminToken }, nodeTransport),
  );
}

async function overHttpWith(
  begin: () => ReturnType<typeof start>,
  client: (sandbox: Awaited<ReturnType<typeof start>>) => SandboxAdmin,
): Promise<Target> {
  const sandbox = await begin();
  return {
    admin: client(sandbox),
    create: async (kind, body) => {
      const url = `${sandbox.url}/v2/merchants/${kind}s/`;
      const text = JSON.stringify(body);
      const answer = await fetch(url, {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, text) },
      });
      expect(answer.status).toBe(200);
      return answer.json();
    },
    close: () => sandbox.close(),
  };
}

async function inProcess(): Promise<Target> {
  const core = createSandbox({ merchants: [M1, M2] });
  return {
    admin: sandboxAdmin(core),
    create: async (kind, body) => {
      const url = `http://127.0.0.1/v2/merchants/${kind}s/`;
      const text = JSON.stringify(body);
      const answer = await core.fetch(
        new Request(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, text) } }),
      );
      expect(answer.status).toBe(200);
      return answer.json();
    },
    close: async () => core.close(),
  };
}

describe.each([
  ['over HTTP (startSandbox().admin)', overHttp],
  ['over node:http (the command line)', overNodeHttp],
  ['in process (sandboxAdmin(createSandbox()))', inProcess],
])('sandboxAdmin %s', (_name, make) => {
  let t!: Target;
  let hooks!: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    t = await make();
    hooks = await receiver();
  });
  afterAll(async () => {
    await t?.close();
    await hooks?.close();
  });
  beforeEach(async () => {
    await t.admin.reset();
  });

  it('health, clock and advance', async () => {
    expect(await t.admin.health()).toEqual({ ok: true });
    const before = await t.admin.clock();
    expect(before.now).toMatch(DATETIME);
    expect(Math.abs(time(before.now) - Date.now())).toBeLessThan(60_000);
    const after = await t.admin.advance(3600);
    expect(after.now).toMatch(DATETIME);
    expect(time(after.now) - time(before.now)).toBeGreaterThanOrEqual(3_600_000);
    expect(time((await t.admin.clock()).now)).toBeGreaterThanOrEqual(time(after.now));
  });

  it('setStatus moves a payin and a payout, typed by kind; each change is one webhook', async () => {
    const payin = await t.create('payin', payinBody({ webhook_url: hooks.url() }));
    const payout = await t.create('payout', payoutBody({ webhook_url: hooks.url() }));
    const executed = await t.admin.setStatus('payin', payin.id, 'executed');
    expect(executed).toMatchObject({ id: payin.id, status: 'executed', fee: { amount: 0.26, currency: 'EUR' } });
    const failed = await t.admin.setStatus('payout', payout.id, 'failed', { code: 'insufficient_funds', message: 'Not enough money.' });
    expect(failed).toMatchObject({ id: payout.id, status: 'failed', error_code: 'insufficient_funds', error_message: 'Not enough money.' });
    const seen = new Set<string>();
    while (seen.size < 4) seen.add((await hooks.next()).body);
    expect([...seen].map((b) => JSON.parse(b)).filter((w) => w.status !== 'new')).toEqual(
      expect.arrayContaining([
        { id: payin.id, reference_id: null, status: 'executed' },
        { id: payout.id, reference_id: null, status: 'failed' },
      ]),
    );
  });

  it('transactions lists both kinds with merchant and card; deliveries all or of one transaction', async () => {
    const payin = await t.create('payin', payinBody({ reference_id: 'ac-1', webhook_url: hooks.url() }));
    const payout = await t.create('payout', payoutBody({ reference_id: 'ac-2', webhook_url: hooks.url() }));
    await hooks.next(payin.id);
    await hooks.next(payout.id);
    const listed = await t.admin.transactions();
    expect(listed.map((x) => [x.kind, x.id, x.merchant_id, x.reference_id, x.card_last4, x.payment.amount])).toEqual([
      ['payin', payin.id, 'm_1', 'ac-1', null, 10.5],
      ['payout', payout.id, 'm_1', 'ac-2', null, 99.99],
    ]);
    const all = await t.admin.deliveries();
    expect(all.map((d) => d.transaction_id).sort()).toEqual([payin.id, payout.id].sort());
    const one = await t.admin.deliveries(payin.id);
    expect(one).toEqual([expect.objectContaining({ transaction_id: payin.id, status: 'new', attempt: 1, url: hooks.url() })]);
    expect(await t.admin.deliveries('pi_unknown')).toEqual([]);
  });

  it('resend starts a new delivery of the current status', async () => {
    const payin = await t.create('payin', payinBody({ webhook_url: hooks.url() }));
    await hooks.next(payin.id);
    const again = await t.admin.resend('payin', payin.id);
    expect(again).toMatchObject({ id: payin.id, status: 'new' });
    expect(JSON.parse((await hooks.next(payin.id)).body).status).toBe('new');
    expect((await t.admin.deliveries(payin.id)).map((d) => d.attempt)).toEqual([1, 1]);
  });

  it('requests: newest first, limited', async () => {
    const a = await t.create('payin', payinBody({ reference_id: 'req-a' }));
    const b = await t.create('payin', payinBody({ reference_id: 'req-b' }));
    const all = await t.admin.requests();
    expect(all.map((r) => [r.method, r.path, r.status, r.transaction_id, r.merchant_id])).toEqual([
      ['POST', '/v2/merchants/payins/', 200, b.id, 'm_1'],
      ['POST', '/v2/merchants/payins/', 200, a.id, 'm_1'],
    ]);
    expect((await t.admin.requests({ limit: 1 })).map((r) => r.transaction_id)).toEqual([b.id]);
  });

  it('faults and addFault: stored as the sandbox normalises it, listed until used up', async () => {
    const stored = await t.admin.addFault({
      method: 'post',
      path_prefix: '/v2/merchants/payouts/',
      kind: 'status_500_after_commit',
      count: 2,
    });
    expect(stored).toEqual({ method: 'POST', path_prefix: '/v2/merchants/payouts/', kind: 'status_500_after_commit', count: 2, ms: null });
    await t.admin.addFault({ method: 'GET', path_prefix: '/v2/', kind: 'delay', count: 1, ms: 5 });
    expect((await t.admin.faults()).map((f) => [f.kind, f.count, f.ms])).toEqual([
      ['status_500_after_commit', 2, null],
      ['delay', 1, 5],
    ]);
    await t.admin.reset();
    expect(await t.admin.faults()).toEqual([]);
  });

  it('reset forgets transactions; snapshot holds them as a state file does', async () => {
    const payin = await t.create('payin', payinBody({ reference_id: 'snap-1' }));
    const snapshot = await t.admin.snapshot();
    expect(snapshot).toMatchObject({ format: 'pay-sandbox-state', version: 1 });
    expect(snapshot.transactions.map((x) => [x.id, x.referenceId, x.status])).toEqual([[payin.id, 'snap-1', 'new']]);
    expect(JSON.stringify(snapshot)).not.toContain(M1.secret);
    expect(await t.admin.reset()).toEqual({ ok: true });
    expect(await t.admin.transactions()).toEqual([]);
    expect((await t.admin.snapshot()).transactions).toEqual([]);
  });

  it('an unknown id, or a payin addressed as a payout: SandboxAdminError 404 not_found', async () => {
    const payin = await t.create('payin', payinBody());
    for (const [kind, id] of [
      ['payin', 'pi_nope'],
      ['payout', payin.id],
    ] as const) {
      const error = await t.admin.setStatus(kind, id, 'executed').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxAdminError);
      expect(error).toMatchObject({
        name: 'SandboxAdminError',
        status: 404,
        code: 'not_found',
        message: `no ${kind} with this id`,
        errors: [],
      });
    }
    await expect(t.admin.resend('payout', 'po_nope')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a bad fault, a bad status, a limit too large: 400 with every field error', async () => {
    const fault = await t.admin
      .addFault({ method: 'POST', path_prefix: 'v2', kind: 'explode' as never, count: 0 })
      .catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(SandboxAdminError);
    expect(fault).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((fault as SandboxAdminError).errors.map((e) => e.path).sort()).toEqual(['count', 'kind', 'path_prefix']);
    // The message says where, as a log line or a test failure shows it; `reason` is the sandbox's own sentence.
    const { reason, errors, message } = fault as SandboxAdminError;
    expect(reason).toBe('the body must be { method, path_prefix, kind, count, ms? }');
    expect(message).toBe(`${reason} — ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    expect(message).toMatch(/ — .*kind: .*; .*count: /);
    const payin = await t.create('payin', payinBody());
    await expect(t.admin.setStatus('payin', payin.id, 'new')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      errors: [expect.objectContaining({ path: 'status' })],
    });
    await expect(t.admin.setStatus('payin', payin.id, 'executed', { code: 'x' })).rejects.toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ path: 'error_code' })],
    });
    await expect(t.admin.requests({ limit: 5000 })).rejects.toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ path: 'limit' })],
    });
    await expect(t.admin.advance(1e12)).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ path: 'seconds' })] });
    // Nothing changed.
    expect((await t.admin.transactions()).map((x) => x.status)).toEqual(['new']);
    expect(await t.admin.faults()).toEqual([]);
  });

  it('a final status cannot change: 409 invalid_transition', async () => {
    const payin = await t.create('payin', payinBody());
    await t.admin.setStatus('payin', payin.id, 'expired');
    await expect(t.admin.setStatus('payin', payin.id, 'executed')).rejects.toMatchObject({ status: 409, code: 'invalid_transition' });
  });

  it('a hostile id stays an id: it cannot reach another admin path', async () => {
    const payin = await t.create('payin', payinBody());
    for (const id of ['../../reset', '..%2F..%2Freset', `${payin.id}/status?x=`, `${payin.id}#`, 'x/../../faults']) {
      await expect(t.admin.setStatus('payin', id, 'executed'), id).rejects.toMatchObject({ status: 404, code: 'not_found' });
      await expect(t.admin.resend('payin', id), id).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
    // The sandbox was neither reset nor changed, and no fault was added.
    expect((await t.admin.transactions()).map((x) => [x.id, x.status])).toEqual([[payin.id, 'new']]);
    expect(await t.admin.faults()).toEqual([]);
    // A transaction id with a & or = in it stays one query value.
    expect(await t.admin.deliveries(`${payin.id}&transaction_id=x`)).toEqual([]);
  });
});

describe('sandboxAdmin: arguments checked at the boundary', () => {
  const admin = sandboxAdmin('http://127.0.0.1:9');

  it.each([
    [42, /^target must be a base URL/],
    [null, /^target must be a base URL/],
    [{ fetch: 'no' }, /^target must be a base URL/],
    ['127.0.0.1:4010', /^target must be an absolute URL|^target must be an http or https URL/],
    ['/relative', /^target must be an absolute URL/],
    ['ftp://127.0.0.1', /^target must be an http or https URL/],
    ['http://admin:hunter2@127.0.0.1:4010', /^target must not carry credentials/],
    ['http://127.0.0.1:4010/?x=1', /^target must be a base URL without a query/],
  ])('sandboxAdmin(%j) is a TypeError', (target, message) => {
    let thrown: unknown;
    try {
      sandboxAdmin(target as string);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('hunter2');
  });

  it('refuses a bad timeout', () => {
    expect(() => sandboxAdmin('http://127.0.0.1:4010', { timeoutMs: 0 })).toThrow(/^options\.timeoutMs must be/);
  });

  it.each([
    ['advance(-1)', () => admin.advance(-1), /^seconds /],
    ['advance(NaN)', () => admin.advance(Number.NaN), /^seconds /],
    ["advance('60')", () => admin.advance('60' as never), /^seconds /],
    ["setStatus('refund', ...)", () => admin.setStatus('refund' as never, 'pi_1', 'executed'), /^kind must be 'payin' or 'payout'/],
    ["setStatus('payin', '', ...)", () => admin.setStatus('payin', '', 'executed'), /^id must be a non-empty string/],
    ["setStatus('payin', '..', ...)", () => admin.setStatus('payin', '..', 'executed'), /^id must not be \. or \.\./],
    ["resend('payout', '.')", () => admin.resend('payout', '.'), /^id must not be \. or \.\./],
    ["setStatus('payin', 42, ...)", () => admin.setStatus('payin', 42 as never, 'executed'), /^id must be a non-empty string/],
    ["setStatus(..., '')", () => admin.setStatus('payin', 'pi_1', ''), /^status must be a non-empty string/],
    ['setStatus(..., error: "x")', () => admin.setStatus('payin', 'pi_1', 'failed', 'x' as never), /^error must be an object/],
    [
      'setStatus(..., error: {code: 1})',
      () => admin.setStatus('payin', 'pi_1', 'failed', { code: 1 as never }),
      /^error\.code must be a string/,
    ],
    ["deliveries('')", () => admin.deliveries(''), /^transactionId must be a non-empty string/],
    ['requests({limit: 1.5})', () => admin.requests({ limit: 1.5 }), /^options\.limit must be a whole number/],
    ['requests({limit: 0})', () => admin.requests({ limit: 0 }), /^options\.limit must be a whole number/],
    ['addFault(null)', () => admin.addFault(null as never), /^fault must be an object/],
    ['addFault([])', () => admin.addFault([] as never), /^fault must be an object/],
  ])('%s rejects with a TypeError naming the argument, sending nothing', async (_name, act, message) => {
    const error = await act().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
  });
});

describe.each(TRANSPORTS)('sandboxAdmin over %s: nothing there, or something else', (_name, sandboxAdmin) => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('connection refused: network_error naming the address, with the cause, at once', async () => {
    // A port that was just free: listen, note it, close.
    const url = await serve(() => {});
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const started = Date.now();
    const error = await sandboxAdmin(url)
      .health()
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(SandboxAdminError);
    expect(error).toMatchObject({
      status: null,
      code: 'network_error',
      message: `GET /_sandbox/health: cannot reach the sandbox at ${url} (connection refused)`,
    });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('a server that never answers: timeout after timeoutMs, no hang', async () => {
    const url = await serve(() => {}); // accepts, reads, never answers
    const started = Date.now();
    const error = await sandboxAdmin(url, { timeoutMs: 300 })
      .reset()
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toMatchObject({
      name: 'SandboxAdminError',
      status: null,
      code: 'timeout',
      message: `POST /_sandbox/reset: no answer from the sandbox at ${url} within 300 ms`,
    });
  });

  it('an in-process handler that never settles, or throws: timeout, network_error', async () => {
    const stuck = sandboxAdmin({ fetch: () => new Promise<Response>(() => {}) }, { timeoutMs: 100 });
    await expect(stuck.clock()).rejects.toMatchObject({
      code: 'timeout',
      message: 'GET /_sandbox/clock: no answer from the in-process sandbox within 100 ms',
    });
    const broken = new Error('boom');
    const throwing = sandboxAdmin({ fetch: () => Promise.reject(broken) });
    const error = await throwing.clock().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error', status: null });
    expect((error as Error).cause).toBe(broken);
  });

  it('another server at the address: invalid_response, whatever its status', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/_sandbox/health') res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>My shop</h1>');
      else if (req.url === '/_sandbox/clock') res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no"}');
    });
    const admin = sandboxAdmin(`${url}/`);
    await expect(admin.health()).rejects.toMatchObject({
      status: 200,
      code: 'invalid_response',
      message: `GET /_sandbox/health: the answer (200) of the sandbox at ${url} is not JSON; is it a sandbox?`,
    });
    await expect(admin.clock()).rejects.toMatchObject({ status: 502, code: 'invalid_response' });
    await expect(admin.transactions()).rejects.toMatchObject({ status: 404, code: 'invalid_response' });
  });

  it("an error body's field errors and hint are bounded in the message: 5 shown, 20 kept, control characters made spaces", async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ path: `f${i}`, message: `bad ${i}\n${'x'.repeat(500)}` }));
    const url = await serve((_req, res) => {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'invalid_request', message: 'wrong', errors: many, hint: 'try\u001b[2J again' } }));
    });
    const error = (await sandboxAdmin(url)
      .reset()
      .catch((e: unknown) => e)) as SandboxAdminError;
    expect(error).toBeInstanceOf(SandboxAdminError);
    expect(error.errors).toHaveLength(20);
    const cut = (i: number) => `bad ${i} ${'x'.repeat(200 - `bad ${i} `.length)}…`;
    expect(error.errors[0]).toEqual({ path: 'f0', message: cut(0) });
    expect(error.message).toBe(`wrong — ${[0, 1, 2, 3, 4].map((i) => `f${i}: ${cut(i)}`).join('; ')}; and 25 more — hint: try [2J again`);
    expect(error.reason).toBe('wrong');
  });

  it('a base URL with a path prefix (a proxy) is kept', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    expect(await sandboxAdmin(`${url}/pay/sandbox/`).health()).toEqual({ ok: true });
    expect(await sandboxAdmin(new URL(`${url}/pay/sandbox`)).health()).toEqual({ ok: true });
    expect(seen).toEqual(['GET /pay/sandbox/_sandbox/health', 'GET /pay/sandbox/_sandbox/health']);
  });
});

describe('isSandboxAdminError', () => {
  it('knows one by its brand, also from another copy of the package (where instanceof fails)', () => {
    const ours = new SandboxAdminError({ status: 404, code: 'not_found', message: 'no payin with this id' });
    // Another copy's class: a different constructor carrying the same registered brand.
    class OtherCopy extends Error {}
    const theirs = Object.defineProperty(new OtherCopy('x'), Symbol.for('@pay/sandbox/SandboxAdminError'), { value: true });
    expect(isSandboxAdminError(ours)).toBe(true);
    expect(isSandboxAdminError(theirs)).toBe(true);
    expect(theirs instanceof SandboxAdminError).toBe(false);
    const lookalike = Object.assign(new Error('x'), { name: 'SandboxAdminError', code: 'not_found', status: 404 });
    for (const value of [lookalike, new Error('x'), { code: 'timeout' }, null, undefined, 'SandboxAdminError'])
      expect(isSandboxAdminError(value)).toBe(false);
  });
});

describe('RunningSandbox.admin', () => {
  it('is the admin client of its URL, and inspecting the sandbox shows no secret', async () => {
    const sandbox = await start();
    try {
      expect(await sandbox.admin.health()).toEqual({ ok: true });
      const shown = inspect(sandbox, { depth: 5 });
      expect(shown).not.toContain(M1.secret);
      expect(shown).not.toContain(M2.secret);
    } finally {
      await sandbox.close();
    }
  });
});
