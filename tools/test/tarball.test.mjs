import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTarball, tarballProblems } from '../pack.mjs';

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
      'package.json': JSON.stringify({ name: 'ok', dependencies: { x: '1.0.0' }, exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }),
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
