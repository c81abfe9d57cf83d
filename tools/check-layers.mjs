#!/usr/bin/env node
// Fails when a package depends upward or sideways against the layers in tools/layers.mjs, when
// files of a package's source import each other in a circle (import-circles.mjs), or when a
// function of a package's source spans more than 120 lines (function-lengths.mjs).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { longFunctions, MAX_FUNCTION_LINES } from './function-lengths.mjs';
import { importCircles, sourceFiles } from './import-circles.mjs';
import { allowed } from './layers.mjs';
import { root, workspacePackages } from './workspace.mjs';

const RUNTIME_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];
// Static imports, re-exports, dynamic imports and require() of a workspace package name.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"](@pay\/[a-z0-9-]+)/g;

/** @returns {string[]} one message per violation; empty when the layers hold */
export function checkLayers(base = root) {
  const problems = [];
  const packages = workspacePackages(base);
  const names = new Set(packages.map((p) => p.name));
  for (const { name, dir, manifest } of packages) {
    const mayUse = allowed[name];
    if (!mayUse) {
      problems.push(`${name}: not placed in a layer; add it to tools/layers.mjs`);
      continue;
    }
    for (const field of RUNTIME_FIELDS) {
      for (const dep of Object.keys(manifest[field] ?? {})) {
        if (names.has(dep) && !mayUse.includes(dep)) {
          problems.push(`${name}: ${field} names ${dep}, which is not below it`);
        }
      }
    }
    for (const file of sourceFiles(join(dir, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, dep] of text.matchAll(IMPORT)) {
        if (dep !== name && !mayUse.includes(dep)) {
          problems.push(`${name}: ${relative(base, file)} imports ${dep}, which is not below it`);
        }
      }
    }
    for (const circle of importCircles(join(dir, 'src'), base)) {
      problems.push(`${name}: import circle between ${circle.join(', ')}`);
    }
    for (const { at, lines, head } of longFunctions(join(dir, 'src'), base)) {
      problems.push(`${name}: ${at}: a function of ${lines} lines, more than ${MAX_FUNCTION_LINES} (split it): ${head}`);
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkLayers();
  for (const p of problems) console.error(`layers: ${p}`);
  if (problems.length) process.exit(1);
  console.log(
    `layers: every package depends only downward, no package imports in a circle, and no function spans more than ${MAX_FUNCTION_LINES} lines`,
  );
}
