// The client where fetch exists but Node's modules may not: the published code imports no `node:`
// module, and the built package runs a payin end to end under Deno, Bun, and Node with @pay/sign's
// pure-JavaScript backend (the one browsers and workers get), against a real sandbox.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

it('the published code imports no node: module and no Node global', () => {
  const dist = join(pkg, 'dist');
  const files = readdirSync(dist).filter((f) => f.endsWith('.js'));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    // Comments may mention process.env in examples; the code may not.
    const code = readFileSync(join(dist, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    expect(code, file).not.toMatch(/from\s+['"]node:|import\(\s*['"]node:|require\(|\bprocess\.|\bBuffer\b/);
  }
});

const runtimes: [string, string, string[]][] = [
  ['deno', join(pkg, 'node_modules', '.bin', 'deno'), ['run', '-A', script]],
  ['bun', join(pkg, 'node_modules', '.bin', 'bun'), [script]],
  ['node', process.execPath, ['--conditions=pay-noble', script]],
];

describe.each(runtimes)('%s', (name, bin, args) => {
  it('creates a payin, pushes the card, looks it up, and reads a 404 as NotFoundError', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(bin, [...args, sandbox.url, sandbox.cardProxyUrl], { cwd: pkg, timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ runtime: name, status: 'executed', amount: 10.1, date: true, missing: true });
  });
});
