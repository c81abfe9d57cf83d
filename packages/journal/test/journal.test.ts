// The journal end to end, on every backend (PGlite; PostgreSQL through pg and postgres.js),
// against the real sandbox over loopback HTTP: migrations, exact amounts, creates and their
// repeats, conflicts and in-flight creates, the inbox with real signed webhooks, the status
// order, handler rollbacks, and recovery of creates whose outcome was lost. After each test the
// exactly-once oracle reads the sandbox (helpers/shop.ts's uniqueReferencesOn says in which mode).
import type { RunningSandbox } from '@pay/sandbox';
import { InvalidRequestError } from '@pay/client';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { until } from '@pay/test-support';
import { createTestWebhook } from '@pay/webhook';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CreateInFlightError,
  DatabaseError,
  type Journal,
  type JournalEvent,
  LATEST_MIGRATION,
  openJournal,
  ReferenceConflictError,
} from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { judgedExactlyOnce } from './helpers/oracle.js';
import {
  IN_FLIGHT_LEASE_MS,
  MERCHANT,
  payinBody,
  payoutBody,
  shopClient,
  startReceiver,
  startShopSandbox,
  uniqueReferencesOn,
} from './helpers/shop.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(BACKENDS)('on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let journal: Journal;
  let schema: string;
  let calls: JournalEvent[];
  let failNext: Error | undefined;
  /** The journals' clock: recover() waits for a decidable time on it, not in real time. */
  let clock: TestClock;
  /** The block's sandbox (on the real clock), while a test runs on a sandbox of its own on `clock`. */
  let realSandbox: RunningSandbox | undefined;

  const open = (extra: Partial<Parameters<typeof openJournal>[0]> = {}) =>
    openJournal({
      client: shopClient(sandbox.url, undefined, realSandbox ? clock : undefined),
      database: backend.database,
      schema,
      clock,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
      handler: async (event, query) => {
        if (failNext) {
          const error = failNext;
          failNext = undefined;
          await query(`INSERT INTO "${schema}".handled (kind, id, status) VALUES ($1, $2, $3)`, [
            event.kind,
            event.id,
            `${event.status}-rolled-back`,
          ]);
          throw error;
        }
        calls.push(event);
        await query(`INSERT INTO "${schema}".handled (kind, id, status) VALUES ($1, $2, $3)`, [event.kind, event.id, event.status]);
      },
      ...extra,
    });

  beforeAll(async () => {
    backend = await openBackend(backendName, 'journal');
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(backendName) });
    receiver = await startReceiver(
      () => journal,
      () => false,
      () => (realSandbox ? clock : undefined),
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.close();
    await backend?.close();
  });
  beforeEach(async () => {
    await sandbox.admin.reset();
    schema = freshSchema();
    calls = [];
    failNext = undefined;
    clock = createTestClock();
    journal = await open();
    await journal.transaction((q) => q(`CREATE TABLE "${schema}".handled (kind text, id text, status text)`));
  });
  // Registered before the oracle, so it runs after the oracle has read the test's sandbox.
  afterEach(async () => {
    if (realSandbox === undefined) return;
    await sandbox.close();
    sandbox = realSandbox;
    realSandbox = undefined;
  });
  const oracle = judgedExactlyOnce(() => sandbox);

  /**
   * Moves this test onto a sandbox of its own on `clock`, with a journal whose client and
   * receiver read it too: a lost create's lookups, back-offs and wait for its decidable time
   * (tolerance and settle margin) then pass on the clock, not in real time.
   */
  const onTheClock = async () => {
    realSandbox = sandbox;
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(backendName), clock });
    await oracle.reset(); // the oracle follows the test's sandbox from here
    journal = await open();
  };
  /** `work`, the clock moving under it (100 ms steps) until it ends. */
  const stepping = <T>(work: Promise<T>) => whileClockSteps(clock, work);

  const handledRows = () => journal.transaction((q) => q(`SELECT kind, id, status FROM "${schema}".handled ORDER BY status`));
  const onSandbox = async (reference: string) => (await sandbox.admin.transactions()).filter((t) => t.reference_id === reference);
  /** Waits until the sandbox has delivered every webhook it has (attempt answered). */
  const deliveriesSettled = () =>
    until(
      async () => {
        const all = await sandbox.admin.deliveries();
        return all.every((d) => d.response_status !== null || d.error !== null) && all;
      },
      { what: 'every webhook attempt answered', timeoutMs: 10_000, everyMs: 50 },
    );

  it('applies its migrations once, even when several instances open at once', async () => {
    const others = await Promise.all([open(), open(), open()]);
    const rows = await journal.transaction((q) => q(`SELECT version FROM "${schema}".pay_migrations ORDER BY version`));
    expect(rows.map((r) => Number(r['version']))).toEqual(Array.from({ length: LATEST_MIGRATION }, (_, i) => i + 1));
    await Promise.all(others.map((o) => o.close()));
  });

  it('records amounts exactly: a decimal string digit for digit, a number as JSON writes it', async () => {
    await journal.payins.create(payinBody('exact-1', '10.10', receiver.url));
    await journal.payins.create(payinBody('exact-2', 0.1, receiver.url));
    const rows = await journal.transaction((q) =>
      q(`SELECT reference_id, amount::text AS amount, pg_typeof(amount)::text AS type FROM "${schema}".pay_intents ORDER BY reference_id`),
    );
    expect(rows).toEqual([
      { reference_id: 'exact-1', amount: '10.10', type: 'numeric' },
      { reference_id: 'exact-2', amount: '0.1', type: 'numeric' },
    ]);
  });

  it('creates a payin once: recorded, its new status handled once, a repeat answered from the record', async () => {
    const first = await journal.payins.create(payinBody('order-1', '25.00', receiver.url));
    expect(first.replayed).toBe(false);
    expect(first.transaction).toMatchObject({ kind: 'payin', referenceId: 'order-1', status: 'new', amount: '25.00', currency: 'EUR' });
    expect(first.transaction.nextAction?.type).toBeTypeOf('string');
    const again = await journal.payins.create(payinBody('order-1', 25, receiver.url));
    expect(again.replayed).toBe(true);
    expect(again.transaction).toEqual(first.transaction);
    await deliveriesSettled(); // the sandbox's own `new` webhook: a duplicate of the create answer
    expect(await onSandbox('order-1')).toHaveLength(1);
    expect(calls.map((c) => c.status)).toEqual(['new']); // from the create answer or the sandbox's webhook, once
    expect(await handledRows()).toEqual([{ kind: 'payin', id: first.transaction.id, status: 'new' }]);
    expect(await journal.payins.get('order-1')).toEqual(first.transaction);
    expect(await journal.payouts.get('order-1')).toBeUndefined();
  });

  it('creates a payout the same way', async () => {
    const created = await journal.payouts.create(payoutBody('payout-1', '7.5', receiver.url));
    expect(created.transaction).toMatchObject({ kind: 'payout', status: 'new', amount: '7.5' });
    expect(calls.map((c) => [c.kind, c.status])).toEqual([['payout', 'new']]);
  });

  it('hands out a created intent with its status, always: without its transaction row (deleted by hand) the read is a DatabaseError', async () => {
    const created = await journal.payins.create(payinBody('by-hand-1', '5.00', receiver.url));
    expect(created.transaction).toMatchObject({ status: 'new', amount: '5.00' });
    await deliveriesSettled(); // the sandbox's `new` webhook, which would make the row again
    await journal.transaction((q) => q(`DELETE FROM "${schema}".pay_transactions WHERE id = $1`, [created.transaction.id]));
    const read = journal.payins.intent('by-hand-1');
    await expect(read).rejects.toBeInstanceOf(DatabaseError);
    await expect(read).rejects.toMatchObject({ step: 'read intent', reason: 'failed' });
    await expect(journal.payins.get('by-hand-1')).rejects.toThrow(/the created payin "by-hand-1" has no transaction status recorded/);
  });

  it('refuses a repeat with another amount or currency with a typed conflict, sending nothing', async () => {
    await journal.payins.create(payinBody('order-2', '10.00', receiver.url));
    const conflict = await journal.payins.create(payinBody('order-2', '10.01', receiver.url)).catch((e) => e);
    expect(conflict).toBeInstanceOf(ReferenceConflictError);
    expect(conflict).toMatchObject({ code: 'reference_conflict', referenceId: 'order-2', recorded: { amount: '10.00', currency: 'EUR' } });
    await expect(journal.payins.create(payinBody('order-2', '10.00', receiver.url, 'USD'))).rejects.toBeInstanceOf(ReferenceConflictError);
    expect(await onSandbox('order-2')).toHaveLength(1);
  });

  it('never sends a second request while one is in flight: joined here, refused on another instance', async () => {
    const other = await open();
    await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'delay', count: 1, ms: 800 });
    const first = journal.payins.create(payinBody('order-3', '5', receiver.url));
    await sleep(200);
    const joined = journal.payins.create(payinBody('order-3', '5', receiver.url));
    const elsewhere = await other.payins.create(payinBody('order-3', '5', receiver.url)).catch((e) => e);
    expect(elsewhere).toBeInstanceOf(CreateInFlightError);
    expect(elsewhere).toMatchObject({ state: 'in_flight', referenceId: 'order-3' });
    const [a, b] = await Promise.all([first, joined]);
    expect(b).toBe(a);
    expect((await other.payins.create(payinBody('order-3', '5', receiver.url))).replayed).toBe(true);
    expect(await onSandbox('order-3')).toHaveLength(1);
    expect(calls.filter((c) => c.status === 'new')).toHaveLength(1);
    await other.close();
  });

  it('delivers each webhook status once, in order, through the inbox; duplicates and resends are acknowledged', async () => {
    const { transaction } = await journal.payins.create(payinBody('order-4', '12', receiver.url));
    await sandbox.admin.setStatus('payin', transaction.id, 'executed');
    await sandbox.admin.resend('payin', transaction.id);
    const attempts = await deliveriesSettled();
    expect(attempts.every((a) => a.response_status === 200)).toBe(true);
    // The sandbox's own `new` webhook may beat the create answer: either records it, once.
    expect(calls.map((c) => [c.status, c.previous])).toEqual([
      ['new', null],
      ['executed', 'new'],
    ]);
    expect(['create', 'webhook']).toContain(calls[0]!.source);
    expect(calls[1]!.source).toBe('webhook');
    expect((await journal.payins.get('order-4'))?.status).toBe('executed');
  });

  it('keeps the status order: late and stale statuses are recorded, not delivered; unknown ones never overwrite a terminal one', async () => {
    const { transaction } = await journal.payins.create(payinBody('order-5', '3', receiver.url));
    const send = async (status: string) => {
      const hook = createTestWebhook({
        merchantId: MERCHANT.id,
        secret: MERCHANT.secret,
        url: receiver.url,
        payload: { id: transaction.id, reference_id: 'order-5', status },
      });
      return (await fetch(hook.request)).status;
    };
    expect(await send('processing')).toBe(200); // unknown, not terminal: a change
    expect(await send('new')).toBe(200); // back to new: stale
    expect(await send('executed')).toBe(200);
    expect(await send('failed')).toBe(200); // another terminal: stale
    expect(await send('refunded')).toBe(200); // unknown after terminal: delivered, status stays
    expect(await send('refunded')).toBe(200); // duplicate
    expect(calls.map((c) => [c.status, c.change])).toEqual([
      ['new', true],
      ['processing', true],
      ['executed', true],
      ['refunded', false],
    ]);
    expect((await journal.payins.get('order-5'))?.status).toBe('executed');
    // The history, in order of arrival: each status with what brought it, what it did and what came before.
    const id = (await journal.payins.get('order-5'))!.id;
    const history = await journal.history('payin', id);
    // `new` came with the create's answer, or first with its webhook (the sandbox may deliver it before the answer is recorded).
    expect(['create', 'webhook']).toContain(history[0]?.source);
    expect(history.map(({ status, source, outcome, previous }) => [status, source, outcome, previous])).toEqual([
      ['new', history[0]!.source, 'change', null],
      ['processing', 'webhook', 'change', 'new'],
      ['executed', 'webhook', 'change', 'processing'],
      ['failed', 'webhook', 'stale', 'executed'],
      ['refunded', 'webhook', 'delivered', 'executed'],
    ]);
    for (const h of history) expect(Math.abs(h.recordedAt.getTime() - Date.now())).toBeLessThan(10 * 60_000); // a real date, in UTC
    expect(await journal.history('payin', 'pi_unknown_to_the_journal')).toEqual([]);
    // The row keeps every status recorded, in order of arrival, and the one before its status.
    const row = await journal.transaction((q) =>
      q(`SELECT statuses, previous_status FROM "${schema}".pay_transactions WHERE id = $1`, [transaction.id]),
    );
    expect(row).toEqual([{ statuses: ['new', 'processing', 'executed', 'failed', 'refunded'], previous_status: 'processing' }]);
  });

  it('records nothing for an id both kinds have, and says so (the webhook path then asks the service)', async () => {
    const record = `SELECT r_outcome, r_kind FROM "${schema}".pay_record_event(NULL, 'tx_both', $1, 'executed', 'webhook', NULL, NULL, 'executed,failed,expired', now())`;
    const recorded = await journal.transaction(async (q) => {
      for (const kind of ['payin', 'payout']) {
        await q(
          `INSERT INTO "${schema}".pay_transactions (kind, id, reference_id, status, statuses) VALUES ($1, 'tx_both', $1, 'new', '{new}')`,
          [kind],
        );
      }
      return q(record, ['payin']);
    });
    expect(recorded).toEqual([{ r_outcome: 'unplaced', r_kind: null }]);
    const rows = await journal.transaction((q) =>
      q(`SELECT kind, status FROM "${schema}".pay_transactions WHERE id = 'tx_both' ORDER BY kind`),
    );
    expect(rows).toEqual([
      { kind: 'payin', status: 'new' },
      { kind: 'payout', status: 'new' },
    ]);
    expect(calls).toEqual([]);
  });

  it('rolls back a handler that throws with the event, answers 500, and handles the retry', async () => {
    const { transaction } = await journal.payins.create(payinBody('order-6', '9', receiver.url));
    await deliveriesSettled();
    failNext = new Error('the shop database said no');
    await sandbox.admin.setStatus('payin', transaction.id, 'executed');
    const attempts = await deliveriesSettled();
    const executed = attempts.filter((a) => a.status === 'executed');
    // Attempt 1 failed (500), attempt 2 ("at once") was handled.
    expect(executed.map((a) => a.response_status)).toEqual([500, 200]);
    expect(calls.map((c) => c.status)).toEqual(['new', 'executed']);
    expect((await handledRows()).map((r) => r['status'])).toEqual(['executed', 'new']);
  });

  it('answers 500 for a webhook of a transaction it cannot place, so the service retries', async () => {
    const hook = createTestWebhook({
      merchantId: MERCHANT.id,
      secret: MERCHANT.secret,
      url: receiver.url,
      payload: { id: 'pi_nobody', reference_id: 'nobody', status: 'executed' },
    });
    expect((await fetch(hook.request)).status).toBe(500);
    expect(calls).toEqual([]);
  });

  it('records a lost create as unknown, and recover() decides it once decidable: created, its status handled once', async () => {
    await onTheClock();
    // The create commits on the sandbox, its answer is lost, and lookups fail for longer than the client waits.
    await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
    await sandbox.admin.addFault({ method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 12 });
    const lost = await stepping(journal.payins.create(payinBody('order-7', '4.20', 'http://127.0.0.1:9/none'))).catch((e) => e);
    expect(lost?.name).toBe('OutcomeUnknownError');
    const unknown = await journal.payins.intent('order-7');
    expect(unknown).toMatchObject({
      kind: 'payin',
      referenceId: 'order-7',
      state: 'unknown',
      amount: '4.20',
      currency: 'EUR',
      transaction: null,
    });
    expect(unknown!.decidableAt!.getTime()).toBe(lost.decidableAt.getTime());
    await expect(stepping(journal.payins.create(payinBody('order-7', '4.20', 'http://127.0.0.1:9/none')))).rejects.toMatchObject({
      state: 'unknown',
    });
    let summary = await stepping(journal.recover());
    for (let i = 0; summary.waiting > 0 && i < 20; i++) {
      await clock.advance('1m'); // past its decidable time (seconds away), or a failed lookup's lease
      summary = await stepping(journal.recover());
    }
    expect(summary.waiting).toBe(0);
    expect((await journal.payins.get('order-7'))?.status).toBe('new');
    expect(calls.map((c) => [c.status, c.source])).toEqual([['new', 'recovery']]);
    expect(await onSandbox('order-7')).toHaveLength(1);
  }, 60_000);

  it("refuses an amount it cannot record with the client's own error, naming the field; nothing recorded, nothing sent", async () => {
    for (const amount of ['ten', -1, Number.NaN, '1,50', null]) {
      const refused = await journal.payins.create(payinBody('order-10', amount as never, receiver.url)).catch((e) => e);
      expect(refused).toBeInstanceOf(InvalidRequestError);
      expect(refused.operation).toBe('payins.create');
      expect(refused.errors.map((e: { path: string }) => e.path)).toEqual(['payment.amount']);
    }
    const intents = await journal.transaction((q) => q(`SELECT 1 FROM "${schema}".pay_intents WHERE reference_id = 'order-10'`));
    expect(intents).toEqual([]);
    expect(await onSandbox('order-10')).toHaveLength(0);
  });

  it('frees a reference_id the client refused before sending, for a corrected body with another amount', async () => {
    const refused = await journal.payins.create(payinBody('order-9', '5.00', receiver.url, 'eur')).catch((e) => e);
    expect(refused?.name).toBe('InvalidRequestError'); // the client's: a currency is three capital letters
    expect(refused.errors.map((e: { path: string }) => e.path)).toContain('payment.currency');
    expect(await journal.payins.intent('order-9')).toMatchObject({
      state: 'not_created',
      attempts: 1,
      decidableAt: null,
      transaction: null,
    });
    const created = await journal.payins.create(payinBody('order-9', '6.00', receiver.url));
    expect(created).toMatchObject({ replayed: false, transaction: { amount: '6.00', currency: 'EUR', status: 'new' } });
    expect(await onSandbox('order-9')).toHaveLength(1);
    // Created now: a third body with yet another amount is a conflict with what exists.
    await expect(journal.payins.create(payinBody('order-9', '7.00', receiver.url))).rejects.toMatchObject({
      name: 'ReferenceConflictError',
      recorded: { amount: '6.00', currency: 'EUR' },
    });
  });

  it('decides a create that never reached the service as not created, and lets it be created again', async () => {
    await onTheClock();
    await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_before_commit', count: 10 });
    const lost = await stepping(journal.payins.create(payinBody('order-8', '1', receiver.url))).catch((e) => e);
    // Unknown after its lookups, or refused by the client as never sent in time (NetworkError,
    // TimeoutError): either way it ends not created below.
    expect(['OutcomeUnknownError', 'NetworkError', 'TimeoutError']).toContain(lost?.name);
    await oracle.reset();
    let summary = await stepping(journal.recover());
    for (let i = 0; summary.waiting > 0 && i < 20; i++) {
      await clock.advance('1m'); // past its decidable time (seconds away), or a failed lookup's lease
      summary = await stepping(journal.recover());
    }
    expect((await journal.payins.intent('order-8'))?.state).toBe('not_created');
    const again = await stepping(journal.payins.create(payinBody('order-8', '1', receiver.url)));
    expect(again).toMatchObject({ replayed: false, transaction: { status: 'new' } });
    // Sent a second time under the same reference_id, once proven not created.
    expect(await journal.payins.intent('order-8')).toMatchObject({ state: 'created', attempts: 2, transaction: again.transaction });
    expect(await onSandbox('order-8')).toHaveLength(1);
  }, 60_000);
});
