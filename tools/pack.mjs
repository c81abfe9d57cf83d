// Packs every public package with pnpm (which rewrites `workspace:` ranges to real versions),
// exactly as `pnpm publish` would, and reads a tarball's file list without unpacking it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { publicPackages, root } from './workspace.mjs';

/** pnpm as [command, leading arguments]: the one running this script when pnpm runs it, else the one on PATH. */
export const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, [process.env.npm_execpath]] : ['pnpm', []];

/** Packs every public package into `destination`. @returns {{ name: string, version: string, dir: string, tarball: string }[]} */
export function packAll(destination) {
  return packEach(publicPackages(), destination);
}

/**
 * Packs `packages` into `destination` with one pnpm process (`pnpm --recursive --filter <name>…
 * pack`), in the order given: starting pnpm costs more CPU than packing a package (about 0.35 s
 * each, against 0.75 s for all ten packed at once), and the tests pack every package several times
 * a run.
 * @returns {{ name: string, version: string, dir: string, tarball: string }[]}
 */
export function packEach(packages, destination) {
  const dest = resolve(destination);
  mkdirSync(dest, { recursive: true });
  const filters = packages.flatMap(({ name }) => ['--filter', name]);
  const out = execFileSync(pnpm[0], [...pnpm[1], '--recursive', ...filters, 'pack', '--pack-destination', dest, '--json'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // One package packed is printed as an object, several as an array; a name no package has, as nothing.
  let printed;
  try {
    printed = out.trim() === '' ? [] : [JSON.parse(out)].flat();
  } catch {
    throw new Error(`pnpm pack printed something other than JSON:\n${out}`);
  }
  const tarballs = new Map(printed.map((p) => [p.name, p.filename]));
  return packages.map(({ name, dir, manifest }) => {
    const tarball = tarballs.get(name);
    if (!tarball) throw new Error(`pnpm pack printed no tarball for ${name}:\n${out}`);
    return { name, version: manifest.version, dir, tarball: resolve(dest, tarball) };
  });
}

/** A package's tarball file name without its version (`@pay/client` -> `pay-client.tgz`), so install lines stay true across releases. */
export function tarballFile(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}.tgz`;
}

/**
 * The public packages to install from tarballs to use `names`: those, then (sorted) every package
 * of this workspace they depend on, transitively. A packed package names its workspace
 * dependencies at their exact version (pnpm rewrites `workspace:*`), which no registry has before
 * a release: npm finds them only among the tarballs it is given.
 */
export function installSet(names, packages = publicPackages()) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const needed = new Set();
  const visit = (name) => {
    const pkg = byName.get(name);
    if (!pkg) throw new Error(`${name} is not a public package of this workspace`);
    if (needed.has(name)) return;
    needed.add(name);
    for (const [dep, range] of Object.entries(pkg.manifest.dependencies ?? {})) {
      if (String(range).startsWith('workspace:')) visit(dep);
    }
  };
  for (const name of names) visit(name);
  const first = [...new Set(names)];
  return [...first, ...[...needed].filter((n) => !first.includes(n)).sort()];
}

/**
 * Whether two tarballs hold the same files with the same bytes. package.json is compared as JSON:
 * pnpm writes the versions it puts in place of `workspace:` ranges in whatever order it resolved
 * them, so two packs of the same package can differ there and nowhere else.
 */
export function sameContents(a, b) {
  const left = readTarball(a);
  const right = new Map(readTarball(b).map((e) => [e.path, e.body]));
  if (left.length !== right.size) return false;
  return left.every(({ path, body }) => {
    const other = right.get(path);
    if (!other) return false;
    if (path === 'package/package.json') return isDeepStrictEqual(JSON.parse(body.toString('utf8')), JSON.parse(other.toString('utf8')));
    return body.equals(other);
  });
}

/**
 * Entries of a .tgz: `{ path, body }`, body as a Buffer. A tar archive is 512-byte blocks: a
 * header (name at 0, octal size at 124, type at 156, ustar prefix at 345) and the file's blocks.
 * A path too long for the header comes in a record before its file: a PAX header (type `x`,
 * `path=` record; node-tar, so npm and pnpm) or a GNU long name (type `L`; GNU tar).
 */
export function readTarball(file) {
  const tar = gunzipSync(readFileSync(file));
  const entries = [];
  let longPath;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from, len) =>
      header
        .subarray(from, from + len)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longPath = body.toString('utf8').replace(/\0.*$/s, '');
    } else if (type === 'x') {
      // PAX records: "<length> <key>=<value>\n"
      longPath = body.toString('utf8').match(/^\d+ path=(.*)$/m)?.[1] ?? longPath;
    } else if (type === '0' || type === '') {
      const prefix = text(345, 155);
      entries.push({ path: longPath ?? (prefix ? `${prefix}/` : '') + text(0, 100), body });
      longPath = undefined;
    } else {
      longPath = undefined;
    }
  }
  return entries;
}

/** Problems with a packed tarball that publint and attw do not look for. */
export function tarballProblems({ name, tarball }) {
  const entries = readTarball(tarball);
  const paths = entries.map((e) => e.path);
  const problems = [];
  const manifestEntry = entries.find((e) => e.path === 'package/package.json');
  if (!manifestEntry) return [`${name}: no package.json in the tarball`];
  const manifest = JSON.parse(manifestEntry.body.toString('utf8'));
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${name}: ${field}.${dep} is still ${range}`);
    }
  }
  // What the manifest promises must be in the tarball: the README, every file `exports` names
  // (types and code), and every `bin`.
  const promised = (value) => (typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap(promised));
  const required = ['README.md', ...promised(manifest.exports), ...promised(manifest.bin)];
  for (const file of required) {
    if (file.includes('*')) continue; // a pattern: publint checks what it matches
    const path = `package/${file.replace(/^\.\//, '')}`;
    if (!paths.includes(path)) problems.push(`${name}: ${path.slice(8)} missing from the tarball`);
  }
  for (const path of paths) {
    // Python's bytecode: written next to an adapter whenever a test runs it (conformance's files
    // leave it out; this catches any package whose files would not).
    if (
      /^package\/(?:src|test|bench|\.reports|node_modules)\//.test(path) ||
      /\.test\.[jt]s$/.test(path) ||
      /(?:^|\/)__pycache__\/|\.py[co]$/.test(path)
    ) {
      problems.push(`${name}: ${path.slice(8)} should not be published`);
    }
  }
  return problems;
}

/**
 * Whether a packed library exports nothing yet (its entry is an empty module): such a package is
 * packed and checked like the others, but never published.
 */
export function exportsNothing({ tarball }) {
  const entries = readTarball(tarball);
  const manifest = JSON.parse(entries.find((e) => e.path === 'package/package.json').body.toString('utf8'));
  const entry = manifest.exports?.['.']?.default;
  if (!entry) return false; // not a library (a CLI, say)
  const code = entries.find((e) => e.path === `package/${entry.replace(/^\.\//, '')}`)?.body.toString('utf8') ?? '';
  return !/\bexport\s+(?:\{\s*[^}\s]|\*|const|function|class|let|var|default|async)/.test(code);
}
