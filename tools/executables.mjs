// `pnpm executables`: pay-conformance and pay-sandbox as single executables for this machine's
// platform, in bin/ at the repository root (Node's single executable applications: a copy of
// this Node carrying the bundled CLI). Builds the workspace packages they are made from first.
//   node tools/executables.mjs [--no-build]    --no-build: use the dist/ folders as they are
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { makeExecutables } from './executables/make.mjs';

const repo = join(import.meta.dirname, '..');
if (!process.argv.includes('--no-build')) {
  // @pay/conformance depends on @pay/sandbox: one filter builds both and all they import.
  execFileSync('npx', ['turbo', 'run', 'build', '--filter=@pay/conformance...', '--output-logs=errors-only'], {
    cwd: repo,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
}
for (const { file, bytes } of await makeExecutables(join(repo, 'bin'))) {
  console.log(`${file}  ${(bytes / 2 ** 20).toFixed(1)} MiB`);
}
