// Creates recorded inside the merchant's own transaction (enqueue), on every backend, against the
// real sandbox: the order row and the intent commit or roll back together; nothing leaves before
// the commit; `send` sends it once whoever calls; recover() on another instance sends what a dead
// process left queued, queues again a send proven never to have arrived, and a refusal is final.
// The journals of a test share a test clock: waiting out sendQueuedAfterMs takes no real time.
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isJournalError, type Journal, type JournalEvent, openJournal, type Query } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { IN_FLIGHT_LEASE_MS, MERCHANT, payinBody, shopClient, startShopSandbox } from './helpers/shop.js';
import { createClient } from '@pay/client';
import { EXAMPLES } from '@pay/schema';

const NOWHERE = 'http://127.0.0.1:9/none';
const SEND_AFTER_MS = 300;

describe.each(BACKENDS)('on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let schema: string;
  let calls: JournalEvent[];
  let clock: TestClock;
  const opened: Journal[] = [];

  const open = async (client = shopClient(sandbox.url)) => {
    const journal = await openJournal({
      client,
      clock,
      database: backend.database,
      schema,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
      sendQueuedAfterMs: SEND_AFTER_MS,
      handler: async (event, query) => {
        calls.push(event);
        await query(`UPDATE "${schema}".orders SET status = $2 WHERE id = $1`, [event.referenceId, event.status]);
      },
    });
    opened.push(journal);
    return journal;
  };

  /** The shop's checkout: the order row and its payin, in one transaction. */
  const checkout = (journal: Journal, reference: string, amount = '12.00') =>
    journal.transaction(async (query) => {
      await query(`INSERT INTO "${schema}".orders (id, status) VALUES ($1, 'placed')`, [reference]);
      return journal.payins.enqueue(query, payinBody(reference, amount, NOWHERE));
    });

  const onSandbox = async (reference: string) => (await sandbox.admin.transactions()).filter((t) => t.reference_id === reference);
  const order = async (journal: Journal, reference: string) =>
    (await journal.transaction((q) => q(`SELECT status FROM "${schema}".orders WHERE id = $1`, [reference])))[0]?.['status'];
  const recoverAll = async (journal: Journal) => {
    let summary = await journal.recover();
    const totals = { ...summary };
    for (let i = 0; summary.waiting > 0 && i < 10; i++) {
      await clock.advance('1m'); // past the intent's decidable time (seconds)
      summary = await journal.recover();
      totals.sent += summary.sent;
      totals.created += summary.created;
    }
    return { ...summary, sent: totals.sent, created: totals.created };
  };

  beforeAll(async () => {
    backend = await openBackend(backendName, 'queued');
    sandbox = await startShopSandbox();
  });
  afterAll(async () => {
    await Promise.all(opened.map((j) => j.close()));
    await sandbox?.close();
    await backend?.close();
  });
  beforeEach(async () => {
    await sandbox.admin.reset();
    schema = freshSchema();
    calls = [];
    clock = createTestClock();
    const journal = await open();
    await journal.transaction((q) => q(`CREATE TABLE "${schema}".orders (id text PRIMARY KEY, status text)`));
  });

  it('commits the order and its payin together; nothing leaves before send, which sends it once', async () => {
    const journal = await open();
    const { referenceId } = await checkout(journal, 'q-1');
    expect(referenceId).toBe('q-1');
    expect(await journal.payins.intent('q-1')).toMatchObject({ state: 'queued', attempts: 0, transaction: null });
    expect(await onSandbox('q-1')).toHaveLength(0);
    const [a, b] = await Promise.all([journal.payins.send('q-1'), journal.payins.send('q-1')]); // joined
    expect(a).toBe(b);
    expect(a).toMatchObject({ replayed: false, transaction: { status: 'new', amount: '12.00', currency: 'EUR' } });
    expect(a.transaction.nextAction?.type).toBe('redirect');
    expect(await journal.payins.send('q-1')).toMatchObject({ replayed: true, transaction: { id: a.transaction.id } });
    expect(await onSandbox('q-1')).toHaveLength(1);
    expect(await order(journal, 'q-1')).toBe('new');
    expect(calls.map((c) => [c.status, c.source])).toEqual([['new', 'create']]);
  });

  it('rolls the intent back with the order: nothing recorded, nothing sent, the reference free', async () => {
    const journal = await open();
    const failed = await journal
      .transaction(async (query) => {
        await journal.payins.enqueue(query, payinBody('q-2', '5', NOWHERE));
        throw new Error('the stock ran out');
      })
      .catch((e: unknown) => e);
    expect((failed as Error).message).toBe('the stock ran out');
    expect(await journal.payins.intent('q-2')).toBeUndefined();
    // A send of what was rolled back: a journal error that says why nothing is there, not a TypeError.
    const notThere = await journal.payins.send('q-2').catch((e: unknown) => e);
    expect(isJournalError(notThere)).toBe(true);
    expect(notThere).toMatchObject({
      name: 'NotRecordedError',
      code: 'not_recorded',
      kind: 'payin',
      referenceId: 'q-2',
      recordedAs: undefined,
    });
    expect((notThere as Error).message).toMatch(
      /nothing is recorded under reference_id "q-2": the transaction that enqueued it has not committed, was rolled back/,
    );
    expect(await checkout(journal, 'q-2')).toEqual({ referenceId: 'q-2' });
    expect(await onSandbox('q-2')).toHaveLength(0);
  });

  // On a server (not PGlite: one connection, where a send inside the transaction would wait for it).
  it.skipIf(backendName === 'pglite')('a send before the enqueuing transaction commits finds nothing, and sends nothing', async () => {
    const journal = await open();
    const early = await journal.transaction(async (query) => {
      await journal.payins.enqueue(query, payinBody('q-early', '7', NOWHERE));
      return journal.payins.send('q-early').catch((e: unknown) => e);
    });
    expect(early).toMatchObject({ name: 'NotRecordedError', code: 'not_recorded', recordedAs: undefined });
    expect(await onSandbox('q-early')).toHaveLength(0);
    expect((await journal.payins.send('q-early')).transaction.status).toBe('new'); // after the commit
    expect(await onSandbox('q-early')).toHaveLength(1);
  });

  it('a send of the wrong kind names the kind recorded under the reference_id, and sends nothing', async () => {
    const journal = await open();
    await checkout(journal, 'q-kind');
    const wrong = await journal.payouts.send('q-kind').catch((e: unknown) => e);
    expect(wrong).toMatchObject({
      name: 'NotRecordedError',
      code: 'not_recorded',
      kind: 'payout',
      recordedAs: { kind: 'payin', state: 'queued' },
    });
    expect((wrong as Error).message).toBe(
      '@pay/journal: payouts.send: no payout is recorded under reference_id "q-kind", but a payin is (queued): call payins.send("q-kind"); nothing was sent',
    );
    expect(await onSandbox('q-kind')).toHaveLength(0);
    await journal.payins.send('q-kind');
    // Once created, the hint says so too.
    await expect(journal.payouts.send('q-kind')).rejects.toMatchObject({ recordedAs: { kind: 'payin', state: 'created' } });
    expect(await onSandbox('q-kind')).toHaveLength(1);
  });

  it("checks the body by the client's rules at enqueue: InvalidRequestError with paths, nothing recorded", async () => {
    const journal = await open();
    const refused = await journal
      .transaction((query) => journal.payins.enqueue(query, { ...payinBody('q-3', '5', NOWHERE), customer: { email: 'nobody' } }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'InvalidRequestError', operation: 'payins.create' });
    expect((refused as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain('customer.email');
    expect(await journal.payins.intent('q-3')).toBeUndefined();
    // Another amount under a queued reference is a conflict; the same one is accepted as it is.
    await checkout(journal, 'q-4', '7.00');
    await expect(journal.transaction((q) => journal.payins.enqueue(q, payinBody('q-4', '8.00', NOWHERE)))).rejects.toMatchObject({
      name: 'ReferenceConflictError',
    });
    expect(await journal.transaction((q) => journal.payins.enqueue(q, payinBody('q-4', '7.00', NOWHERE)))).toEqual({ referenceId: 'q-4' });
  });

  it('sends what a dead process left queued: recover() on another instance, once', async () => {
    const dead = await open();
    await checkout(dead, 'q-5');
    const other = await open();
    // Before the enqueuing process's time is up, recover() leaves it alone.
    expect((await other.recover()).sent).toBe(0);
    await clock.advance(SEND_AFTER_MS - 1);
    expect((await other.recover()).sent).toBe(0);
    await clock.advance(1);
    const [x, y] = await Promise.all([other.recover(), (await open()).recover()]);
    expect(x.sent + y.sent).toBe(1);
    expect(await onSandbox('q-5')).toHaveLength(1);
    expect(await other.payins.intent('q-5')).toMatchObject({ state: 'created', attempts: 1 });
    expect(await order(other, 'q-5')).toBe('new');
  });

  it('queues again a send proven never to have arrived, and recover() sends it; exactly one payin', async () => {
    // A sandbox and a client on the test's clock: the lost send's lookups, back-offs and wait for
    // its decidable time (tolerance and settle margin) pass on the clock, not in real time.
    const real = sandbox;
    sandbox = await startShopSandbox({ clock });
    try {
      const journal = await open(shopClient(sandbox.url, undefined, clock));
      const stepping = <T>(work: Promise<T>) => whileClockSteps(clock, work);
      await checkout(journal, 'q-6');
      await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_before_commit', count: 10 });
      const lost = await stepping(journal.payins.send('q-6')).catch((e: unknown) => e);
      expect(['OutcomeUnknownError', 'NetworkError', 'TimeoutError']).toContain((lost as Error).name);
      await sandbox.admin.reset();
      const summary = await stepping(recoverAll(journal));
      expect(summary.waiting).toBe(0);
      expect(summary.sent).toBe(1);
      expect(await journal.payins.intent('q-6')).toMatchObject({ state: 'created', attempts: 2 });
      expect(await onSandbox('q-6')).toHaveLength(1);
    } finally {
      await sandbox.close();
      sandbox = real;
    }
  }, 60_000);

  it('takes a refusal as final: not sent again, send says why', async () => {
    const refusing = await open(createClient({ baseUrl: sandbox.url, merchantId: MERCHANT.id, secret: 'sk_test_wrong' }));
    await checkout(refusing, 'q-7');
    const refused = await refusing.payins.send('q-7').catch((e: unknown) => e);
    expect((refused as Error).name).toBe('AuthenticationError');
    expect(await refusing.payins.intent('q-7')).toMatchObject({ state: 'not_created' });
    await expect(refusing.payins.send('q-7')).rejects.toMatchObject({ name: 'CreateRefusedError', code: 'create_refused' });
    await clock.advance(SEND_AFTER_MS);
    expect((await refusing.recover()).sent).toBe(0);
    expect(await onSandbox('q-7')).toHaveLength(0);
  });

  it('queues a payout to the payment page the same way', async () => {
    const journal = await open();
    const { referenceId } = await journal.transaction((q) =>
      journal.payouts.enqueue(
        q,
        {
          ...EXAMPLES.createPayout,
          reference_id: 'q-8',
          webhook_url: NOWHERE,
          redirect_urls: { success: 'https://shop.example/paid', fail: 'https://shop.example/failed' },
        },
        { paymentPage: true },
      ),
    );
    const sent = await journal.payouts.send(referenceId);
    expect(sent.transaction).toMatchObject({ kind: 'payout', status: 'new' });
    expect(sent.transaction.nextAction?.type).toBe('redirect');
  });

  it.skipIf(backendName !== 'pg')("records it in the merchant's own pg transaction, outside journal.transaction", async () => {
    const journal = await open();
    const pool = backend.database as import('pg').Pool;
    const client = await pool.connect();
    try {
      const query: Query = async (text, params) => (await client.query(text, params as unknown[])).rows;
      await client.query('BEGIN');
      await query(`INSERT INTO "${schema}".orders (id, status) VALUES ('q-9', 'placed')`);
      await journal.payins.enqueue(query, payinBody('q-9', '4', NOWHERE));
      expect(await journal.payins.intent('q-9')).toBeUndefined(); // not committed yet: invisible
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await journal.payins.send('q-9')).toMatchObject({ replayed: false });
    expect(await order(journal, 'q-9')).toBe('new');
  });
});
