// The making half of `pnpm executables` (its other half builds the packages with turbo first):
// pay-conformance and pay-sandbox as single executables for this machine's platform, in bin/ at
// the repository root. Each is a copy of this Node carrying the bundled CLI (Node's single
// executable applications), made from the packages' dist/ folders as they are.
import { join } from 'node:path';
import { makeExecutables } from './executables/make.mjs';

for (const { file, bytes } of await makeExecutables(join(import.meta.dirname, '..', 'bin'))) {
  console.log(`${file}  ${(bytes / 2 ** 20).toFixed(1)} MiB`);
}
