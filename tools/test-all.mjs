#!/usr/bin/env node
// `pnpm test` after its build: every workspace package's `test` task through turbo, three at a
// time, the longest suites first. One `turbo run test` starts the tasks that are ready in an order
// nobody sets: on a clean clone it started the short suites first and @pay/tools two minutes in,
// so that the longest ran on at the end while the short ones were long done (379 s, where the same
// suites longest first fill both cores to the end). turbo still runs each task (its environment,
// its cache, its prefixed output); this only says when each one starts.
//
//   node tools/test-all.mjs        exit 1 when a package's tests failed (every package still runs)
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, workspacePackages } from './workspace.mjs';

/**
 * The suites that take longest on two cores, longest first (a clean clone's run, each package's
 * wall time: journal 215 s, tools 207, conformance 177, sandbox 82, testing 80, the shop 62, the
 * time-skipping example 45, the client 43). Every other package follows, by name: a new package
 * runs whether or not it is named here.
 */
export const LONGEST_FIRST = [
  '@pay/journal',
  '@pay/tools',
  '@pay/conformance',
  '@pay/sandbox',
  '@pay/testing',
  '@pay/example-shop',
  '@pay/example-time-skipping',
  '@pay/client',
];

/** How many packages' tests run at once: two cores, and a third for the time one spends waiting. */
const LANES = 3;

/** `names` in the order their tests start: those in LONGEST_FIRST in its order, then the rest as given. */
export function startOrder(names) {
  const rank = (name) => {
    const i = LONGEST_FIRST.indexOf(name);
    return i === -1 ? LONGEST_FIRST.length : i;
  };
  return names
    .map((name, i) => ({ name, i }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.i - b.i)
    .map((e) => e.name);
}

/**
 * Runs `start(job)` for each job, at most `lanes` at a time, in the order given: a job starts as
 * soon as one before it ends. Resolves with each job's result (what its promise resolved with, or
 * the error it rejected with), in the order given; a job that fails stops none of the others.
 */
export async function runInLanes(jobs, lanes, start) {
  const results = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await start(jobs[i]).catch((error) => error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, jobs.length) }, lane));
  return results;
}

/** One package's `test` task through turbo, its output on ours; resolves with its exit code. */
function turboTest(name) {
  return new Promise((resolve) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'test', '--only', `--filter=${name}`], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(signal === null ? (code ?? 1) : 1));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = startOrder(
    workspacePackages()
      .filter((p) => p.manifest.scripts?.test)
      .map((p) => p.name),
  );
  const codes = await runInLanes(names, LANES, turboTest);
  const failed = names.filter((_, i) => codes[i] !== 0);
  console.log(
    `\ntest-all: ${names.length - failed.length} of ${names.length} packages passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
  );
  process.exitCode = failed.length ? 1 : 0;
}
