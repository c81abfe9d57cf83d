// Import circles inside a package's source: two files (or more) that import each other, directly
// or around a loop, a type-only import included. A circle makes the files' load order decide what
// is defined when, and says two files are one concern split in the wrong place: a type both need
// goes in a file of its own. Run by check-layers.mjs (`pnpm check`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every source file under `dir`, depth first. */
export function* sourceFiles(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(?:[cm]?[jt]s|tsx)$/.test(entry)) yield path;
  }
}

// Static imports and re-exports (type-only ones too) and dynamic imports of a relative path.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.\.?\/[^'"]+)['"]/g;

/** The file a relative specifier names: `./a.js` is `a.ts` in TypeScript source, a directory its index. */
function resolveImport(from, specifier, files) {
  const target = resolve(dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), join(target, 'index.ts')];
  return candidates.find((c) => files.has(c));
}

/**
 * The circles among the files under `srcDir`, each as its files relative to `base`, sorted.
 * @returns {string[][]}
 */
export function importCircles(srcDir, base) {
  const files = new Set(sourceFiles(srcDir));
  const edges = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(file, specifier, files);
      if (target !== undefined) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  // Tarjan's strongly connected components: each with more than one file, or a file importing
  // itself, is a circle.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file).includes(file)) circles.push(component.map((f) => relative(base, f)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}
