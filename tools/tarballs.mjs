#!/usr/bin/env node
// `pnpm tarballs [DIR]`: every public package packed as it would be published, into DIR
// (`tarballs/` in the repository by default), for projects that use the packages before they are
// on a registry. Prints the `npm install` lines that install them from there.
//
// Each file is named without its version (`pay-client.tgz`), so the lines in the READMEs and in a
// project's package.json stay true across releases. Running it again is safe: a package whose
// contents did not change keeps its file, byte for byte, so npm reinstalls only what changed.
// Run `pnpm build` first (the root `tarballs` script does).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { installSet, packAll, sameContents, tarballFile, tarballProblems } from './pack.mjs';
import { root } from './workspace.mjs';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length > 1) {
  console.error('usage: pnpm tarballs [DIR]   (default: tarballs/ in the repository)');
  process.exit(2);
}
// pnpm runs scripts from the repository root; a relative DIR means one relative to where the
// command was typed (INIT_CWD), as the user wrote it.
const dest = positionals[0] ? resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]) : join(root, 'tarballs');
mkdirSync(dest, { recursive: true });

const staging = mkdtempSync(join(dest, '.packing-'));
let packed = [];
try {
  packed = packAll(staging);
  const problems = packed.flatMap(tarballProblems);
  for (const p of problems) console.error(`tarballs: ${p}`);
  if (problems.length) {
    console.error('tarballs: nothing written (a file missing from dist/ means a package is not built: run `pnpm build`)');
    packed = [];
    process.exitCode = 1;
  }
  for (const pkg of packed) {
    const file = join(dest, tarballFile(pkg.name));
    if (!existsSync(file) || !sameContents(pkg.tarball, file)) renameSync(pkg.tarball, file);
    pkg.tarball = file;
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}
if (!packed.length) process.exit();

// Paths as typed into a shell: quoted when they hold anything but the usual path characters.
const quote = (path) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
// The packages a project uses only while it is developed and tested (a stand-in for the service,
// test tools): installed with --save-dev, as their READMEs say, so they stay out of the project's
// dependencies in production.
const DEV_TOOLS = new Set(['@pay/sandbox', '@pay/testing', '@pay/conformance']);
const line = (names, dev = false) =>
  `npm install ${dev ? '--save-dev ' : ''}${names.map((n) => quote(join(dest, tarballFile(n)))).join(' ')}`;
const width = Math.max(...packed.map((p) => p.name.length));

console.log(`Packed ${packed.length} packages into ${dest}:`);
for (const { name, version } of packed) console.log(`  ${name.padEnd(width)}  ${version}  ${tarballFile(name)}`);
console.log('\nIn your project, install a package with the @pay packages it depends on:');
for (const { name } of packed) console.log(`  ${name.padEnd(width)}  ${line(installSet([name]), DEV_TOOLS.has(name))}`);
// All of them: the dependencies first, then the development tools, which find theirs installed.
console.log('\nor all of them:');
console.log(`  ${line(packed.filter((p) => !DEV_TOOLS.has(p.name)).map((p) => p.name))}`);
console.log(
  `  ${line(
    packed.filter((p) => DEV_TOOLS.has(p.name)).map((p) => p.name),
    true,
  )}`,
);
console.log('\nAfter pulling changes, run this again, then the same npm install line: npm replaces what changed.');
