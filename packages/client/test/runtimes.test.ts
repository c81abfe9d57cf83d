// The client where fetch exists but Node's modules may not: the published code a non-Node runtime
// loads imports no `node:` module, and the built package runs a payin end to end under Deno and Bun
// (over fetch) and Node (over node:http) with @pay/sign's pure-JavaScript backend (the one
// browsers and workers get), against a real sandbox.
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
  it(`creates a payin, pushes the card, looks it up, and reads a 404 as NotFoundError, ${overFetch ? 'over fetch' : 'not over fetch'}`, { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(bin, [...args, sandbox.url, sandbox.cardProxyUrl], { cwd: pkg, timeout: 60_000 });
    const { fetches, ...seen } = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(seen).toEqual({ runtime: name, status: 'executed', amount: 10.1, date: true, missing: true });
    // create, push, lookup, and the 404: four requests.
    expect(fetches).toBe(overFetch ? 4 : 0);
  });
});
