// How fast a quick command of `pay-sandbox` starts, and what it loads: `pay-sandbox transactions`
// against a running sandbox, side by side with what it would cost if it loaded the sandbox itself
// (`import('@pay/sandbox')`), the admin client's own entry (`import('@pay/sandbox/admin')`) and
// bare node, in one run. Rounds alternate the order; what is compared is each case's time above
// bare node's in the same round (the part this package decides), as a ratio to the whole
// sandbox's: the median of the per-round ratios, with the middle half of them. The files each case loads are counted once, by module hooks (test/fixtures), and the
// modules Node loaded in all (`process.moduleLoadList`, Node's own included).
//
// BENCH_COMPARE=/path/to/another/packages/sandbox adds the same command from another build (an
// older checkout, say) to the same rounds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantile } from '../../../tools/bench.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const here = join(import.meta.dirname, '..');
const HOOKS = join(here, 'test', 'fixtures', 'count-modules.mjs');
const COUNT_ALL = "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmodules '+process.moduleLoadList.length+'\\n'))";

// The sandbox runs in a process of its own: the runs below block this one while they wait.
const server = spawn(process.execPath, [join(here, 'dist', 'cli.js'), '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const sandbox = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const url = /base URL\s+(\S+)/.exec(out)?.[1];
    if (url !== undefined) resolve({ url });
  });
  server.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
});
try {
  const cli = (dir) => [join(dir, 'dist', 'cli.js'), 'transactions', '--url', sandbox.url];
  const cases = [
    { name: 'bare node', args: ['-e', '0'] },
    { name: 'pay-sandbox transactions', args: cli(here) },
    ...(process.env.BENCH_COMPARE ? [{ name: `  the same, ${process.env.BENCH_COMPARE}`, args: cli(process.env.BENCH_COMPARE) }] : []),
    { name: "import('@pay/sandbox/admin')", args: ['--input-type=module', '-e', "await import('@pay/sandbox/admin')"] },
    { name: "import('@pay/sandbox')", args: ['--input-type=module', '-e', "await import('@pay/sandbox')"] },
  ];
  const run = (args, extra = [], env = {}) => {
    const started = process.hrtime.bigint();
    const done = spawnSync(process.execPath, [...extra, ...args], { cwd: here, encoding: 'utf8', env: { ...process.env, ...env } });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (done.status !== 0) throw new Error(`${args.join(' ')} exited ${done.status}: ${done.stderr}`);
    return { ms, stderr: done.stderr };
  };
  for (const c of cases) {
    const file = join(mkdtempSync(join(tmpdir(), 'quick-start-bench-')), 'files.txt');
    run(c.args, ['--import', HOOKS], { COUNT_MODULES_FILE: file });
    // Bare node loads no file at all: the hooks write nothing.
    c.files = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
    c.modules = Number(/modules (\d+)/.exec(run(c.args, ['--import', COUNT_ALL]).stderr)?.[1]);
    c.times = [];
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) c.times.push(run(c.args).ms);
  }
  const median = (xs) => quantile(xs, 0.5);
  const floor = median(cases[0].times);
  const whole = cases.at(-1);
  // Per round: a case's time above bare node's, over the whole sandbox's above bare node's.
  const ratios = (c) => c.times.map((t, i) => (t - cases[0].times[i]) / (whole.times[i] - cases[0].times[i]));
  console.log(`${ROUNDS} rounds, median wall time per process; "above node" is the time above bare node's`);
  for (const c of cases) {
    const ms = median(c.times);
    const r = ratios(c);
    const ratio =
      c === cases[0] ? '' : ` ${median(r).toFixed(2)}x the sandbox's (${quantile(r, 0.25).toFixed(2)} to ${quantile(r, 0.75).toFixed(2)})`;
    console.log(
      `${c.name.padEnd(34)} ${ms.toFixed(1).padStart(7)} ms  above node ${(ms - floor).toFixed(1).padStart(6)} ms${ratio}` +
        `  files ${String(c.files).padStart(4)}  modules in all ${c.modules}`,
    );
  }
} finally {
  server.kill();
}
