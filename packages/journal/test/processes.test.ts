import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '@pay/clock';
import { createTestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { exactlyOnceReport, followRequests } from '@pay/test-oracle';
import { until } from '@pay/test-support';
import { createTestWebhook } from '@pay/webhook';
import { describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { freshSchema } from './helpers/backends.js';
import { startInstance } from './helpers/instances.js';
import { postgresAvailable } from '@pay/test-support/postgres';
import { sharedServerAndSandbox } from './helpers/shared-server.js';
import { secondClientCopy } from './helpers/second-copy.js';
import { IN_FLIGHT_LEASE_MS, MERCHANT, payinBody, shopClient, startShopSandbox, TOTAL_TIMEOUT_MS } from './helpers/shop.js';

const DEAD_URL = 'http://127.0.0.1:9/webhooks/pay';

describe.skipIf(!postgresAvailable)('several processes on one PostgreSQL', () => {
  // The shared sandbox accepts a used reference_id as a new transaction: a create sent twice is a
  // second record there (the crash test also runs against one that refuses it, with 409).
  const shared = sharedServerAndSandbox('processes', 10, { uniqueReferences: false });

  /** A journal in this process, on a fresh schema with the merchant's `handled` table. */
  async function shop(schema: string, sandboxUrl = shared.sandbox.url, clock?: Clock): Promise<Journal> {
    const journal = await openJournal({
      client: shopClient(sandboxUrl),
      clock,
      database: shared.pool,
      schema,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
      handler: (event, query) =>
        query(`INSERT INTO "${schema}".handled (kind, id, status, pid) VALUES ($1, $2, $3, $4)`, [
          event.kind,
          event.id,
          event.status,
          process.pid,
        ]),
    });
    await shared.pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".handled (kind text, id text, status text, pid int)`);
    return journal;
  }

  it('runs the handler once for concurrent duplicate webhooks at three processes', async () => {
    const schema = freshSchema();
    const journal = await shop(schema);
    const { transaction } = await journal.payins.create(payinBody('dup-1', '15', DEAD_URL));
    const env = {
      DATABASE_URL: shared.url,
      SCHEMA: schema,
      SANDBOX_URL: shared.sandbox.url,
      PUBLIC_URL: 'https://shop.example/webhooks/pay',
      MODE: 'receiver',
      HANDLER_DELAY_MS: '300',
    };
    const instances = [startInstance(env), startInstance(env), startInstance(env)];
    try {
      const urls = (await Promise.all(instances.map((i) => i.firstLine))).map((l) => l.url as string);
      const statuses: number[] = [];
      for (const status of ['executed', 'refunded']) {
        const copies = urls.flatMap((url) =>
          [1, 2, 3].map(async () => {
            const hook = createTestWebhook({
              merchantId: MERCHANT.id,
              secret: MERCHANT.secret,
              url: env.PUBLIC_URL,
              payload: { id: transaction.id, reference_id: 'dup-1', status },
            });
            const response = await fetch(url, { method: 'POST', headers: hook.headers, body: hook.body });
            statuses.push(response.status);
          }),
        );
        await Promise.all(copies);
      }
      expect(statuses).toEqual(Array(18).fill(200));
      const { rows } = await shared.pool.query(
        `SELECT status, count(*)::int AS n FROM "${schema}".handled GROUP BY status ORDER BY status`,
      );
      expect(rows).toEqual([
        { status: 'executed', n: 1 },
        { status: 'new', n: 1 },
        { status: 'refunded', n: 1 },
      ]);
    } finally {
      for (const i of instances) i.child.kill('SIGKILL');
      await Promise.all(instances.map((i) => i.exited));
    }
  });

  it('reconciles from two processes at once: each transaction looked up once, each change handled once', async () => {
    const schema = freshSchema();
    const journal = await shop(schema);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const { transaction } = await journal.payins.create(payinBody(`two-${i}`, `${i + 1}.00`, DEAD_URL));
      await shared.sandbox.admin.setStatus('payin', transaction.id, i % 3 === 0 ? 'failed' : 'executed');
      ids.push(transaction.id);
    }
    const go = join(mkdtempSync(join(tmpdir(), 'pay-journal-go-')), 'go');
    const env = {
      DATABASE_URL: shared.url,
      SCHEMA: schema,
      SANDBOX_URL: shared.sandbox.url,
      PUBLIC_URL: DEAD_URL,
      MODE: 'reconcile',
      NOW: new Date(Date.now() + 60 * 60_000).toISOString(), // an hour on: every transaction is due
      GO_FILE: go,
    };
    const instances = [startInstance(env), startInstance(env)];
    try {
      await Promise.all(instances.map((i) => i.firstLine)); // both open, then both start at once
      writeFileSync(go, '');
      const summaries = await Promise.all(instances.map((i) => i.line(1)));
      expect(summaries.map((s) => s.checked).reduce((a, b) => a + b)).toBe(24);
      expect(summaries.map((s) => s.changed).reduce((a, b) => a + b)).toBe(24);
      expect(summaries.every((s) => s.checked > 0)).toBe(true); // both took part
      const lookups = (await shared.sandbox.admin.requests({ limit: 1000 })).filter((r) => r.method === 'GET');
      for (const id of ids) expect(lookups.filter((r) => r.path.endsWith(`/${id}`))).toHaveLength(1);
      const { rows } = await shared.pool.query(
        `SELECT id, status, count(*)::int AS n FROM "${schema}".handled WHERE status <> 'new' GROUP BY id, status`,
      );
      expect(rows).toHaveLength(24);
      expect(rows.every((r) => r.n === 1 && r.status === (ids.indexOf(r.id) % 3 === 0 ? 'failed' : 'executed'))).toBe(true);
      expect(
        new Set((await shared.pool.query(`SELECT DISTINCT pid FROM "${schema}".handled WHERE status <> 'new'`)).rows.map((r) => r.pid))
          .size,
      ).toBe(2);
    } finally {
      for (const i of instances) i.child.kill('SIGKILL');
      await Promise.all(instances.map((i) => i.exited));
      await journal.close();
    }
  });

  it("gives a killed reconciler's rows back within one lookup's lease, not the whole batch's", async () => {
    const schema = freshSchema();
    const journal = await shop(schema);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { transaction } = await journal.payins.create(payinBody(`killed-pass-${i}`, '1.00', DEAD_URL));
      await shared.sandbox.admin.setStatus('payin', transaction.id, 'executed');
      ids.push(transaction.id);
    }
    // The dead instance's first lookup hangs; it is killed holding both rows (one batch).
    await shared.sandbox.admin.addFault({
      method: 'GET',
      path_prefix: `/v2/merchants/payins/${ids[0]}`,
      kind: 'delay',
      count: 1,
      ms: 60_000,
    });
    const go = join(mkdtempSync(join(tmpdir(), 'pay-journal-go-')), 'go');
    const now = new Date(Date.now() + 60 * 60_000); // an hour on: both are due
    const dead = startInstance({
      DATABASE_URL: shared.url,
      SCHEMA: schema,
      SANDBOX_URL: shared.sandbox.url,
      PUBLIC_URL: DEAD_URL,
      MODE: 'reconcile',
      NOW: now.toISOString(),
      GO_FILE: go,
    });
    await dead.firstLine;
    writeFileSync(go, '');
    const held = async () =>
      Number((await shared.pool.query(`SELECT count(*)::int AS n FROM "${schema}".pay_checks WHERE lease_until > now()`)).rows[0].n);
    await until(async () => (await held()) >= 2, { what: 'the dead instance to hold two checks', timeoutMs: 10_000, everyMs: 50 });
    expect(await held()).toBe(2);
    dead.child.kill('SIGKILL');
    await dead.exited;
    // The lease: the client's whole call (TOTAL_TIMEOUT_MS), the pacing, and 10 s of margin, from
    // NOW (the dead instance's clock stood there). This instance's clock starts there too.
    const leaseMs = TOTAL_TIMEOUT_MS + 100 + 10_000;
    const clock = createTestClock({ start: now });
    const alive = await shop(schema, undefined, clock);
    const reconciler = alive.reconciler({ lookupsPerSecond: 10 });
    expect((await reconciler.runOnce()).checked).toBe(0); // still leased by the dead instance
    await clock.advance(leaseMs - 1);
    expect((await reconciler.runOnce()).checked).toBe(0);
    // Back after one lookup's lease, to the millisecond (a batch's lease of the past held them
    // 2 x (lookup + pacing) + 1 min).
    await clock.advance(1);
    const pass = reconciler.runOnce();
    await clock.runUntilIdle(); // the pacing between its two lookups
    expect((await pass).checked).toBe(2);
    const { rows } = await shared.pool.query(`SELECT count(*)::int AS n FROM "${schema}".handled WHERE status = 'executed'`);
    expect(rows[0].n).toBe(2);
    await alive.close();
    await journal.close();
  });

  it('settles a create killed at each step, alone and in a group: recorded exactly once, matching the sandbox, in both sandbox modes', async () => {
    // Both at once (most of the time is waiting out the in-flight lease). On the shared sandbox,
    // which accepts a used reference_id, the processes build their client from a second installed
    // copy of @pay/client; on one that refuses it (409), from this copy.
    const refusing = await startShopSandbox();
    const copy = await secondClientCopy();
    try {
      await Promise.all([
        crashAtEachStep(shared.sandbox, { CLIENT_MODULE: copy.url }),
        crashAtEachStep(refusing, {}),
        crashGroupAtEachStep(refusing),
      ]);
    } finally {
      copy.remove();
      await refusing.close();
    }
  }, 120_000);

  it('the oracle reports a create a process sends again around its journal (RESEND_AROUND_JOURNAL=1)', async () => {
    // Both sandbox modes at once, each on a sandbox and schema of its own: most of a case is the
    // process's client waiting out its limit, in real time (a process of its own has its own clock).
    const judge = async (uniqueReferences: boolean) => {
      const sandbox = await startShopSandbox({ uniqueReferences });
      try {
        const schema = freshSchema();
        await (await shop(schema, sandbox.url)).close();
        const requests = await followRequests(sandbox.admin);
        // The create commits, its answer is lost, and its lookups fail until the client gives up.
        await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
        await sandbox.admin.addFault({ method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 12 });
        const run = startInstance({
          DATABASE_URL: shared.url,
          SCHEMA: schema,
          SANDBOX_URL: sandbox.url,
          PUBLIC_URL: DEAD_URL,
          MODE: 'create',
          REFERENCE: 'resent-1',
          AMOUNT: '3.30',
          RESEND_AROUND_JOURNAL: '1',
        });
        expect((await run.exited).code).toBe(0);
        const report = await exactlyOnceReport(sandbox.admin, { requests: await requests.stop() });
        // Sent again by its HTTP layer, and again after an unknown outcome if it came to that.
        if (uniqueReferences) {
          expect(report).toMatchObject({ records: 1, duplicated: [] });
          expect(report.refused.length).toBeGreaterThan(0);
          expect(report.refused.every((r) => r.reference_id === 'resent-1')).toBe(true);
        } else {
          expect(report.refused).toEqual([]);
          expect(report.duplicated).toMatchObject([{ reference_id: 'resent-1' }]);
          expect(report.records).toBeGreaterThan(1);
        }
      } finally {
        await sandbox.close();
      }
    };
    await Promise.all([judge(true), judge(false)]);
  }, 60_000);

  /**
   * Groups of creates (group commit), each group in a process killed at one step of its group
   * statements; recover(); then every create of every group against `sandbox` and the oracle.
   * A process whose creates formed no group at that step would not be killed, and fails the test.
   */
  async function crashGroupAtEachStep(sandbox: RunningSandbox) {
    const schema = freshSchema();
    const journal = await shop(schema, sandbox.url);
    const requests = await followRequests(sandbox.admin);
    const COUNT = 6;
    // [step, what reaches the sandbox: none of the group, all of it, or any part]
    const steps = [
      ['group-before-intent-commit', 'none'],
      ['group-after-intent-commit', 'none'],
      ['group-mid-answers', 'any'],
      ['group-before-outcome-commit', 'all'],
      ['group-after-outcome-commit', 'all'],
    ] as const;
    const runs = steps.map(([step], i) =>
      startInstance({
        DATABASE_URL: shared.url,
        SCHEMA: schema,
        SANDBOX_URL: sandbox.url,
        PUBLIC_URL: DEAD_URL,
        MODE: 'creates',
        COUNT: String(COUNT),
        KILL_AT: step,
        // Outcomes form a group only when answers come together: bunched for the outcome steps.
        ...(step.includes('outcome') ? { BUNCH: String(COUNT) } : {}),
        REFERENCE: `${step}-`,
        AMOUNT: `${i + 1}.75`,
      }),
    );
    const exits = await Promise.all(runs.map((r) => r.exited));
    expect(exits.map((e) => e.signal)).toEqual(steps.map(() => 'SIGKILL'));

    await until(async () => (await journal.recover()).waiting === 0, {
      what: 'recover() to decide every create of the groups',
      timeoutMs: 20_000,
      everyMs: 250,
    });

    const onSandbox = (await sandbox.admin.transactions()).filter((t) => (t.reference_id ?? '').startsWith('group-'));
    const intents = (await shared.pool.query(`SELECT reference_id, state, transaction_id FROM "${schema}".pay_intents`)).rows;
    const recorded = (await shared.pool.query(`SELECT id, reference_id FROM "${schema}".pay_transactions`)).rows;
    for (const [step, reaches] of steps) {
      const references = Array.from({ length: COUNT }, (_, i) => `${step}-${i}`);
      const there = onSandbox.filter((t) => references.includes(t.reference_id!));
      if (reaches === 'none') expect(there, step).toEqual([]);
      if (reaches === 'all') expect(there, step).toHaveLength(COUNT);
      for (const reference of references) {
        const record = there.filter((t) => t.reference_id === reference);
        const intent = intents.find((r) => r.reference_id === reference);
        const mine = recorded.filter((r) => r.reference_id === reference);
        expect(record.length, reference).toBeLessThanOrEqual(1);
        expect(
          mine.map((r) => r.id),
          reference,
        ).toEqual(record.map((t) => t.id));
        // Created exactly when the service has it; otherwise not created, or never recorded at all
        // (killed before the group's intents committed).
        if (record.length === 1) expect(intent, reference).toMatchObject({ state: 'created', transaction_id: record[0]!.id });
        else if (step === 'group-before-intent-commit') expect(intent?.state ?? 'not_created', reference).toBe('not_created');
        else expect(intent?.state, reference).toBe('not_created');
      }
    }
    const report = await exactlyOnceReport(sandbox.admin, { requests: await requests.stop(), only: (r) => r.startsWith('group-') });
    expect(report.duplicated).toEqual([]);
    expect(report.refused).toEqual([]);
    await journal.close();
  }

  /** Five creates, each in a process killed at one step; recover(); then the journal and the oracle against `sandbox`. */
  async function crashAtEachStep(sandbox: RunningSandbox, env: Record<string, string>) {
    const schema = freshSchema();
    const journal = await shop(schema, sandbox.url);
    const requests = await followRequests(sandbox.admin);
    const steps = ['before-intent-commit', 'after-intent-commit', 'in-flight', 'after-answer', 'before-outcome-commit'];
    const runs = steps.map((step, i) =>
      startInstance({
        DATABASE_URL: shared.url,
        SCHEMA: schema,
        SANDBOX_URL: sandbox.url,
        PUBLIC_URL: DEAD_URL,
        MODE: 'create',
        KILL_AT: step,
        REFERENCE: `crash-${step}`,
        AMOUNT: `${i + 1}.50`,
        ...env,
      }),
    );
    const exits = await Promise.all(runs.map((r) => r.exited));
    expect(exits.map((e) => e.signal)).toEqual(steps.map(() => 'SIGKILL'));

    // The killed processes' in-flight leases are real time: each was taken by a real process on
    // its own clock, and only its end lets another decide the create.
    await until(async () => (await journal.recover()).waiting === 0, {
      what: 'recover() to decide every create',
      timeoutMs: 20_000,
      everyMs: 250,
    });

    const onSandbox = (await sandbox.admin.transactions()).filter((t) => (t.reference_id ?? '').startsWith('crash-'));
    const intents = (
      await shared.pool.query(`SELECT reference_id, state, transaction_id, amount::text AS amount FROM "${schema}".pay_intents`)
    ).rows;
    const recorded = (await shared.pool.query(`SELECT id, reference_id, status FROM "${schema}".pay_transactions`)).rows;
    const handled = (await shared.pool.query(`SELECT id, status, count(*)::int AS n FROM "${schema}".handled GROUP BY id, status`)).rows;
    // Once the intent is committed the step after it can only make the create happen once or not at all.
    expect(intents.length).toBeGreaterThanOrEqual(steps.length - 1);
    for (const step of steps) {
      const reference = `crash-${step}`;
      const there = onSandbox.filter((t) => t.reference_id === reference);
      const intent = intents.find((r) => r.reference_id === reference);
      const mine = recorded.filter((r) => r.reference_id === reference);
      expect(there.length, reference).toBeLessThanOrEqual(1);
      expect(mine.length, reference).toBe(there.length);
      if (there.length === 1) {
        expect(intent, reference).toMatchObject({ state: 'created', transaction_id: there[0]!.id });
        expect(mine[0]!.id).toBe(there[0]!.id);
      } else if (intent) {
        expect(intent.state, reference).toBe('not_created');
      }
    }
    // The steps after the service answered always reach the sandbox. (in-flight is killed 100 ms
    // after the request starts: on a loaded machine its bytes may not have left yet, and then
    // nothing was created, which the checks above accept.)
    for (const step of ['after-answer', 'before-outcome-commit']) {
      expect(
        onSandbox.filter((t) => t.reference_id === `crash-${step}`),
        step,
      ).toHaveLength(1);
    }
    expect(handled.every((h) => h.n === 1)).toBe(true);
    expect(handled).toHaveLength(recorded.length);
    const report = await exactlyOnceReport(sandbox.admin, { requests: await requests.stop(), only: (r) => r.startsWith('crash-') });
    expect(report.duplicated).toEqual([]);
    expect(report.refused).toEqual([]);
    await journal.close();
  }
});
