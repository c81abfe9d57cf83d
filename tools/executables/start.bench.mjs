// How fast the single executables start, beside the npm package's CLIs on this Node: the median of
// 15 starts each (`--version` of pay-conformance, `--help` of pay-sandbox), in rounds that
// alternate the order. The README states these numbers; the target is under 1 s for each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from '../bench.mjs';
import { makeExecutables } from './make.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'pay-executables-bench-'));
try {
  const made = await makeExecutables(out);
  const file = (tool) => made.find((m) => m.tool === tool).file;
  const contenders = [
    ['pay-conformance --version (executable)', file('pay-conformance'), ['--version']],
    ['node conformance/dist/cli.js --version', process.execPath, [join(repo, 'conformance/dist/cli.js'), '--version']],
    ['pay-sandbox --help (executable)', file('pay-sandbox'), ['--help']],
    ['node packages/sandbox/dist/cli.js --help', process.execPath, [join(repo, 'packages/sandbox/dist/cli.js'), '--help']],
  ];
  const times = new Map(contenders.map(([name]) => [name, []]));
  for (let round = 0; round < 15; round++) {
    for (const [name, cmd, args] of round % 2 ? [...contenders].reverse() : contenders) {
      const started = performance.now();
      const { status } = spawnSync(cmd, args, { stdio: 'ignore' });
      times.get(name).push(performance.now() - started);
      if (status !== 0) throw new Error(`${name} exited ${status}`);
    }
  }
  console.log(`single executables: start time, median of 15 (node ${process.version}, ${process.platform}-${process.arch})`);
  for (const [name] of contenders) console.log(`  ${name.padEnd(44)} ${quantile(times.get(name), 0.5).toFixed(0).padStart(5)} ms`);
  for (const { file: f } of made) console.log(`  size of ${f.split('/').at(-1)}: ${(statSync(f).size / 2 ** 20).toFixed(1)} MiB`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
