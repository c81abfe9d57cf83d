// The client where fetch exists but Node's modules may not: the published code a non-Node runtime
// loads imports no `node:` module, and the built package runs a payin end to end under Deno and Bun
// (over fetch) and Node (over node:http) with @pay/sign's pure-JavaScript backend (the one
// browsers and workers get), against a real sandbox.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkg = join(import.meta.dirname, '..');
const script = join(import.meta.dirname, 'fixtures', 'use-client.mjs');
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ merchants: [{ id: 'm_rt', secret: 'sk_rt' }] });
});
afterAll(() => sandbox.close());

const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { imports: Record<string, Record<string, string>> };

/** The dist files `entry` loads, following relative imports and `#` imports under `condition`. */
function loaded(entry: string, condition: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(pkg, 'dist', file), 'utf8');
    for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      if (specifier!.startsWith('./')) visit(specifier!.slice(2));
      else if (specifier!.startsWith('#')) {
        const targets = manifest.imports[specifier!]!;
        const target = targets[condition] ?? targets['default']!;
        visit(target.replace(/^\.\/dist\//, ''));
      }
    }
  };
  visit(entry);
  return [...seen].sort();
}

it.each(['default', 'deno', 'bun'])('under the %s condition the published code imports no node: module and no Node global', (condition) => {
  const files = loaded('index.js', condition);
  expect(files.length).toBeGreaterThan(5);
  expect(files).toContain('exchange-fetch.js');
  expect(files).not.toContain('exchange-node.js');
  for (const file of files) {
    // Comments may mention process.env in examples; the code may not.
    const code = readFileSync(join(pkg, 'dist', file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    expect(code, file).not.toMatch(/from\s+['"]node:|import\(\s*['"]node:|require\(|\bprocess\.|\bBuffer\b/);
  }
});

it('under the node condition it loads the node:http exchange', () => {
  const files = loaded('index.js', 'node');
  expect(files).toContain('exchange-node.js');
  expect(readFileSync(join(pkg, 'dist', 'exchange-node.js'), 'utf8')).toMatch(/from 'node:http'/);
});

// Each runtime, and how it sends: `fetches` counts calls to the global fetch (Node's client
// does not use it).
const runtimes: [string, string, string[], boolean][] = [
  ['deno', join(pkg, 'node_modules', '.bin', 'deno'), ['run', '-A', script], true],
  ['bun', join(pkg, 'node_modules', '.bin', 'bun'), [script], true],
  ['node', process.execPath, ['--conditions=pay-noble', script], false],
];

describe.each(runtimes)('%s', (name, bin, args, overFetch) => {
  it(`creates a payin, pushes the card, looks it up, and reads a 404 as NotFoundError, ${overFetch ? 'over fetch' : 'not over fetch'}`, {
    timeout: 60_000,
  }, async () => {
    const { stdout } = await promisify(execFile)(bin, [...args, sandbox.url, sandbox.cardProxyUrl], { cwd: pkg, timeout: 60_000 });
    const { fetches, ...seen } = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(seen).toEqual({ runtime: name, status: 'executed', amount: 10.1, date: true, missing: true });
    // create, push, lookup, and the 404: four requests.
    expect(fetches).toBe(overFetch ? 4 : 0);
  });
});

describe('https', () => {
  const tls = join(import.meta.dirname, 'fixtures', 'tls');
  const cert = join(tls, 'localhost-cert.pem');
  const now = new Date().toISOString().slice(0, 23);
  const record = {
    id: 'pi_tls',
    reference_id: 'r-tls',
    status: 'executed',
    payment: { amount: 1, currency: 'EUR' },
    fee: { amount: 0, currency: 'EUR' },
    created_at: now,
    updated_at: now,
    expires_at: now,
    error_code: null,
    error_message: null,
  };
  // An HTTPS server with a self-signed certificate for localhost, answering the record to every
  // request and recording whether each was signed over the URL it arrived at.
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  const signed: boolean[] = [];
  beforeAll(async () => {
    server = createServer({ key: readFileSync(join(tls, 'localhost-key.pem')), cert: readFileSync(cert) }, (req, res) => {
      const url = `${baseUrl}${req.url}`;
      const expected = createHmac('sha256', 'sk_tls').update(`m_tls${req.headers['x-timestamp']}GET${url}`).digest('hex');
      signed.push(req.headers['x-signature'] === expected);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const run = (env: NodeJS.ProcessEnv) =>
    promisify(execFile)(process.execPath, [join(import.meta.dirname, 'fixtures', 'https-lookup.mjs'), baseUrl], {
      cwd: pkg,
      timeout: 30_000,
      env,
    });

  it('a trusted certificate: the lookup succeeds over node:https and over fetch, signed over the https URL', async () => {
    signed.length = 0;
    const { stdout } = await run({ ...process.env, NODE_EXTRA_CA_CERTS: cert });
    expect(JSON.parse(stdout)).toEqual({ default: 'pi_tls', fetch: 'pi_tls' });
    expect(signed).toEqual([true, true]);
  });

  it('an untrusted certificate: NetworkError naming the certificate problem, both ways', async () => {
    const env = { ...process.env };
    delete env['NODE_EXTRA_CA_CERTS'];
    const { stdout } = await run(env);
    const seen = JSON.parse(stdout) as Record<string, string>;
    for (const way of ['default', 'fetch'])
      expect(seen[way]).toMatch(/^NetworkError: payins\.get: the request failed \(.*SELF_SIGNED_CERT/);
  });
});
