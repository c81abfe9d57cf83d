// The net guard (@pay/test-net-guard), which every suite's setup installs: it must see each way a
// test can resolve a name (node:dns in every form, node:net and node:http connecting by name,
// Node's fetch, the sandbox's own webhook sender, a Node child process), refuse the lookup before
// anything leaves the machine, and fail the test that made it. The names asked for here are under
// .example, which no hosts file here lists: the guard answers them, so no query is ever sent.
import { execFile } from 'node:child_process';
import dns, { lookup as namedLookup } from 'node:dns';
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox } from '@pay/sandbox';
import { EXAMPLES } from '@pay/schema/examples';
import { signRequest } from '@pay/sign';
import { isLocalName, takeViolations } from '@pay/test-net-guard';
import { afterEach, describe, expect, it } from 'vitest';

const REFUSED = /^net guard: .*refused: a test may resolve only addresses, localhost and the names of \/etc\/hosts/;

/** What the guard recorded in this process, as `how name` (emptied, so the test itself passes). */
const recorded = () => takeViolations().map((v) => `${v.how} ${v.name}`);

/** The error a callback-style call ends with. */
const failureOf = (start) => new Promise((resolve) => start((error) => resolve(error)));

afterEach(() => {
  // A test here that forgot to take what it caused would otherwise fail in the setup's check.
  expect(recorded()).toEqual([]);
});

describe('the net guard in the test process', () => {
  it('refuses dns.lookup, in callback, promise and named-import form, answering ENOTFOUND', async () => {
    const callback = await failureOf((done) => dns.lookup('shop.example', done));
    expect(callback).toMatchObject({ code: 'ENOTFOUND', hostname: 'shop.example', message: expect.stringMatching(REFUSED) });
    await expect(dns.promises.lookup('api.shop.example', { all: true })).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const named = await failureOf((done) => namedLookup('named.example', {}, done));
    expect(named).toMatchObject({ code: 'ENOTFOUND' });
    expect(recorded()).toEqual(['dns.lookup shop.example', 'dns.promises.lookup api.shop.example', 'dns.lookup named.example']);
  });

  it('refuses every query of the resolve family (c-ares asks a DNS server even for a hosts-file name)', async () => {
    await failureOf((done) => dns.resolve4('shop.example', done));
    await failureOf((done) => new dns.Resolver().resolveTxt('localhost', done));
    await failureOf((done) => dns.reverse('192.0.2.1', done));
    await expect(dns.promises.resolve6('shop.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(new dns.promises.Resolver().resolve('shop.example', 'MX')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(recorded()).toEqual([
      'dns.resolve4 shop.example',
      'dns.resolveTxt localhost',
      'dns.reverse 192.0.2.1',
      'dns.promises.resolve6 shop.example',
      'dns.promises.resolve shop.example',
    ]);
  });

  it('sees the lookups of node:net, node:http and Node fetch (undici) connecting by name', async () => {
    const net = await new Promise((resolve) => connect(443, 'net.example').on('error', resolve));
    const http = await new Promise((resolve) => get('http://http.example/').on('error', resolve));
    const fetched = await fetch('https://fetch.example/').catch((error) => error.cause);
    for (const error of [net, http, fetched]) expect(error).toMatchObject({ code: 'ENOTFOUND', message: expect.stringMatching(REFUSED) });
    expect(recorded()).toEqual(['dns.lookup net.example', 'dns.lookup http.example', 'dns.lookup fetch.example']);
  });

  it("sees the sandbox's own webhook sender resolving a webhook URL's name", async () => {
    const sandbox = await startSandbox({ merchants: [{ id: 'm_guard', secret: 'sk_guard_secret' }] });
    try {
      const url = `${sandbox.url}/v2/merchants/payouts/`;
      const body = JSON.stringify({ ...EXAMPLES.createPayout, webhook_url: 'https://hooks.shop.example/pay' });
      const headers = {
        ...signRequest({ merchantId: 'm_guard', secret: 'sk_guard_secret', method: 'POST', url, body }),
        'content-type': 'application/json',
      };
      const created = await fetch(url, { method: 'POST', headers, body });
      expect(created.status).toBe(200);
      const { id } = await created.json();
      let attempts = [];
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        attempts = await sandbox.admin.deliveries(id);
        if (attempts.some((a) => a.error !== null)) break;
      }
      expect(attempts[0]).toMatchObject({ error: 'host not found', response_status: null });
      // Once per connection attempt (one per address family, or again after a failure): one name.
      expect(new Set(recorded())).toEqual(new Set(['dns.lookup hooks.shop.example']));
    } finally {
      await sandbox.close();
    }
  });

  it('lets through what never leaves the machine: addresses, localhost, the names of /etc/hosts', async () => {
    expect(await dns.promises.lookup('127.0.0.1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await dns.promises.lookup('[::1]'.slice(1, -1))).toEqual({ address: '::1', family: 6 });
    expect((await dns.promises.lookup('localhost')).address).toMatch(/^(127\.|::1$)/);
    const names = readFileSync('/etc/hosts', 'utf8')
      .split('\n')
      .flatMap((line) => line.replace(/#.*/, '').trim().split(/\s+/).slice(1))
      .filter((name) => name !== '');
    for (const name of names) expect(isLocalName(name)).toBe(true);
    for (const name of ['shop.example', 'example.com', 'x.invalid', 'sandbox.localhost', 'registry.npmjs.org']) {
      expect(isLocalName(name)).toBe(false);
    }
  });
});

describe('the net guard in the processes a test starts', () => {
  it('a Node child (NODE_OPTIONS from the setup) is refused too, and reports it to the test', async () => {
    const report = process.env['PAY_NET_GUARD_REPORT'];
    expect(report).toBeTruthy();
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      "const r = await fetch('https://child.example/').catch((e) => e.cause.code); console.log(r);",
    ]);
    expect(stdout.trim()).toBe('ENOTFOUND');
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    writeFileSync(report, ''); // taken here, or the setup's check fails this test
    expect(lines).toMatchObject([{ how: 'dns.lookup', name: 'child.example' }]);
  });

  it('fails the test that resolved a public name, here or in a child, naming the name (a suite run of its own)', async () => {
    const root = join(import.meta.dirname, 'fixtures', 'net-guard');
    const run = await promisify(execFile)(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', root, '--reporter', 'json'],
      { cwd: root },
    ).catch((error) => error);
    const results = JSON.parse(run.stdout).testResults.flatMap((file) => file.assertionResults);
    const outcome = Object.fromEntries(results.map((r) => [r.title, [r.status, r.failureMessages.join('\n')]]));
    expect(outcome['resolves a public name itself']).toEqual([
      'failed',
      expect.stringContaining('net guard: this test resolved a name beyond loopback'),
    ]);
    expect(outcome['resolves a public name itself'][1]).toContain('dns.lookup("shop.example")');
    expect(outcome['starts a child that resolves a public name'][0]).toBe('failed');
    expect(outcome['starts a child that resolves a public name'][1]).toMatch(/dns\.lookup\("child\.shop\.example"\) in child process \d+/);
    expect(outcome['stays on loopback']).toEqual(['passed', '']);
  });
});
