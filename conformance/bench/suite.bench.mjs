// Wall time of the whole suite, as a user runs it (one CLI process, one long-lived child):
// against the bundled reference adapter and against the Python example adapter.
// Several repetitions each; prints the median. Run after a build: pnpm bench
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(pkg, 'dist', 'cli.js');
const REPS = Number(process.env.BENCH_REPS ?? 7);

const targets = [
  { name: 'reference adapter (@pay/sign)', args: ['run'] },
  { name: 'python adapter (stdlib)', args: ['run', '--impl', `python3 ${join(pkg, 'adapters', 'python', 'adapter.py')}`] },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

let failed = false;
const rows = [];
for (const t of targets) {
  const times = [];
  let cases = 0;
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, ...t.args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    times.push(performance.now() - t0);
    if (r.status !== 0) {
      failed = true;
      console.error(`${t.name}: exit ${r.status}\n${r.stdout}${r.stderr}`);
      break;
    }
    cases = Number(/PASS (\d+) passed/.exec(r.stdout)?.[1] ?? 0);
  }
  rows.push({
    suite: t.name,
    cases,
    reps: times.length,
    'median ms': Math.round(median(times)),
    'min ms': Math.round(Math.min(...times)),
    'max ms': Math.round(Math.max(...times)),
  });
}
console.table(rows);
for (const r of rows) if (r['median ms'] >= 2000) console.warn(`${r.suite}: median ${r['median ms']} ms is over the 2 s budget`);
if (failed) process.exit(1);
