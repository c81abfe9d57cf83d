// The workspace as data: where each package lives and what its manifest says.
// Everything in tools/ reads the workspace through here, so a new package needs no edits elsewhere.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Workspace globs from pnpm-workspace.yaml (only the `- dir` and `- dir/*` forms are used here). */
function workspaceGlobs(base) {
  const yaml = readFileSync(join(base, 'pnpm-workspace.yaml'), 'utf8');
  return [...yaml.matchAll(/^\s*-\s*['"]?([^'"\s#]+)['"]?\s*$/gm)].map((m) => m[1]);
}

/** @returns {{ name: string, dir: string, manifest: any }[]} every workspace package, sorted by name */
export function workspacePackages(base = root) {
  const dirs = [];
  for (const glob of workspaceGlobs(base)) {
    if (glob.endsWith('/*')) {
      const parent = join(base, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else {
      dirs.push(join(base, glob));
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return { name: manifest.name, dir, manifest };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The packages that are published to the registry. */
export function publicPackages(base = root) {
  return workspacePackages(base).filter((p) => p.manifest.private !== true);
}
