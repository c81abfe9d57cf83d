// The sandbox of reconciler-backlog.bench.mjs, in a process of its own: it knows `count` payins,
// `pi_b1` to `pi_b<count>` (reference_id `bench-<n>`), every tenth `executed` and the rest `new`,
// so each lookup of the bench's backlog finds its transaction as a real service would. They are
// loaded from a state file (the sandbox's own restart path): creating 100 000 through the API would
// take longer than the pass measured. In its own process, its 100 000 records and its request
// handling are not counted in the bench's memory. Prints its URL, and stops when stdin ends.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@pay/client';
import { startSandbox } from '@pay/sandbox';
import { EXAMPLES } from '@pay/schema';

export const BENCH_MERCHANT = { id: 'm_backlog', secret: 'sk_test_backlog' };
/** The sandbox's status of payin `n` (1-based): every tenth is paid, the rest still new. */
export const sandboxStatus = (n) => (n % 10 === 0 ? 'executed' : 'new');

/** Starts the sandbox with `count` payins; resolves with it and a function that removes its state file. */
async function sandboxWith(count) {
  // One payin made the ordinary way, as the sandbox saves it: the template of every other record.
  const scratch = await startSandbox({ merchants: [BENCH_MERCHANT] });
  const client = createClient({ baseUrl: scratch.url, merchantId: BENCH_MERCHANT.id, secret: BENCH_MERCHANT.secret });
  await client.payins.create({ ...EXAMPLES.createPayin, reference_id: 'template', payment: { amount: '10.00', currency: 'EUR' } });
  const snapshot = await scratch.admin.snapshot();
  await scratch.close();
  const [template] = snapshot.transactions;
  // Never expiring while the bench runs: a `new` payin would otherwise expire after 30 min.
  const farAway = Date.UTC(9000, 0, 1);
  const transactions = Array.from({ length: count }, (_, i) => ({
    ...template,
    id: `pi_b${i + 1}`,
    referenceId: `bench-${i + 1}`,
    status: sandboxStatus(i + 1),
    expiresAt: farAway,
    cardToken: null,
    history: [],
  }));
  const dir = await mkdtemp(join(tmpdir(), 'backlog-sandbox-'));
  const stateFile = join(dir, 'state.json');
  await writeFile(stateFile, JSON.stringify({ ...snapshot, transactions, deliveries: [] }));
  const sandbox = await startSandbox({ merchants: [BENCH_MERCHANT], maxTransactions: count, stateFile });
  return { sandbox, removeFile: () => rm(dir, { recursive: true, force: true }) };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { sandbox, removeFile } = await sandboxWith(Number(process.argv[2]));
  process.stdout.write(`${sandbox.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await sandbox.close();
    await removeFile();
    process.exit(0);
  });
}
