// Loads a suite: the vector files of a directory (the shipped copy by default, or the copy built
// into the single executable), parsed, and checked to belong together (one suite, one version, no
// category or id twice, every required vector in its file).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCategoryFile, requiredIds } from './vector-file.js';
import { getBuiltIn, type VectorText } from '../built-in.js';
import { VectorError } from '../errors.js';
import type { Suite } from '../types.js';

/** Where the runner is compiled to (dist/): this file is dist/harness/vectors.js. */
const runnerDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the vectors are when no directory is given: the copy the build puts next to the
 * compiled runner (dist/vectors), else the repository's vectors/ directory.
 */
function defaultVectorsDir(): string {
  const candidates = [join(runnerDir, 'vectors'), resolve(runnerDir, '..', '..', 'vectors')];
  for (const dir of candidates) {
    if (existsSync(dir) && vectorFiles(dir).length > 0) return dir;
  }
  return candidates[candidates.length - 1]!;
}

const NOT_VECTORS = new Set(['schema.json', 'package.json']);

/** Whether a file of a vectors directory is a vector file (not the schema, a dotfile or a tsconfig). */
const isVectorFile = (f: string) => f.endsWith('.json') && !NOT_VECTORS.has(f) && !f.startsWith('.') && !f.startsWith('tsconfig');

function vectorFiles(dir: string): string[] {
  return readdirSync(dir).filter(isVectorFile).sort();
}

/** The suite the runner ships: the one built into the executable, else the default directory's. */
export function defaultSuite(): Suite {
  const builtIn = getBuiltIn();
  if (!builtIn) return loadSuite(defaultVectorsDir());
  const files = builtIn
    .vectors()
    .filter((v) => isVectorFile(v.file))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return suiteOf(builtIn.vectorsLabel, files);
}

/** The suite in `dir`, every file parsed and checked against the others. */
export function loadSuite(dir: string): Suite {
  if (!existsSync(dir)) throw new VectorError(`vectors directory not found: ${dir}`);
  return suiteOf(
    dir,
    vectorFiles(dir).map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') })),
  );
}

/** The suite of these files (from `dir`, as messages and reports say), checked against each other. */
function suiteOf(dir: string, files: readonly VectorText[]): Suite {
  if (files.length === 0) throw new VectorError(`no vector files (*.json) in ${dir}`);
  const categories = files.map((f) => parseCategoryFile(f.text, f.file));
  const suites = new Set(categories.map((c) => c.suite));
  if (suites.size > 1) throw new VectorError(`${dir}: files from different suites (${[...suites].join(', ')})`);
  const versions = [...new Set(categories.map((c) => c.suite_version))];
  if (versions.length > 1) throw new VectorError(`${dir}: files with different suite versions (${versions.join(', ')})`);
  const seen = new Map<string, string>();
  const names = new Set<string>();
  for (const c of categories) {
    if (names.has(c.category)) throw new VectorError(`${c.file}: category "${c.category}" appears in two files`);
    names.add(c.category);
    for (const v of c.vectors) {
      const other = seen.get(v.id);
      if (other) throw new VectorError(`${c.file}: vector id "${v.id}" also appears in ${other}`);
      seen.set(v.id, c.file);
    }
  }
  for (const c of categories) {
    const own = new Map(c.vectors.map((v) => [v.id, v]));
    for (const v of c.vectors) {
      for (const id of requiredIds(v)) {
        const needed = own.get(id);
        if (!needed) throw new VectorError(`${c.file} (${v.id}): requires "${id}", which is not a vector of this file`);
        if (needed.kind === 'verify' && needed.expected.verdict === 'acceptable')
          throw new VectorError(`${c.file} (${v.id}): requires "${id}", itself acceptable`);
      }
    }
  }
  return { dir, suite: categories[0]!.suite, suite_version: versions[0]!, categories };
}
