import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportsNothing, readTarball, tarballProblems } from '../pack.mjs';

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
