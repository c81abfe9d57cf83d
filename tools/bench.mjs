// Side-by-side benchmarks: every task runs against a baseline in the same process, in rounds
// that alternate their order, and the result is the median of the per-round ratios. A shared,
// noisy machine moves absolute numbers; ratios measured side by side move much less.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';

/** The q-quantile (0 to 1) of `xs`, interpolated between neighbours. */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const low = Math.floor(at);
  return s[low] + (s[Math.ceil(at)] - s[low]) * (at - low);
}
const median = (xs) => quantile(xs, 0.5);
const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

/**
 * Runs `baseline` and each of `tasks` (name → function) for `rounds` rounds and prints ops/s, the
 * median ratio task/baseline, and the range of the middle half of the per-round ratios (how much a
 * shared machine moved them). Returns `{ name: ratio }`.
 */
export async function compare(title, baseline, tasks, { rounds = 5, time = 200 } = {}) {
  const names = [baseline[0], ...Object.keys(tasks)];
  const fns = { [baseline[0]]: baseline[1], ...tasks };
  const hz = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: 50 });
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) bench.add(name, fns[name]);
    await bench.run();
    for (const task of bench.tasks) hz[task.name].push(task.result.throughput.mean);
  }
  const ratios = {};
  console.log(`\n${title}`);
  const base = hz[baseline[0]];
  for (const name of names) {
    const perRound = hz[name].map((v, i) => v / base[i]);
    const ratio = median(perRound);
    ratios[name] = ratio;
    const spread = `middle half of rounds ${quantile(perRound, 0.25).toFixed(2)}-${quantile(perRound, 0.75).toFixed(2)}`;
    const label = name === baseline[0] ? 'baseline' : `${ratio.toFixed(2)}x baseline (${spread})`;
    console.log(`  ${name.padEnd(44)} ${fmt(median(hz[name])).padStart(12)} ops/s   ${label}`);
  }
  return ratios;
}

/**
 * The built package in `dir` as a merchant who has not installed its optional peer dependencies
 * gets it: its package.json and dist/ copied into a temporary node_modules, its dependencies
 * linked there, nothing else resolvable (`@opentelemetry/api`, say). A dependency that shares one
 * of those peers (@pay/otel, which loads `@opentelemetry/api` for the packages that record) is
 * copied the same way, or it would find the peer beside its workspace folder. Returns the
 * URL of that copy's root, to import its files from (`new URL('dist/index.js', root)`); the copy
 * is removed when the process exits.
 */
export function copyWithoutPeers(dir) {
  const modules = join(mkdtempSync(join(tmpdir(), 'pay-bench-')), 'node_modules');
  process.on('exit', () => rmSync(dirname(modules), { recursive: true, force: true }));
  const place = (from) => {
    const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
    const peers = Object.keys(manifest.peerDependencies ?? {});
    const copy = join(modules, manifest.name);
    if (existsSync(copy)) return copy;
    cpSync(join(from, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(from, 'package.json'), join(copy, 'package.json'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const real = realpathSync(join(from, 'node_modules', dependency));
      const theirs = Object.keys(JSON.parse(readFileSync(join(real, 'package.json'), 'utf8')).peerDependencies ?? {});
      if (theirs.some((peer) => peers.includes(peer))) place(real);
      else if (!existsSync(join(modules, dependency))) {
        mkdirSync(dirname(join(modules, dependency)), { recursive: true });
        symlinkSync(real, join(modules, dependency), 'dir');
      }
    }
    return copy;
  };
  return pathToFileURL(`${place(dir)}/`);
}

/**
 * Starts `node ...args` for a benchmark and resolves with the first match of `ready` in its output
 * (stdout and stderr); rejects with its output if it exits first. The child joins `children`, which
 * the benchmark kills when it ends.
 */
export function spawnUntil(args, ready, children) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) resolve(match);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited (${code}):\n${out}`)));
  });
}
