// The loader and the providers, on the SDK as an application registers it (@pay/test-otel): each
// package that names itself gets its own scope (name and version from its own package.json, read
// here with fs, not through the code under test); nothing is created while no provider is
// registered; a provider registered later is seen. And the built package, installed alone in a
// directory, loads the API only when the API is installed beside it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerOtel } from '@pay/test-otel';
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentsOn, loadOtel, tracerNow } from '../src/index.js';
import { loadOtel as loadNowhere } from '../src/load-none.js';

const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'pay-otel-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A package directory with this manifest; the URL of a module in its src/. */
function packageWith(dirName: string, manifest: Record<string, unknown>): string {
  const dir = join(tmp, dirName);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  return pathToFileURL(join(dir, 'src', 'otel.js')).href;
}

describe('loadOtel', () => {
  it("reads the calling package's name and version from the package.json above its module", () => {
    const own = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8'));
    const o = loadOtel(import.meta.url);
    expect(o?.name).toBe('@pay/otel');
    expect(o?.version).toBe(own.version);
    const other = loadOtel(packageWith('shop', { name: 'shop-lib', version: '3.1.4' }));
    expect([other?.name, other?.version]).toEqual(['shop-lib', '3.1.4']);
    // The API is the application's: the one this test registers providers on.
    expect(o?.api).toBe(createRequire(import.meta.url)('@opentelemetry/api'));
  });

  it('gives undefined when the package.json is missing or names no version', () => {
    expect(loadOtel(pathToFileURL(join(tmp, 'nowhere', 'src', 'otel.js')).href)).toBeUndefined();
    expect(loadOtel(packageWith('unversioned', { name: 'no-version' }))).toBeUndefined();
    expect(loadOtel(packageWith('numbered', { name: 'n', version: 3 }))).toBeUndefined();
  });

  it('gives undefined everywhere but Node (the default, bun and deno conditions)', () => {
    expect(loadNowhere(import.meta.url)).toBeUndefined();
  });
});

describe('tracerNow and instrumentsOn', () => {
  it('create nothing while no provider is registered, then record under each scope, and stop when the providers go', async () => {
    const a = loadOtel(packageWith('a', { name: '@x/a', version: '1.0.0' }))!;
    const b = loadOtel(packageWith('b', { name: '@x/b', version: '2.0.0' }))!;
    const counterOf = instrumentsOn((meter) => meter.createCounter('x.count'));
    expect(tracerNow(a)).toBeUndefined();
    expect(counterOf(a)).toBeUndefined();

    const otel = registerOtel();
    try {
      tracerNow(a)!.startSpan('from a').end();
      tracerNow(b)!.startSpan('from b').end();
      counterOf(a)!.add(2);
      counterOf(b)!.add(5);
      const spans = otel.spans().map((s) => [s.name, s.instrumentationScope.name, s.instrumentationScope.version]);
      expect(spans).toEqual([
        ['from a', '@x/a', '1.0.0'],
        ['from b', '@x/b', '2.0.0'],
      ]);
      expect((await otel.points()).map((p) => [p.name, p.value])).toEqual(
        expect.arrayContaining([
          ['x.count', 2],
          ['x.count', 5],
        ]),
      );
      // Asked again, the same tracer: one per provider and scope.
      expect(tracerNow(a)).toBe(tracerNow(a));
      expect(tracerNow(a)).not.toBe(tracerNow(b));
    } finally {
      await otel.close();
    }
    expect(tracerNow(a)).toBeUndefined();
    expect(counterOf(a)).toBeUndefined();
  });
});

describe('the published code', () => {
  const dist = join(here, '..', 'dist');
  const manifest = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8'));
  /** The dist files index.js loads under `condition`, following relative and `#` imports. */
  const loaded = (condition: string): string[] => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(join(dist, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        if (specifier!.startsWith('./')) visit(specifier!.slice(2));
        else if (specifier!.startsWith('#')) {
          const targets = manifest.imports[specifier!];
          visit((targets[condition] ?? targets['default']).replace(/^\.\/dist\//, ''));
        }
      }
    };
    visit('index.js');
    return [...seen].sort();
  };

  it.each(['default', 'deno', 'bun'])('under the %s condition imports no node: module and no Node global', (condition) => {
    const files = loaded(condition);
    expect(files).toEqual(['index.js', 'load-none.js', 'providers.js']);
    for (const file of files) {
      const code = readFileSync(join(dist, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/from\s+['"]node:|import\(\s*['"]node:|require\(|\bprocess\.|\bBuffer\b/);
    }
  });

  it('under the node condition loads the API through require', () => {
    expect(loaded('node')).toEqual(['index.js', 'load-node.js', 'providers.js']);
    expect(readFileSync(join(dist, 'load-node.js'), 'utf8')).toMatch(/from 'node:module'/);
  });
});

describe('the built package, installed alone', () => {
  // dist/ and package.json in <app>/node_modules/@pay/otel, and a caller package beside it.
  const app = join(tmp, 'app');
  const installed = join(app, 'node_modules', '@pay', 'otel');
  mkdirSync(installed, { recursive: true });
  cpSync(join(here, '..', 'dist'), join(installed, 'dist'), { recursive: true });
  cpSync(join(here, '..', 'package.json'), join(installed, 'package.json'));
  const caller = packageWith('app/node_modules/caller', { name: 'caller', version: '0.1.0', type: 'module' });
  writeFileSync(
    join(app, 'main.mjs'),
    `import { loadOtel } from '@pay/otel';\nconst o = loadOtel(${JSON.stringify(caller)});\nconsole.log(JSON.stringify(o ? { name: o.name, version: o.version, api: typeof o.api.trace.getTracer } : null));\n`,
  );
  // No NODE_PATH: a package manager's shim sets one that would find the workspace's copy of the API.
  const env = { PATH: process.env['PATH'] };
  const run = () => JSON.parse(execFileSync(process.execPath, [join(app, 'main.mjs')], { cwd: app, env, encoding: 'utf8' }));

  it('without @opentelemetry/api: loads, and records nothing', () => {
    expect(run()).toBeNull();
  });

  it('with @opentelemetry/api installed beside it: the scope of the calling package', () => {
    const api = realpathSync(join(here, '..', 'node_modules', '@opentelemetry', 'api'));
    mkdirSync(join(app, 'node_modules', '@opentelemetry'), { recursive: true });
    symlinkSync(api, join(app, 'node_modules', '@opentelemetry', 'api'), 'dir');
    expect(run()).toEqual({ name: 'caller', version: '0.1.0', api: 'function' });
  });
});
