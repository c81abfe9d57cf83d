// What the journal makes of a client's errors, on every backend, against the real sandbox: only
// an error that proves nothing was created (refused before sending, or a 4xx refusal answered by
// the service) frees a reference_id; anything else, an error it does not recognise included, is
// "outcome unknown", never sent again, and decided by a lookup. Errors are recognised by brand,
// so a client from a second installed copy of @pay/client is read exactly as this copy's. After
// each test the exactly-once oracle reads the sandbox (in the mode helpers/shop.ts's
// uniqueReferencesOn gives the backend). Each journal runs on a test clock of its own, so
// recovery never waits for a decidable time in real time.
import * as ThisCopy from '@pay/client';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { judgedExactlyOnce } from './helpers/oracle.js';
import { secondClientCopy } from './helpers/second-copy.js';
import {
  IN_FLIGHT_LEASE_MS,
  MERCHANT,
  payinBody,
  SETTLE_S,
  startShopSandbox,
  TOLERANCE_S,
  TOTAL_TIMEOUT_MS,
  uniqueReferencesOn,
} from './helpers/shop.js';

const NOWHERE = 'http://127.0.0.1:9/none';

describe.each(BACKENDS)('on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let copy: Awaited<ReturnType<typeof secondClientCopy>>;
  const journals: Journal[] = [];
  const clocks = new Map<Journal, TestClock>();

  /** The block's sandbox (on the real clock), while a test runs on a sandbox of its own on a test clock. */
  let realSandbox: RunningSandbox | undefined;

  /**
   * A client of `clientModule` (this copy or the second) for the test sandbox, with the tests'
   * short limits; on `clock` when given (the real clock by default).
   */
  const clientOf = (clientModule: typeof ThisCopy, secret = MERCHANT.secret, clock?: TestClock) =>
    clientModule.createClient({
      clock,
      baseUrl: sandbox.url,
      merchantId: MERCHANT.id,
      secret,
      toleranceSeconds: TOLERANCE_S,
      settleSeconds: SETTLE_S,
      totalTimeoutMs: TOTAL_TIMEOUT_MS,
      timeoutMs: 2_000,
    });

  const open = async (client: ThisCopy.Client, clock = createTestClock()) => {
    const journal = await openJournal({
      client,
      clock,
      database: backend.database,
      schema: freshSchema(),
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
    });
    journals.push(journal);
    clocks.set(journal, clock);
    return journal;
  };

  /** A client whose creates reach the service and then end in `error` all the same (as a broken proxy or wrapper would). */
  const throwingAfterCreate = (error: unknown): ThisCopy.Client => {
    const real = clientOf(ThisCopy);
    return {
      ...real,
      payins: {
        ...real.payins,
        create: async (body: Parameters<typeof real.payins.create>[0]) => {
          await real.payins.create(body);
          throw error;
        },
      },
    } as ThisCopy.Client;
  };

  const onSandbox = async (reference: string) => (await sandbox.admin.transactions()).filter((t) => t.reference_id === reference);

  /**
   * recover() until nothing waits, the journal's clock a minute on before each: past every
   * decidable time of these tests (the in-flight lease, or a client's decidableAt: seconds away),
   * and past the recovery lease of a lookup that failed (while a fault still refuses them).
   */
  const recoverAll = async (journal: Journal) => {
    const clock = clocks.get(journal)!;
    let summary: Awaited<ReturnType<Journal['recover']>>;
    let rounds = 0;
    do {
      await clock.advance('1m');
      summary = await journal.recover();
    } while (summary.waiting > 0 && ++rounds < 20);
    return summary;
  };

  beforeAll(async () => {
    backend = await openBackend(backendName, 'fail_safe');
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(backendName) });
    copy = await secondClientCopy();
  });
  afterAll(async () => {
    await Promise.all(journals.map((j) => j.close()));
    copy?.remove();
    await sandbox?.close();
    await backend?.close();
  });
  beforeEach(async () => {
    await sandbox.admin.reset();
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
   * Moves this test onto a sandbox of its own on `clock`, followed by the oracle from here: a
   * client on that clock then waits out a lost create (lookups, back-offs, the tolerance and
   * settle margin) on the clock, not in real time.
   */
  const sandboxOn = async (clock: TestClock) => {
    realSandbox = sandbox;
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(backendName), clock });
    await oracle.reset();
  };

  it('the second copy is a real one: its classes are not this copy’s, its errors carry the same brand', () => {
    const error = new copy.module.NotFoundError('payins.get', {
      status: 404,
      headers: new Headers({ 'content-type': 'application/json' }),
      body: '{"error":{"code":"not_found"}}',
      truncated: false,
    });
    expect(error instanceof ThisCopy.NotFoundError).toBe(false);
    expect(error instanceof ThisCopy.PayError).toBe(false);
    expect(ThisCopy.isPayError(error, 'not_found')).toBe(true);
    expect(ThisCopy.isPayError(error, 'api')).toBe(true);
    expect(ThisCopy.isPayError(error, 'outcome_unknown')).toBe(false);
  });

  it('takes any error it cannot read after a create for "outcome unknown": not sent again, decided by lookup as created', async () => {
    const errors = [
      new Error('a proxy in the middle said something odd'),
      new TypeError('cannot read properties of undefined'),
      'socket hang up',
      Object.assign(new Error('refused'), { name: 'ApiError', status: 400 }), // a look-alike without the brand
      new ThisCopy.ApiError('payins.create', { status: 409, headers: new Headers(), body: '', truncated: false }), // something holds the reference
      new copy.module.ApiError('payins.create', { status: 503, headers: new Headers(), body: '', truncated: false }),
    ];
    // All at once, each on a journal of its own: the tests' lease is waited out once.
    await Promise.all(
      errors.map(async (error, i) => {
        const journal = await open(throwingAfterCreate(error));
        const reference = `odd-${i}`;
        await expect(journal.payins.create(payinBody(reference, '3.10', NOWHERE))).rejects.toBe(error);
        expect(await journal.payins.intent(reference)).toMatchObject({ state: 'unknown', transaction: null });
        // A repeat sends nothing while the outcome is open.
        await expect(journal.payins.create(payinBody(reference, '3.10', NOWHERE))).rejects.toMatchObject({
          name: 'CreateInFlightError',
          state: 'unknown',
        });
        expect(await onSandbox(reference)).toHaveLength(1);
        expect((await recoverAll(journal)).waiting).toBe(0);
        const decided = await journal.payins.intent(reference);
        expect(decided).toMatchObject({ state: 'created', attempts: 1 });
        expect(decided!.transaction!.id).toBe((await onSandbox(reference))[0]!.id);
        expect(await onSandbox(reference)).toHaveLength(1);
      }),
    );
  }, 60_000);

  it('frees the reference_id only for a refusal the service answered (401 from a wrong secret), from either copy', async () => {
    for (const [name, module] of [
      ['this', ThisCopy],
      ['second', copy.module],
    ] as const) {
      const journal = await open(clientOf(module, 'sk_test_wrong'));
      const refused = await journal.payins.create(payinBody(`refused-${name}`, '2', NOWHERE)).catch((e) => e);
      expect(ThisCopy.isPayError(refused, 'authentication')).toBe(true);
      expect(await journal.payins.intent(`refused-${name}`)).toMatchObject({ state: 'not_created' });
    }
  });

  it('reads an OutcomeUnknownError of the second copy as unknown, with its decidableAt, and never re-sends', async () => {
    const clock = createTestClock();
    await sandboxOn(clock);
    const journal = await open(clientOf(copy.module, MERCHANT.secret, clock), clock);
    // The create commits on the sandbox, its answer is lost, and lookups fail for longer than the client waits.
    await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
    await sandbox.admin.addFault({ method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 12 });
    const lost = await whileClockSteps(clock, journal.payins.create(payinBody('copy-lost', '4.20', NOWHERE))).catch((e) => e);
    expect(lost instanceof ThisCopy.OutcomeUnknownError).toBe(false);
    expect(ThisCopy.isPayError(lost, 'outcome_unknown')).toBe(true);
    const intent = await journal.payins.intent('copy-lost');
    expect(intent).toMatchObject({ state: 'unknown' });
    expect(intent!.decidableAt!.getTime()).toBe(lost.decidableAt.getTime());
    await expect(journal.payins.create(payinBody('copy-lost', '4.20', NOWHERE))).rejects.toMatchObject({ name: 'CreateInFlightError' });
    expect((await whileClockSteps(clock, recoverAll(journal))).waiting).toBe(0);
    expect(await journal.payins.intent('copy-lost')).toMatchObject({ state: 'created' });
    expect(await onSandbox('copy-lost')).toHaveLength(1);
  }, 60_000);

  it('places a webhook only on a proven 404: a lookup that fails otherwise is a LookupFailedError (retry), not an unknown transaction', async () => {
    const journal = await open(clientOf(copy.module));
    const handler = journal.webhook().handler;
    const event = { id: 'pi_elsewhere', reference_id: 'made-elsewhere', status: 'executed' } as never;
    await sandbox.admin.addFault({
      method: 'GET',
      path_prefix: '/v2/merchants/payins/pi_elsewhere',
      kind: 'status_500_after_commit',
      count: 50,
    });
    const failed: any = await Promise.resolve(handler(event)).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'LookupFailedError', code: 'lookup_failed', transactionId: 'pi_elsewhere' });
    expect(ThisCopy.isPayError(failed.cause, 'api')).toBe(true);
    // Both lookups answered a proven 404: now it is a transaction neither kind knows.
    await oracle.reset();
    const unknown = await Promise.resolve(handler(event)).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'UnknownTransactionError', code: 'unknown_transaction' });
  }, 60_000);
});
