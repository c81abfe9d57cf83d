// The files pay-conformance carries inside itself as SEA assets, in the layout its entry point
// (conformance/src/executable.ts) reads: the vector files the npm package ships in dist/vectors,
// and a manifest naming them, with the versions the package would read from package.json files.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const version = (dir) => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')).version;

/** The assets (key: file) for pay-conformance; writes the manifest into `workDir`. */
export function conformanceAssets(workDir) {
  const vectorsDir = join(repo, 'conformance', 'dist', 'vectors');
  const vectors = readdirSync(vectorsDir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (vectors.length === 0) throw new Error(`no vector files in ${vectorsDir}: build @pay/conformance first`);
  const manifest = join(workDir, 'manifest.json');
  const versions = {
    '@pay/conformance': version('conformance'),
    '@pay/sign': version('packages/sign'),
    '@pay/client': version('packages/client'),
  };
  writeFileSync(manifest, JSON.stringify({ versions, vectors }));
  return Object.fromEntries([['manifest.json', manifest], ...vectors.map((f) => [`vectors/${f}`, join(vectorsDir, f)])]);
}
