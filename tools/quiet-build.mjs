#!/usr/bin/env node
// `pnpm sandbox` and `pnpm demo` build what they run first (`node tools/quiet-build.mjs
// --filter=@pay/sandbox...`, then the program): `turbo run build` with these arguments, quietly.
// A newcomer's first screen used to open with turbo's banner ("• Packages in scope: ...", the
// task summary) above the program's own lines. turbo 2.11 has no flag for that banner:
// `--output-logs=errors-only` hides the tasks' logs but not the banner, TURBO_PRINT_VERSION_DISABLED
// hides the version line only, and `--json` only turns the same lines into JSON. So its output is
// kept here and shown only when the build fails (then all of it, on standard error, and turbo's
// exit code). A build that takes a while says so in one line, so the wait is not a silent one.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './workspace.mjs';

/** After this long without a result, one line says a build is under way. */
const SAY_AFTER_MS = 2_000;

const args = process.argv.slice(2);
// turbo as this repository installed it: the scripts' PATH has it, a direct `node` may not.
const turbo = createRequire(join(root, 'package.json')).resolve('turbo/bin/turbo');
const child = spawn(process.execPath, [turbo, 'run', 'build', '--output-logs=errors-only', ...args], {
  cwd: root,
  env: { ...process.env, TURBO_PRINT_VERSION_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const output = [];
child.stdout.on('data', (chunk) => output.push(chunk));
child.stderr.on('data', (chunk) => output.push(chunk));
const what = args.filter((a) => a.startsWith('--filter=')).map((a) => a.slice('--filter='.length).replace(/\.\.\.$/, ''));
const slow = setTimeout(() => {
  process.stderr.write(
    `building ${what.join(', ') || 'the workspace'} and what it depends on (turbo; the first build takes a minute)...\n`,
  );
}, SAY_AFTER_MS);
child.on('error', (error) => {
  clearTimeout(slow);
  process.stderr.write(`quiet-build: cannot run turbo: ${error.message}\n`);
  process.exitCode = 1;
});
child.on('close', (code) => {
  clearTimeout(slow);
  if (code === 0) return;
  process.stderr.write(Buffer.concat(output));
  process.exitCode = code ?? 1;
});
