#!/usr/bin/env node
// `pnpm release [--dry-run] [--registry URL] [--pack-destination DIR]`: pack every public package
// (into .release/ by default), check each tarball, and (without --dry-run) publish those very
// tarballs, skipping versions the registry already has, then tag them. Packing once and
// publishing the checked bytes means what was checked is what ships.
//
// --registry URL publishes to another registry than the configured one: a rehearsal (the
// registry test publishes to a local Verdaccio this way). A rehearsal makes no git tags, and
// skips a library that exports nothing yet instead of refusing the whole release.
// Run `pnpm build` first (the root `release` script does).
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { exportsNothing, packAll, tarballProblems } from './pack.mjs';
import { root } from './workspace.mjs';

const { values: options } = parseArgs({
  options: {
    'dry-run': { type: 'boolean' },
    registry: { type: 'string' },
    'pack-destination': { type: 'string' },
  },
});
const dryRun = options['dry-run'] ?? false;
const registry = options.registry;
const registryArgs = registry ? ['--registry', registry] : [];
const dest = resolve(options['pack-destination'] ?? join(root, '.release'));
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
if (empty.length && !registry) {
  // The four libraries are versioned together, so an unwritten one would otherwise go out empty.
  console.error(`release: refusing to publish ${empty.join(', ')}: the package exports nothing yet`);
  process.exit(1);
}
if (empty.length) console.log(`release: skipped ${empty.join(', ')}: nothing exported yet (a real release refuses)`);

/** Whether the registry already has `name@version` (`npm view` finds it). */
async function published(name, version) {
  try {
    await promisify(execFile)('npm', ['view', `${name}@${version}`, 'version', ...registryArgs]);
    return true;
  } catch {
    return false;
  }
}

// Asked of every package at once: each answer costs an npm process's start (seconds on a busy
// machine), and none depends on another. The publishing below stays in order.
const toPublish = packed.filter(({ name }) => !empty.includes(name));
const alreadyPublished = await Promise.all(toPublish.map(({ name, version }) => published(name, version)));
for (const [i, { name, version, tarball }] of toPublish.entries()) {
  if (alreadyPublished[i]) {
    console.log(`release: ${name}@${version} is already published, skipped`);
    continue;
  }
  execFileSync('npm', ['publish', tarball, '--access', 'public', ...registryArgs], { stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`release: published ${name}@${version}${registry ? ` to ${registry}` : ''}`);
}
if (registry) {
  console.log('release: a rehearsal on another registry: no git tags');
} else {
  execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['tag'], { stdio: 'inherit', cwd: root });
}
