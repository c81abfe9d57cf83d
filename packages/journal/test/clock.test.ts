// The journal on a clock the test moves (createTestClock of @pay/clock), on every backend, against
// the real sandbox over loopback: the reconciler's passes and lookups come at the clock times of
// its schedule; a dead worker's lease ends on the clock and another worker takes its work; the
// times the journal writes (decidable_at, since, due_at, recorded_at, lease_until) are the clock's,
// read back from the database; a create whose outcome is unknown is decided once the clock says.
// The clock starts years away from the real time, so a time read from the machine or from the
// database's now() would show at once: every assertion below compares with exact clock times.
import type { Client } from '@pay/client';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Journal, type JournalReport, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { IN_FLIGHT_LEASE_MS, payinBody, shopClient, startShopSandbox, TOTAL_TIMEOUT_MS } from './helpers/shop.js';

const MINUTE = 60_000;
const START = Date.parse('2031-03-01T08:00:00.000Z');
const NOWHERE = 'http://127.0.0.1:9/none';
/** lookupsPerSecond 200: 5 ms between lookups, part of a check's lease (leases.ts). */
const LOOKUP_LEASE_MS = TOTAL_TIMEOUT_MS + 5 + 10_000;

/** A client whose payin creates go through `create` instead (the rest is the real client's). */
const withCreate = (client: Client, create: Client['payins']['create']): Client =>
  ({ ...client, payins: { ...client.payins, create } }) as Client;

it('refuses a clock that is not one with a TypeError naming the option', async () => {
  const client = shopClient('http://127.0.0.1:9');
  await expect(openJournal({ client, clock: { now: () => 0 } as never })).rejects.toThrow(
    new TypeError('clock.sleep must be a function (a Clock has now, sleep, alarm and track)'),
  );
  await expect(openJournal({ client, clock: 'now' as never })).rejects.toThrow(/^clock must be a Clock/);
});

describe.each(BACKENDS)('the journal on a test clock, on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let clock: TestClock;
  let schema: string;
  let reports: { at: number; report: JournalReport }[];

  beforeAll(async () => {
    backend = await openBackend(backendName, 'clock');
    sandbox = await startShopSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
    await backend?.close();
  });
  beforeEach(async () => {
    await sandbox.admin.reset();
    clock = createTestClock({ start: START });
    schema = freshSchema();
    reports = [];
  });

  /** A journal (an instance) on the test clock, or on `onClock`, a view of it. */
  const open = (client: Client = shopClient(sandbox.url), onClock: typeof clock = clock) =>
    openJournal({
      client,
      database: backend.database,
      schema,
      clock: onClock,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
      onReport: (report) => reports.push({ at: clock.now(), report }),
    });
  /** A timestamp column of the journal's table `table`, as unix ms of the row `where`. */
  const timeOf = async (journal: Journal, column: string, table: string, where = 'true') => {
    const rows = await journal.transaction((q) =>
      q(`SELECT (extract(epoch FROM ${column}) * 1000)::float8 AS ms FROM "${schema}".pay_${table} WHERE ${where}`),
    );
    return rows.map((r) => (r['ms'] === null ? null : Number(r['ms'])));
  };
  const checksDone = () => reports.filter((r) => r.report.type === 'check');

  it("runs the reconciler's passes at the clock times of its schedule: 4 h of lookups in one advance", async () => {
    const passes: number[] = [];
    // The clock as the journal sees it, noting when each pass starts.
    const noting = Object.freeze({
      ...clock,
      track: <T>(name: string, work: () => Promise<T>) => {
        if (name === 'journal.reconcile') passes.push(clock.now() - START);
        return clock.track(name, work);
      },
    });
    const journal = await open(undefined, noting);
    const { transaction } = await journal.payins.create(payinBody('clock-a', '10.00', NOWHERE));
    const reconciler = journal.reconciler({ everyMs: 5 * MINUTE, lookupsPerSecond: 200 });
    reconciler.start();
    await clock.advance('4h');
    await reconciler.stop();
    // A pass every 5 min from the start, each the moment the last one's wait ended.
    expect(passes).toEqual(Array.from({ length: 49 }, (_, i) => i * 5 * MINUTE));
    // The payin (still new on the sandbox) looked up 15 min after its first status, then after
    // waits that double (30 min, 1 h) up to 2 h: at 15 min, 45 min, 1 h 45 min and 3 h 45 min.
    expect(checksDone().map((r) => r.at - START)).toEqual([15, 45, 105, 225].map((m) => m * MINUTE));
    expect(checksDone().map((r) => (r.report.type === 'check' ? r.report.nextAt!.getTime() - START : 0))).toEqual(
      [45, 105, 225, 345].map((m) => m * MINUTE),
    );
    expect(checksDone().every((r) => r.report.type === 'check' && r.report.id === transaction.id && r.report.result === 'unchanged')).toBe(
      true,
    );
    expect(clock.pending).toBe(0); // stop() cancelled the loop's alarm
  });

  it("writes clock times: a check's since and due_at, an event's recorded_at, an unknown create's decidable_at", async () => {
    const journal = await open();
    const { transaction } = await journal.payins.create(payinBody('clock-c1', '3.00', NOWHERE));
    expect(await timeOf(journal, 'since', 'checks')).toEqual([START]);
    expect(await timeOf(journal, 'due_at', 'checks')).toEqual([null]); // since + firstCheckMs
    expect(await timeOf(journal, 'created_at', 'transactions')).toEqual([START]);
    expect((await journal.history('payin', transaction.id)).map((h) => h.recordedAt.getTime())).toEqual([START]);
    await clock.advance('15m');
    expect(await journal.reconciler({ lookupsPerSecond: 200 }).runOnce()).toMatchObject({ checked: 1, unchanged: 1 });
    expect(await timeOf(journal, 'due_at', 'checks')).toEqual([START + 45 * MINUTE]);

    // An error that proves nothing: unknown, decidable when its in-flight lease (claimed at the
    // clock's now) ends.
    await clock.advance('1m');
    const claimedAt = clock.now();
    const losing = await open(withCreate(shopClient(sandbox.url), () => Promise.reject(new Error('socket hang up'))));
    await expect(losing.payins.create(payinBody('clock-c2', '4.00', NOWHERE))).rejects.toThrow('socket hang up');
    const intent = await losing.payins.intent('clock-c2');
    expect(intent).toMatchObject({ state: 'unknown' });
    expect(intent?.decidableAt?.getTime()).toBe(claimedAt + IN_FLIGHT_LEASE_MS);
    expect(await timeOf(journal, 'decidable_at', 'intents', "reference_id = 'clock-c2'")).toEqual([claimedAt + IN_FLIGHT_LEASE_MS]);
    expect(await timeOf(journal, 'updated_at', 'intents', "reference_id = 'clock-c2'")).toEqual([claimedAt]);
  });

  it('decides a create whose outcome is unknown once the clock reaches its decidable time, not before', async () => {
    const real = shopClient(sandbox.url);
    // The service creates it, and its answer is lost on the way back.
    const journal = await open(
      withCreate(real, async (body) => {
        await real.payins.create(body);
        throw new Error('socket hang up');
      }),
    );
    await expect(journal.payins.create(payinBody('clock-d', '6.00', NOWHERE))).rejects.toThrow('socket hang up');
    const decidableAt = START + IN_FLIGHT_LEASE_MS;
    expect(await journal.recover()).toMatchObject({ created: 0, waiting: 1, nextAt: new Date(decidableAt) });
    await clock.advance(IN_FLIGHT_LEASE_MS - 1);
    expect(await journal.recover()).toMatchObject({ created: 0, waiting: 1 });
    await clock.advance(1);
    expect(await journal.recover()).toMatchObject({ created: 1, waiting: 0, nextAt: null });
    const intent = await journal.payins.intent('clock-d');
    expect(intent).toMatchObject({ state: 'created', transaction: { status: 'new' } });
    expect((await journal.history('payin', intent!.transaction!.id)).map((h) => [h.source, h.recordedAt.getTime()])).toEqual([
      ['recovery', decidableAt],
    ]);
  });

  it('sends a queued create nobody sent when the clock reaches sendQueuedAfterMs, from a reconciler pass', async () => {
    const journal = await openJournal({
      client: shopClient(sandbox.url),
      database: backend.database,
      schema,
      clock,
      sendQueuedAfterMs: 10 * MINUTE,
    });
    await journal.transaction((q) => journal.payins.enqueue(q, payinBody('clock-q', '7.00', NOWHERE)));
    const reconciler = journal.reconciler({ everyMs: MINUTE });
    reconciler.start();
    await clock.advance(10 * MINUTE - 1);
    expect(await journal.payins.intent('clock-q')).toMatchObject({ state: 'queued' });
    await clock.advance(1);
    expect(await journal.payins.intent('clock-q')).toMatchObject({ state: 'created' });
    await reconciler.stop();
    expect((await sandbox.admin.transactions()).filter((t) => t.reference_id === 'clock-q')).toHaveLength(1);
  });

  it('tracks its background work on the clock: a webhook event, a queued send, recover()', async () => {
    const journal = await open();
    const { transaction } = await journal.payins.create(payinBody('clock-t', '9.00', NOWHERE));
    const handling = journal.webhook().handler({ id: transaction.id, reference_id: 'clock-t', status: 'executed' } as never);
    expect(clock.busy).toEqual(['journal.inbox']);
    await handling;
    await journal.transaction((q) => journal.payins.enqueue(q, payinBody('clock-t2', '9.50', NOWHERE)));
    const sending = journal.payins.send('clock-t2');
    expect(clock.busy).toEqual(['journal.send']);
    await sending;
    const recovering = journal.recover();
    expect(clock.busy).toEqual(['journal.recover']);
    await recovering;
    expect(clock.busy).toEqual([]);
    expect((await journal.history('payin', transaction.id)).map((h) => [h.status, h.source, h.recordedAt.getTime()])).toEqual([
      ['new', 'create', START],
      ['executed', 'webhook', START],
    ]);
  });

  it("gives a dead worker's create back when its lease ends on the clock, and another worker decides it", async () => {
    let reached = () => {};
    const sent = new Promise<void>((resolve) => (reached = resolve));
    // The worker dies with its request in the air: the create never answers.
    const dead = await open(
      withCreate(shopClient(sandbox.url), () => {
        reached();
        return new Promise(() => {});
      }),
    );
    void dead.payins.create(payinBody('clock-b1', '5.00', NOWHERE));
    await sent; // its intent committed in flight before the request left
    expect(await timeOf(dead, 'lease_until', 'intents')).toEqual([START + IN_FLIGHT_LEASE_MS]);
    const other = await open();
    expect(await other.recover()).toMatchObject({ notCreated: 0, waiting: 1, nextAt: new Date(START + IN_FLIGHT_LEASE_MS) });
    await clock.advance(IN_FLIGHT_LEASE_MS - 1);
    expect(await other.recover()).toMatchObject({ notCreated: 0, waiting: 1 });
    await clock.advance(1);
    // Its lease over, the other worker looks it up: the service never got it, so not created.
    expect(await other.recover()).toMatchObject({ notCreated: 1, waiting: 0 });
    expect(await other.payins.intent('clock-b1')).toMatchObject({ state: 'not_created' });
  });

  it("gives a dead reconciler's checks back when their lease ends on the clock, and another reconciler looks them up", async () => {
    const journal = await open();
    const { transaction } = await journal.payins.create(payinBody('clock-b2', '8.00', NOWHERE));
    await clock.advance('15m');
    let reached = () => {};
    const claimed = new Promise<void>((resolve) => (reached = resolve));
    const real = shopClient(sandbox.url);
    const hang = () => {
      reached();
      return new Promise(() => {});
    };
    const hanging = { ...real, payins: { ...real.payins, get: hang } } as unknown as Client;
    // Another process: the same time, but its work is not the test's to wait for (it never ends).
    const elsewhere = Object.freeze({ ...clock, track: <T>(_name: string, work: () => Promise<T>) => work() });
    const dead = await open(hanging, elsewhere);
    void dead.reconciler({ lookupsPerSecond: 200 }).runOnce();
    await claimed;
    expect(await timeOf(journal, 'lease_until', 'checks')).toEqual([clock.now() + LOOKUP_LEASE_MS]);
    const alive = journal.reconciler({ lookupsPerSecond: 200 });
    expect((await alive.runOnce()).checked).toBe(0);
    await clock.advance(LOOKUP_LEASE_MS - 1);
    expect((await alive.runOnce()).checked).toBe(0);
    await clock.advance(1);
    expect(await alive.runOnce()).toMatchObject({ checked: 1, unchanged: 1 });
    expect(checksDone().map((r) => r.report.type === 'check' && r.report.id)).toEqual([transaction.id]);
  });
});
