// `pnpm sandbox` and `pnpm demo` build quietly (tools/quiet-build.mjs): a build that succeeds
// prints nothing of turbo's (no "• Packages in scope", no task summary), so the program's own lines
// come first; one that fails prints turbo's whole output and exits with its code. Before, both
// scripts opened with turbo's banner.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../workspace.mjs';

const QUIET = join(root, 'tools', 'quiet-build.mjs');
const build = (...args) =>
  spawnSync(process.execPath, [QUIET, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// The builds here must not rewrite what other suites are reading: this file runs beside them, and
// turbo restores a cached build's dist/ in place. So the plain success is a package with nothing
// to build (turbo still prints its banner and summary), and the real build is the sandbox's own
// script, which CI has already built (turbo finds its outputs in place and leaves them).
describe('quiet-build', () => {
  it('a build that succeeds prints nothing', () => {
    const done = build('--filter=@pay/test-browser');
    expect(done.stderr).not.toMatch(/Packages in scope|Tasks:|turbo \d/);
    expect(done.stdout).toBe('');
    expect(done.status).toBe(0);
    // A long build says it is under way, in one line, and nothing of turbo's.
    expect(done.stderr).toMatch(
      /^(building @pay\/test-browser and what it depends on \(turbo; the first build takes a minute\)\.\.\.\n)?$/,
    );
  });

  it("a build that fails prints turbo's output and its exit code", () => {
    const done = build('--filter=@pay/no-such-package');
    expect(done.status).not.toBe(0);
    expect(done.stderr).toContain('@pay/no-such-package');
    expect(done.stdout).toBe('');
  });

  it('pnpm sandbox --help, its script run as pnpm runs it: the usage first, nothing of turbo', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const name of ['sandbox', 'demo']) expect(scripts[name]).toMatch(/^node tools\/quiet-build\.mjs --filter=\S+ && exec node /);
    const done = spawnSync('sh', ['-c', `${scripts.sandbox} --help`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(done.status).toBe(0);
    expect(done.stdout.startsWith('Usage: pay-sandbox')).toBe(true);
    expect(done.stderr).not.toMatch(/Packages in scope|Tasks:/);
  });
});
