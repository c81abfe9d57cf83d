// The repository's own conformance table: the reference adapter (on @pay/sign and @pay/client) and
// the Python example (adapters/python) each run in client mode (the SDK) and in run mode (the
// signing vectors, over the harness protocol) with --report, merged by `report --no-versions` into
// results/ (README.md, index.html, a badge per implementation: one row each, both modes in it). Never written
// by hand: `pnpm conformance-results` from the repository root (which builds first) writes it, and
// test/client.test.ts runs this script again and fails when the committed copy differs.
//
// What it writes depends only on the verdicts: no time, duration, port, path or version (a
// release must not make it stale; the table is of the code beside it). Each run's own directory
// (its page, with the evidence, which names ports and record ids) stays out of it (see --runs).
//
//   node scripts/results.mjs [--out DIR] [--runs DIR]
//     --out   where the table goes (default: results/ beside this script's package)
//     --runs  where each run's report directory goes, DIR/<name> (default: a temporary directory,
//             removed after): one already there is taken as it is, not run again. The package's
//             tests pass it, with the client-mode runs they make anyway (the same arguments, and
//             --report DIR/<name>), so that those are not made twice.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const pkg = resolve(import.meta.dirname, '..');
const cli = join(pkg, 'dist', 'cli.js');
const { values } = parseArgs({ options: { out: { type: 'string' }, runs: { type: 'string' } } });
const out = resolve(values.out ?? join(pkg, 'results'));

/** The implementations, each by the client-mode arguments that drive it. */
const PYTHON = ['--impl', `python3 ${JSON.stringify(join(pkg, 'adapters', 'python', 'adapter.py'))}`];
const IMPLEMENTATIONS = [
  ['reference-client', ['client']],
  ['python-client', ['client', ...PYTHON]],
  ['reference-run', ['run']],
  ['python-run', ['run', ...PYTHON]],
];

if (!existsSync(cli)) {
  console.error(`results: ${cli} is missing: build first (pnpm conformance-results builds, then runs this)`);
  process.exit(2);
}

/** Runs the CLI; exit 0 or 1 are verdicts (the table shows them), anything else is the harness failing. */
function pay(args) {
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: pkg, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`pay-conformance ${args.join(' ')} exited ${run.status ?? run.signal}\n${run.stdout}`);
  return run;
}

const work = mkdtempSync(join(tmpdir(), 'pay-conformance-results-'));
const runs = values.runs === undefined ? work : resolve(values.runs);
try {
  // One after the other: each run is two SDK copies against two services, and a loaded machine's
  // slow answer must not be taken for a lost one.
  for (const [name, args] of IMPLEMENTATIONS) {
    const dir = join(runs, name);
    const summary = join(dir, 'summary.json');
    const code = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')).exit_code : pay([...args, '--report', dir]).status;
    console.error(`results: ${name}: ${code === 0 ? 'every case passed' : 'some cases failed (the table shows which groups)'}`);
  }
  const merged = join(work, 'merged');
  const table = pay(['report', ...IMPLEMENTATIONS.map(([name]) => join(runs, name)), '--out', merged, '--no-versions']);
  // Only what `report --out` writes is replaced (a badge of an implementation no longer listed goes).
  mkdirSync(out, { recursive: true });
  for (const file of ['README.md', 'index.html', 'badges']) rmSync(join(out, file), { recursive: true, force: true });
  for (const file of readdirSync(merged)) cpSync(join(merged, file), join(out, file), { recursive: true });
  process.stdout.write(table.stdout);
  console.error(`results: written to ${out}`);
} catch (e) {
  console.error(`results: ${e.message}`);
  process.exitCode = 2;
} finally {
  rmSync(work, { recursive: true, force: true });
}
