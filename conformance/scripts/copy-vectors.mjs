// Build step: ships the golden vectors inside dist/ so the built runner carries its own suite,
// and makes the CLI executable.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(pkg, '..', 'vectors');
const to = join(pkg, 'dist', 'vectors');
rmSync(to, { recursive: true, force: true });
const files = existsSync(from) ? readdirSync(from).filter((f) => f.endsWith('.json') && f !== 'package.json') : [];
if (files.length) {
  mkdirSync(to, { recursive: true });
  for (const f of files) copyFileSync(join(from, f), join(to, f));
}
const cli = join(pkg, 'dist', 'cli.js');
if (existsSync(cli)) chmodSync(cli, 0o755);
process.stderr.write(`conformance: ${files.length} vector file(s) copied into dist/vectors\n`);
