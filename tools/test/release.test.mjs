import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTarball, tarballProblems } from '../pack.mjs';
import { publicPackages, root } from '../workspace.mjs';

describe('pnpm release --dry-run', () => {
  it('packs every public package, checked, without publishing', () => {
    const out = execFileSync(process.execPath, [join(root, 'tools', 'release.mjs'), '--dry-run'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9' }, // publishing would fail loudly
    });
    const expected = publicPackages()
      .map((p) => p.name)
      .sort();
    expect(expected).toEqual([
      '@pay/client',
      '@pay/clock',
      '@pay/conformance',
      '@pay/journal',
      '@pay/otel',
      '@pay/sandbox',
      '@pay/schema',
      '@pay/sign',
      '@pay/testing',
      '@pay/webhook',
    ]);
    expect(out).toContain(`dry run, ${expected.length} packages packed, nothing published`);
    // Libraries whose source is still an empty module are named as ones a release would refuse.
    const shells = publicPackages()
      .filter(({ dir, manifest }) => manifest.exports?.['.'] && readFileSync(join(dir, 'src', 'index.ts'), 'utf8').trim() === 'export {};')
      .map((p) => p.name);
    if (shells.length) expect(out).toContain(`would refuse to publish ${shells.join(', ')}: nothing exported yet`);
    else expect(out).not.toContain('would refuse');

    const tarballs = readdirSync(join(root, '.release')).filter((f) => f.endsWith('.tgz'));
    expect(tarballs).toHaveLength(expected.length);
    for (const file of tarballs) {
      const entries = readTarball(join(root, '.release', file));
      const manifest = JSON.parse(entries.find((e) => e.path === 'package/package.json').body.toString());
      expect(expected).toContain(manifest.name);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      const paths = entries.map((e) => e.path);
      expect(paths).toContain(manifest.bin ? `package/${Object.values(manifest.bin)[0].slice(2)}` : 'package/dist/index.js');
      expect(paths.some((p) => p.startsWith('package/src/') || p.startsWith('package/test/'))).toBe(false);
      expect(tarballProblems({ name: manifest.name, tarball: join(root, '.release', file) })).toEqual([]);
    }
    expect(existsSync(join(root, '.release'))).toBe(true);
  });
});
