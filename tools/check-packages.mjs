#!/usr/bin/env node
// publint and Are The Types Wrong on every public package, as packed for publishing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packAll, tarballProblems } from './pack.mjs';
import { root } from './workspace.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);
const dest = mkdtempSync(join(tmpdir(), 'pay-pack-'));
let failed = false;
try {
  for (const pkg of packAll(dest)) {
    const checks = [
      ['publint', [bin('publint'), 'run', pkg.tarball, '--strict']],
      // ESM-only packages: CommonJS consumers on Node >= 20.19 load them through require(esm).
      ['attw', [bin('attw'), pkg.tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji']],
    ];
    for (const [label, [cmd, ...args]] of checks) {
      try {
        execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
        console.log(`${label}: ${pkg.name} ok`);
      } catch (error) {
        failed = true;
        console.error(`${label}: ${pkg.name} FAILED\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    }
    for (const problem of tarballProblems(pkg)) {
      failed = true;
      console.error(`tarball: ${problem}`);
    }
  }
} finally {
  rmSync(dest, { recursive: true, force: true });
}
if (failed) process.exit(1);
