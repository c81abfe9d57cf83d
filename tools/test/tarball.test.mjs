import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportsNothing, installSet, packEach, readTarball, sameContents, tarballFile, tarballProblems } from '../pack.mjs';
import { publicPackages } from '../workspace.mjs';

// Tarballs made by the system's own `tar`, so the reader is checked against a second tool.
const base = mkdtempSync(join(tmpdir(), 'tarball-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function tarball(name, files, format = 'gnu') {
  const dir = join(base, name, 'package');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const file = join(base, `${name}.tgz`);
  execFileSync('tar', [`--format=${format}`, '-czf', file, '-C', join(base, name), 'package']);
  return file;
}

describe('readTarball', () => {
  it.each(['gnu', 'pax', 'ustar'])('lists files with their contents, including long paths (%s format)', (format) => {
    // ustar splits a path of up to 255 characters into prefix and name; gnu and pax go further.
    const long = format === 'ustar' ? `dist/${'deep/'.repeat(25)}x.js` : `dist/${'deep/'.repeat(60)}x.js`;
    const file = tarball(`a-${format}`, { 'package.json': '{"name":"a"}', [long]: 'x'.repeat(1000) }, format);
    const entries = readTarball(file);
    expect(entries.map((e) => e.path).sort()).toEqual([`package/${long}`, 'package/package.json'].sort());
    expect(entries.find((e) => e.path.endsWith('x.js')).body.toString()).toBe('x'.repeat(1000));
  });
});

describe('tarballProblems', () => {
  it('accepts a complete package', () => {
    const file = tarball('ok', {
      'package.json': JSON.stringify({
        name: 'ok',
        dependencies: { x: '1.0.0' },
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
      'README.md': '# ok',
      'dist/index.js': '',
      'dist/index.d.ts': '',
    });
    expect(tarballProblems({ name: 'ok', tarball: file })).toEqual([]);
  });

  it('names workspace ranges, missing files and unpublishable files', () => {
    const file = tarball('bad', {
      'package.json': JSON.stringify({
        name: 'bad',
        dependencies: { '@pay/sign': 'workspace:*' },
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './json/*.json': './dist/json/*.json' },
        bin: { bad: './dist/cli.js' },
      }),
      'dist/index.js': '',
      'src/index.ts': '',
    });
    expect(tarballProblems({ name: 'bad', tarball: file })).toEqual([
      'bad: dependencies.@pay/sign is still workspace:*',
      'bad: README.md missing from the tarball',
      'bad: dist/index.d.ts missing from the tarball',
      'bad: dist/cli.js missing from the tarball',
      'bad: src/index.ts should not be published',
    ]);
  });
});

describe("Python's bytecode is never packed", () => {
  const BYTECODE = /(?:^|\/)__pycache__\/|\.py[co]$/;

  it('tarballProblems names a __pycache__ file or a .pyc anywhere', () => {
    const file = tarball('pyc', {
      'package.json': JSON.stringify({ name: 'pyc' }),
      'README.md': '# pyc',
      'adapters/python/adapter.py': 'print(1)\n',
      'adapters/python/__pycache__/adapter.cpython-312.pyc': 'bytecode',
      'adapters/stray.pyc': 'bytecode',
    });
    expect(tarballProblems({ name: 'pyc', tarball: file })).toEqual([
      'pyc: adapters/python/__pycache__/adapter.cpython-312.pyc should not be published',
      'pyc: adapters/stray.pyc should not be published',
    ]);
  });

  // What `pnpm tarballs` after `pnpm test` met: running the Python adapter writes its bytecode
  // next to it, inside a directory the conformance package publishes.
  it('@pay/conformance packed after its Python adapter ran: the adapter is in, its bytecode is not', () => {
    const conformance = publicPackages().find((p) => p.name === '@pay/conformance');
    const cache = join(conformance.dir, 'adapters', 'python', '__pycache__');
    const made = !existsSync(cache);
    const files = [join(cache, 'adapter.cpython-312.pyc'), join(conformance.dir, 'adapters', 'python', 'adapter.pyc')];
    mkdirSync(cache, { recursive: true });
    for (const file of files) writeFileSync(file, 'bytecode');
    try {
      const dest = mkdtempSync(join(base, 'packed-'));
      const [{ tarball: file }] = packEach([conformance], dest);
      const paths = readTarball(file).map((e) => e.path);
      expect(paths).toContain('package/adapters/python/adapter.py');
      expect(paths.filter((p) => BYTECODE.test(p))).toEqual([]);
      expect(tarballProblems({ name: conformance.name, tarball: file }).filter((p) => BYTECODE.test(p))).toEqual([]);
    } finally {
      for (const file of files) rmSync(file, { force: true });
      if (made) rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe('packEach', () => {
  const manifestIn = (file) =>
    JSON.parse(
      readTarball(file)
        .find((e) => e.path === 'package/package.json')
        .body.toString('utf8'),
    );

  // pnpm packs a workspace's packages in its own order (dependencies first): each result must
  // still be the tarball of the package it is given for.
  it('gives each package its own tarball, in the order asked', () => {
    const wanted = ['@pay/webhook', '@pay/sign'].map((name) => publicPackages().find((p) => p.name === name));
    const packed = packEach(wanted, mkdtempSync(join(base, 'each-')));
    expect(packed.map((p) => p.name)).toEqual(['@pay/webhook', '@pay/sign']);
    for (const { name, tarball } of packed) expect(manifestIn(tarball).name).toBe(name);
  });

  it('names a package pnpm packed nothing for', () => {
    const [sign] = publicPackages().filter((p) => p.name === '@pay/sign');
    expect(() => packEach([{ ...sign, name: '@pay/no-such-package' }], mkdtempSync(join(base, 'none-')))).toThrow(
      'pnpm pack printed no tarball for @pay/no-such-package',
    );
  });
});

describe('exportsNothing', () => {
  const lib = (name, code) =>
    tarball(name, {
      'package.json': JSON.stringify({ name, exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }),
      'dist/index.js': code,
    });
  it('spots an empty library and passes real ones and CLIs', () => {
    expect(exportsNothing({ tarball: lib('empty', 'export {};\n') })).toBe(true);
    expect(exportsNothing({ tarball: lib('blank', '') })).toBe(true);
    expect(exportsNothing({ tarball: lib('reexports', "export { a } from './a.js';\n") })).toBe(false);
    expect(exportsNothing({ tarball: lib('star', "export * from './a.js';\n") })).toBe(false);
    expect(exportsNothing({ tarball: lib('fn', 'export function f() {}\n') })).toBe(false);
    const cli = tarball('cli', { 'package.json': JSON.stringify({ name: 'cli', bin: { c: './dist/cli.js' } }), 'dist/cli.js': '' });
    expect(exportsNothing({ tarball: cli })).toBe(false);
  });
});

describe('sameContents', () => {
  const manifest = { name: 'a', version: '1.0.0', dependencies: { b: '1.0.0', c: '1.0.0' } };
  const reordered = { version: '1.0.0', dependencies: { c: '1.0.0', b: '1.0.0' }, name: 'a' };
  const original = tarball('same-a', { 'package.json': JSON.stringify(manifest), 'dist/index.js': 'export const x = 1;\n' });
  it.each([
    ['the same files', { 'package.json': JSON.stringify(manifest), 'dist/index.js': 'export const x = 1;\n' }, true],
    [
      'package.json with its keys in another order',
      { 'package.json': JSON.stringify(reordered, null, 2), 'dist/index.js': 'export const x = 1;\n' },
      true,
    ],
    ['one byte of code changed', { 'package.json': JSON.stringify(manifest), 'dist/index.js': 'export const x = 2;\n' }, false],
    [
      'a dependency version changed',
      {
        'package.json': JSON.stringify({ ...manifest, dependencies: { b: '1.0.1', c: '1.0.0' } }),
        'dist/index.js': 'export const x = 1;\n',
      },
      false,
    ],
    ['a file more', { 'package.json': JSON.stringify(manifest), 'dist/index.js': 'export const x = 1;\n', 'dist/y.js': '' }, false],
    ['a file renamed', { 'package.json': JSON.stringify(manifest), 'dist/main.js': 'export const x = 1;\n' }, false],
  ])('%s: %s', (label, files, same) => {
    const other = tarball(`same-${label.replaceAll(' ', '-')}`, files);
    expect(sameContents(original, other)).toBe(same);
    expect(sameContents(other, original)).toBe(same);
  });
});

describe('installSet and tarballFile', () => {
  // A made-up workspace: only `workspace:` dependencies are ours to install from tarballs.
  const pkg = (name, dependencies = {}) => ({ name, manifest: { name, dependencies } });
  const packages = [
    pkg('@x/base', { typebox: '^1.0.0' }),
    pkg('@x/mid', { '@x/base': 'workspace:*' }),
    pkg('@x/top', { '@x/mid': 'workspace:^', lodash: '4.17.21' }),
    pkg('@x/other', { '@x/base': 'workspace:*' }),
  ];
  it.each([
    [['@x/base'], ['@x/base']],
    [['@x/top'], ['@x/top', '@x/base', '@x/mid']],
    [
      ['@x/other', '@x/top'],
      ['@x/other', '@x/top', '@x/base', '@x/mid'],
    ],
    [
      ['@x/mid', '@x/base', '@x/mid'],
      ['@x/mid', '@x/base'],
    ],
  ])('%j needs %j', (names, expected) => {
    expect(installSet(names, packages)).toEqual(expected);
  });
  it('refuses a name that is not a public package', () => {
    expect(() => installSet(['@x/nope'], packages)).toThrow('@x/nope is not a public package of this workspace');
  });
  it('names the real packages as their READMEs expect', () => {
    // The manifests' workspace: dependencies, read by hand: client -> clock, otel, schema, sign;
    // journal -> clock, client, otel, schema, webhook; webhook -> clock, otel, schema, sign;
    // sandbox -> clock, schema, sign, webhook; conformance -> client, sandbox, schema, sign, webhook.
    expect(installSet(['@pay/journal'])).toEqual([
      '@pay/journal',
      '@pay/client',
      '@pay/clock',
      '@pay/otel',
      '@pay/schema',
      '@pay/sign',
      '@pay/webhook',
    ]);
    expect(installSet(['@pay/conformance'])).toEqual([
      '@pay/conformance',
      '@pay/client',
      '@pay/clock',
      '@pay/otel',
      '@pay/sandbox',
      '@pay/schema',
      '@pay/sign',
      '@pay/webhook',
    ]);
    expect(installSet(['@pay/sign'])).toEqual(['@pay/sign']);
    expect(tarballFile('@pay/client')).toBe('pay-client.tgz');
  });
});
