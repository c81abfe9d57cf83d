// The randomised run: 300 payins created by three shop processes on one real PostgreSQL, each
// reference shared by two of them, while the processes are SIGKILLed at random and restarted
// (then recover()), the sandbox injects faults (dropped connections, 500 after commit, delays,
// lookups that lag), transactions change status, and webhooks arrive twice, late and out of order
// (the sandbox's resend, and captured deliveries re-sent to another process). At the end every
// transaction's status is resent once more, then the sandbox and the journal are compared.
// Seeded: the seed is printed, and JOURNAL_SEED=<seed> replays the same choices (the machine's
// timing still varies). The processes build their client from a second installed copy of
// @pay/client (helpers/second-copy.ts), as an app and a journal pinning different versions do.
// With RESEND_AROUND_JOURNAL=1 the processes' client is the deliberately wrong one (a create whose
// answer was lost is sent again around the journal: fixtures/client-from-env.mjs), and the run
// must fail on its duplicates.
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { isTerminalStatus, TERMINAL_STATUSES } from '@pay/schema';
import { exactlyOnceReport } from '@pay/test-oracle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { freshSchema } from './helpers/backends.js';
import { startInstance } from './helpers/instances.js';
import { postgresAvailable } from '@pay/test-support/postgres';
import { secondClientCopy } from './helpers/second-copy.js';
import { sharedServerAndSandbox } from './helpers/shared-server.js';
import { shopClient } from './helpers/shop.js';

const CREATES = 300;
const PROCESSES = 3;
const MAX_KILLS = 6;
const CHAOS_MS = 12_000;
const SEED = Number(process.env['JOURNAL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
// The client's whole call is short here, so a killed create's lease (and its recovery) is seconds.
const LIMITS = { TOLERANCE_S: '2', SETTLE_S: '1', TOTAL_TIMEOUT_MS: '2000', IN_FLIGHT_LEASE_MS: '6500' };

/** mulberry32: small, seedable, good enough to pick actions. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe.skipIf(!postgresAvailable)('the randomised run', () => {
  // Only on a sandbox that accepts a used reference_id as a new transaction: there a create sent
  // twice is a second record, whatever the client then makes of it, where the default sandbox's
  // 409 is resolved by the client's lookup and leaves one record. The run again in the default
  // mode would double this file's time for the weaker oracle; the default mode's count of creates
  // refused as duplicates is kept by the cheaper tests (journal, fail-safe, processes).
  const shared = sharedServerAndSandbox('randomised', 4, { uniqueReferences: false });
  let copy: Awaited<ReturnType<typeof secondClientCopy>>;
  beforeAll(async () => {
    copy = await secondClientCopy();
  });
  afterAll(() => copy?.remove());

  it(`${CREATES} creates across ${PROCESSES} processes with kills, faults and duplicate, late webhooks: nothing lost, duplicated or regressed`, async () => {
    const rand = random(SEED);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const schema = freshSchema();
    const run = `rr${SEED}`;
    const parent = await openJournal({ client: shopClient(shared.sandbox.url), database: shared.pool, schema });
    await shared.pool.query(`CREATE TABLE "${schema}".handled (kind text, id text, status text, pid int)`);

    // The public webhook address: a proxy that hands each delivery to a live process at random,
    // keeps a copy, and answers 503 while none is up (the service retries).
    const workers: { url?: string; child?: ChildProcess; done: boolean }[] = Array.from({ length: PROCESSES }, () => ({ done: false }));
    const live = () => workers.filter((w) => w.url !== undefined);
    const captured: { headers: Record<string, string>; body: Buffer }[] = [];
    const deliver = async (to: string, d: { headers: Record<string, string>; body: Buffer }) =>
      (await fetch(to, { method: 'POST', headers: d.headers, body: new Uint8Array(d.body), signal: AbortSignal.timeout(5_000) })).status;
    const proxy = createServer(async (req, res) => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!['host', 'content-length', 'connection'].includes(k)) headers[k] = String(v);
      const delivery = { headers, body };
      captured.push(delivery);
      const up = live();
      const status = up.length === 0 ? 503 : await deliver(pick(up).url!, delivery).catch(() => 502);
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/webhooks/pay`;

    // Each reference belongs to two of the processes: they race for it through the journal.
    const references = Array.from({ length: CREATES }, (_, i) => `${run}-${i}`);
    const share = (k: number) => references.filter((_, i) => i % PROCESSES === k || i % PROCESSES === (k + 1) % PROCESSES);
    const start = (k: number) => {
      const worker = workers[k]!;
      worker.done = false;
      const instance = startInstance(
        {
          DATABASE_URL: shared.url,
          SCHEMA: schema,
          SANDBOX_URL: shared.sandbox.url,
          PUBLIC_URL: publicUrl,
          REFERENCES: share(k).join(','),
          CLIENT_MODULE: copy.url,
          ...LIMITS,
        },
        'worker.mjs',
      );
      worker.child = instance.child;
      createInterface({ input: instance.child.stdout! }).on('line', (line) => {
        const message = JSON.parse(line) as { url?: string; done?: boolean };
        if (message.url && worker.child === instance.child) worker.url = message.url;
        if (message.done && worker.child === instance.child) worker.done = true;
      });
      instance.exited.then(() => {
        if (worker.child === instance.child) worker.url = undefined;
      });
      return instance;
    };
    const counts = { kills: 0, faults: 0, statusChanges: 0, resends: 0, redelivered: 0 };
    const started = Date.now();
    try {
      for (let k = 0; k < PROCESSES; k++) start(k);

      // Chaos until the kill phase is over and every process has gone through its share.
      const ours = async () => (await shared.sandbox.admin.transactions()).filter((t) => (t.reference_id ?? '').startsWith(`${run}-`));
      while (Date.now() - started < CHAOS_MS || workers.some((w) => !w.done)) {
        // About 15 s on an idle two-core machine; the bound is for a hang, not a speed claim.
        if (Date.now() - started > 150_000) throw new Error(`the processes did not finish (seed ${SEED})`);
        await sleep(100 + rand() * 100);
        // A run proves little without a kill, so one is owed until it happens: the chaos phase lasts
        // until then (a loaded machine may start the processes late), and while it is owed each
        // turn kills a working process with even odds. On an idle machine the processes can finish
        // their share in a few seconds, before a 1-in-10 roll ever picked a process that was up:
        // seed 113794012 ended with no kill at all.
        const working = workers.map((w, k) => ({ w, k })).filter(({ w }) => w.url !== undefined && !w.done);
        const killOwed = counts.kills === 0 && workers.some((w) => !w.done);
        const chaos = Date.now() - started < CHAOS_MS || killOwed;
        const roll = rand();
        const owedNow = killOwed && working.length > 0 && rand() < 0.5;
        if (chaos && (roll < 0.1 || owedNow) && counts.kills < MAX_KILLS) {
          const k = owedNow ? working[Math.floor(rand() * working.length)]!.k : Math.floor(rand() * PROCESSES);
          const victim = workers[k]!;
          if (victim.url !== undefined) {
            victim.child!.kill('SIGKILL');
            victim.url = undefined;
            counts.kills++;
            const pause = 100 + rand() * 600;
            setTimeout(() => start(k), pause);
          }
        } else if (chaos && roll < 0.3) {
          const kind = pick(['drop_after_commit', 'drop_before_commit', 'status_500_after_commit', 'delay', 'lookup_lag'] as const);
          const lookup = kind === 'lookup_lag';
          await shared.sandbox.admin.addFault({
            method: lookup ? 'GET' : 'POST',
            path_prefix: '/v2/merchants/payins/',
            kind,
            count: 1 + Math.floor(rand() * 2),
            ...(kind === 'delay' || lookup ? { ms: 100 + Math.floor(rand() * 700) } : {}),
          });
          counts.faults++;
        } else if (roll < 0.55) {
          const open = (await ours()).filter((t) => !isTerminalStatus(t.status));
          if (open.length > 0) {
            const t = pick(open);
            const next = t.status === 'new' && rand() < 0.4 ? 'processing' : pick(TERMINAL_STATUSES);
            // `processing` is a status the interface does not have, sent on purpose (an open status set).
            await shared.sandbox.admin.setStatus('payin', t.id, next, undefined, { unknownStatus: true }).catch(() => {}); // a race with another change: 409
            counts.statusChanges++;
          }
        } else if (roll < 0.7) {
          const all = await ours();
          if (all.length > 0) {
            await shared.sandbox.admin.resend('payin', pick(all).id);
            counts.resends++;
          }
        } else if (roll < 0.9 && captured.length > 0 && live().length > 0) {
          // An old delivery, to another process, in the background: late, duplicate, out of order.
          void deliver(pick(live()).url!, pick(captured)).catch(() => {});
          counts.redelivered++;
        }
      }

      // Every transaction's current status once more (every process is up now), until each of
      // those deliveries has been answered 200.
      const final = await ours();
      const resentAt = Date.now() - 1_000; // the sandbox's clock writes whole seconds
      for (const t of final) await shared.sandbox.admin.resend('payin', t.id);
      for (let i = 0; i < 100; i++) {
        const answered = new Set(
          (await shared.sandbox.admin.deliveries())
            .filter((a) => a.sent_at !== null && Date.parse(a.sent_at) >= resentAt && a.response_status === 200)
            .map((a) => a.transaction_id),
        );
        if (final.every((t) => answered.has(t.id))) break;
        await sleep(100);
      }

      // Compare: the sandbox is the oracle.
      const onSandbox = await ours();
      const byReference = new Map<string, typeof onSandbox>();
      for (const t of onSandbox) byReference.set(t.reference_id!, [...(byReference.get(t.reference_id!) ?? []), t]);
      const recorded = new Map(
        (await shared.pool.query(`SELECT id, reference_id, status FROM "${schema}".pay_transactions`)).rows.map((r) => [r.id as string, r]),
      );
      const intents = (await shared.pool.query(`SELECT reference_id, state, transaction_id FROM "${schema}".pay_intents`)).rows;
      const oracle = await exactlyOnceReport(shared.sandbox.admin, { only: (r) => r.startsWith(`${run}-`) });
      const duplicates = oracle.duplicated.length;
      const lost =
        references.filter((r) => !byReference.has(r)).length +
        onSandbox.filter((t) => !recorded.has(t.id)).length +
        intents.filter((r) => r.state !== 'created' || !onSandbox.some((t) => t.id === r.transaction_id)).length;
      const backwards = (
        await shared.pool.query(`SELECT count(*)::int AS n FROM "${schema}".pay_events WHERE outcome = 'change' AND previous = ANY($1)`, [
          TERMINAL_STATUSES,
        ])
      ).rows[0].n as number;
      const regressions = onSandbox.filter((t) => recorded.has(t.id) && recorded.get(t.id).status !== t.status).length + backwards;
      const calls = (
        await shared.pool.query(`
          SELECT e.transaction_id, e.status, (SELECT count(*)::int FROM "${schema}".handled h WHERE h.id = e.transaction_id AND h.status = e.status) AS n
            FROM "${schema}".pay_events e WHERE e.outcome IN ('change', 'delivered')
          UNION ALL
          SELECT h.id, h.status, 0 FROM "${schema}".handled h
           WHERE NOT EXISTS (SELECT 1 FROM "${schema}".pay_events e WHERE e.transaction_id = h.id AND e.status = h.status AND e.outcome IN ('change', 'delivered'))`)
      ).rows as { n: number }[];
      const exactlyOnce = calls.filter((c) => c.n === 1).length;
      console.log(
        `randomised run (JOURNAL_SEED=${SEED}): records on the sandbox ${onSandbox.length}, records in the journal ${recorded.size}, ` +
          `duplicates ${duplicates}, lost ${lost}, regressions ${regressions}, handler calls per (transaction, status) exactly 1: ` +
          `${exactlyOnce} of ${calls.length}; ${counts.kills} kills, ${counts.faults} faults, ${counts.statusChanges} status changes, ` +
          `${counts.resends} resends, ${counts.redelivered} re-sent copies, ${captured.length} deliveries, ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(onSandbox.length, `seed ${SEED}`).toBe(CREATES);
      expect(recorded.size, `seed ${SEED}`).toBe(CREATES);
      expect(oracle.duplicated, `seed ${SEED}`).toEqual([]);
      expect(lost, `seed ${SEED}`).toBe(0);
      expect(regressions, `seed ${SEED}`).toBe(0);
      expect(exactlyOnce, `seed ${SEED}`).toBe(calls.length);
      expect(counts.kills, `seed ${SEED}`).toBeGreaterThan(0);
    } finally {
      for (const w of workers) w.child?.kill('SIGKILL');
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await parent.close();
    }
  }, 240_000);
});
