// The embedded PGlite's start, in a new process each time (as a program or a test run starts it),
// with no cluster kept (initdb runs: the first start on a machine) and from the cluster the first
// start kept in the cache directory, in alternating order. Each child reports the journal's own
// `embedded_database` ready time and its whole run until the journal is open.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantile } from '../../../tools/bench.mjs';

const child = `
  const started = Date.now();
  const { createClient } = await import('@pay/client');
  const { openJournal } = await import('@pay/journal');
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_bench', secret: 'sk_test_bench' });
  let ready;
  const journal = await openJournal({ client, onReport: (r) => { if (r.type === 'embedded_database' && r.state === 'ready') ready = r; } });
  const open = Date.now() - started;
  await journal.close();
  console.log(JSON.stringify({ cluster: ready.cluster, ms: ready.ms, open }));
`;
const run = (cache) =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', child], {
      env: { ...process.env, XDG_CACHE_HOME: cache },
      encoding: 'utf8',
    }),
  );

const ROUNDS = 3;
const made = [];
const copied = [];
const kept = mkdtempSync(join(tmpdir(), 'pay-bench-cache-'));
try {
  run(kept); // keeps the cluster the copies start from
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ['copied', 'made'] : ['made', 'copied'];
    for (const what of order) {
      if (what === 'copied') copied.push(run(kept));
      else {
        const empty = mkdtempSync(join(tmpdir(), 'pay-bench-cache-'));
        try {
          made.push(run(empty));
        } finally {
          rmSync(empty, { recursive: true, force: true });
        }
      }
    }
  }
} finally {
  rmSync(kept, { recursive: true, force: true });
}
if (made.some((r) => r.cluster !== 'made_and_kept') || copied.some((r) => r.cluster !== 'copied'))
  throw new Error(`a start did not go the way it was measured for: ${JSON.stringify({ made, copied })}`);
const median = (xs) => quantile(xs, 0.5);
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\n@pay/journal embedded PGlite start, a new process each (node ${process.version}), median of ${ROUNDS}`);
console.log(
  `  initdb (nothing kept yet)            ready ${s(median(made.map((r) => r.ms)))}   open ${s(median(made.map((r) => r.open)))}`,
);
console.log(
  `  from the kept cluster                ready ${s(median(copied.map((r) => r.ms)))}   open ${s(median(copied.map((r) => r.open)))}`,
);
const ratios = made.map((r, i) => r.open / copied[i].open);
console.log(
  `  a start from the kept cluster is ${median(ratios).toFixed(1)}x as fast (per round ${ratios.map((x) => x.toFixed(1)).join(', ')})`,
);
