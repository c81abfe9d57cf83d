// Side-by-side benchmarks: every task runs against a baseline in the same process, in rounds
// that alternate their order, and the result is the median of the per-round ratios. A shared,
// noisy machine moves absolute numbers; ratios measured side by side move much less.
import { Bench } from 'tinybench';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));

/**
 * Runs `baseline` and each of `tasks` (name → function) for `rounds` rounds and prints ops/s and
 * the median ratio task/baseline. Returns `{ name: ratio }`.
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
    const ratio = median(hz[name].map((v, i) => v / base[i]));
    ratios[name] = ratio;
    const label = name === baseline[0] ? 'baseline' : `${ratio.toFixed(2)}x baseline`;
    console.log(`  ${name.padEnd(44)} ${fmt(median(hz[name])).padStart(12)} ops/s   ${label}`);
  }
  return ratios;
}
