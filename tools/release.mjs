#!/usr/bin/env node
// `pnpm release [--dry-run]`: pack every public package into .release/, check each tarball, and
// (without --dry-run) publish those very tarballs, skipping versions the registry already has,
// then tag them. Packing once and publishing the checked bytes means what was checked is what ships.
// Run `pnpm build` first (the root `release` script does).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { exportsNothing, packAll, tarballProblems } from './pack.mjs';
import { root } from './workspace.mjs';

const dryRun = process.argv.includes('--dry-run');
const dest = join(root, '.release');
rmSync(dest, { recursive: true, force: true });
const packed = packAll(dest);
const problems = packed.flatMap(tarballProblems);
if (problems.length) {
  for (const p of problems) console.error(`release: ${p}`);
  process.exit(1);
}
for (const { name, version, tarball } of packed) {
  console.log(`release: packed ${name}@${version} -> ${tarball}`);
}
const empty = packed.filter(exportsNothing).map((p) => p.name);
if (dryRun) {
  console.log(`release: dry run, ${packed.length} packages packed, nothing published`);
  if (empty.length) console.log(`release: would refuse to publish ${empty.join(', ')}: nothing exported yet`);
  process.exit(0);
}
if (empty.length) {
  // The four libraries are versioned together, so an unwritten one would otherwise go out empty.
  console.error(`release: refusing to publish ${empty.join(', ')}: the package exports nothing yet`);
  process.exit(1);
}

function published(name, version) {
  try {
    execFileSync('npm', ['view', `${name}@${version}`, 'version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    return true;
  } catch {
    return false;
  }
}

for (const { name, version, tarball } of packed) {
  if (published(name, version)) {
    console.log(`release: ${name}@${version} is already published, skipped`);
    continue;
  }
  execFileSync('npm', ['publish', tarball, '--access', 'public'], { stdio: 'inherit' });
}
execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['tag'], { stdio: 'inherit', cwd: root });
