// The reconciler, on every backend, against the real sandbox: a receiver down for the whole
// webhook retry schedule, then a pass that finds every change by lookup and hands each to the
// handler once; a late resend acknowledged without handling it again; lookups that fail (5xx), lag
// (404), are rate limited (429), or find nothing (a transaction the service forgot), with their
// backoff and the give-up age. Every expectation is read from the sandbox (its records, deliveries
// and request log), not from the journal. The sandbox, the client, the journal and the receiver
// run on one test clock per test, so the webhook schedule, the reconciler's, the client's
// back-offs and the lookup lag never wait for real time; only one lookup attempt's deadline
// (the client's `timeoutMs`, bounding real I/O) does.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Journal, type JournalEvent, type JournalReport, openJournal, type ReconcilerOptions } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { judgedExactlyOnce } from './helpers/oracle.js';
import {
  IN_FLIGHT_LEASE_MS,
  payinBody,
  payoutBody,
  shopClient,
  startReceiver,
  startShopSandbox,
  uniqueReferencesOn,
} from './helpers/shop.js';

const MINUTE = 60_000;
// A zone far from UTC: the sandbox's datetimes carry no offset, and reading one as local time
// would move the schedule by hours. Node applies TZ as soon as it is set.
process.env['TZ'] = 'Pacific/Auckland';

/** A lookup held by the proxy: `arrived` resolves when it comes, `release` lets it through. */
interface Hold {
  arrived: Promise<void>;
  release: () => void;
}

/**
 * A proxy in front of the sandbox that answers the next `failNext` lookups (GETs) itself with
 * `failWith` (429 or 503), holds the next lookup while `hold` is set, and passes everything else
 * through: the service refusing lookups, or one slow to answer.
 */
async function startLookupProxy(target: () => string) {
  const state = { failNext: 0, failWith: 503, refused: 0, hold: undefined as { arrived: () => void; released: Promise<void> } | undefined };
  /** Holds the next lookup until the returned `release` is called. */
  const holdNext = (): Hold => {
    let arrived = () => {};
    let release = () => {};
    const hold = { arrived: new Promise<void>((resolve) => (arrived = resolve)), release: () => release() };
    state.hold = { arrived: () => arrived(), released: new Promise<void>((resolve) => (release = resolve)) };
    return hold;
  };
  const server: Server = createServer(async (req, res) => {
    const hold = req.method === 'GET' ? state.hold : undefined;
    if (hold !== undefined) {
      state.hold = undefined;
      hold.arrived();
      await hold.released;
    }
    if (req.method === 'GET' && state.failNext > 0) {
      state.failNext--;
      state.refused++;
      res.writeHead(state.failWith, { 'content-type': 'application/json', 'retry-after': '1' });
      return void res.end(JSON.stringify({ error: { code: 'refused', message: `the proxy answered ${state.failWith}` } }));
    }
    const upstream = new URL(target());
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    holdNext,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(BACKENDS)('the reconciler on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let proxy: Awaited<ReturnType<typeof startLookupProxy>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let journal: Journal;
  let schema: string;
  let calls: JournalEvent[];
  let reports: JournalReport[];
  let down: boolean;
  let clock: TestClock;
  /** When each pass started, on the clock (ms since it started). */
  let passes: number[];

  beforeAll(async () => {
    backend = await openBackend(backendName, 'reconciler');
    proxy = await startLookupProxy(() => sandbox.url);
    receiver = await startReceiver(
      () => journal,
      () => down,
      () => clock,
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await proxy?.close();
    await backend?.close();
  });
  // A sandbox of each test's own, on that test's clock (a sandbox keeps the clock it starts with).
  beforeEach(async () => {
    clock = createTestClock();
    sandbox = await startShopSandbox({ uniqueReferences: uniqueReferencesOn(backendName), clock });
    Object.assign(proxy.state, { failNext: 0, failWith: 503, refused: 0, hold: undefined });
    schema = freshSchema();
    calls = [];
    reports = [];
    down = true;
    passes = [];
    const start = clock.now();
    journal = await openJournal({
      client: shopClient(proxy.url, undefined, clock),
      // The test clock, noting when each reconciler pass starts.
      clock: Object.freeze({
        ...clock,
        track: <T>(name: string, work: () => Promise<T>) => {
          if (name === 'journal.reconcile') passes.push(clock.now() - start);
          return clock.track(name, work);
        },
      }),
      database: backend.database,
      schema,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
      recoveryLeaseMs: 2_000,
      onReport: (report) => reports.push(report),
      handler: async (event, query) => {
        calls.push(event);
        await query(`INSERT INTO "${schema}".handled (id, status, source) VALUES ($1, $2, $3)`, [event.id, event.status, event.source]);
      },
    });
    await journal.transaction((q) => q(`CREATE TABLE "${schema}".handled (id text, status text, source text)`));
  });
  // Registered before the oracle, so it runs after the oracle has read the sandbox.
  afterEach(async () => {
    await sandbox?.close();
  });
  const oracle = judgedExactlyOnce(() => sandbox);

  /** Moves the one clock (the sandbox's, the client's and the journal's) by `seconds`. */
  const advance = async (seconds: number) => {
    await clock.advance(seconds * 1000);
  };
  const reconcilerOn = (options: ReconcilerOptions = {}) => journal.reconciler({ lookupsPerSecond: 200, ...options });
  /**
   * One pass, the clock moving under it in steps of 100 ms (the pacing between its lookups, 5 ms
   * each, and the client's back-offs) until it ends, and no further: the sandbox's own schedule
   * is not run ahead.
   */
  const runPass = (reconciler: ReturnType<typeof reconcilerOn>) => whileClockSteps(clock, reconciler.runOnce());
  const journalStatus = async (id: string) =>
    (await journal.transaction((q) => q(`SELECT status FROM "${schema}".pay_transactions WHERE id = $1`, [id])))[0]?.['status'];
  /** The sandbox's lookups by id of `id` (its request log). */
  const lookupsOf = async (id: string) =>
    (await sandbox.admin.requests({ limit: 1000 })).filter((r) => r.method === 'GET' && r.path.endsWith(`/${id}`));

  it('finds every change whose webhooks all failed, once the schedule is over, and hands each to the handler once', async () => {
    const created = [
      (await journal.payins.create(payinBody('rec-paid', '10.00', receiver.url))).transaction,
      (await journal.payins.create(payinBody('rec-declined', '11.00', receiver.url))).transaction,
      (await journal.payins.create(payinBody('rec-abandoned', '12.00', receiver.url))).transaction,
      (await journal.payouts.create(payoutBody('rec-payout', '13.00', receiver.url))).transaction,
    ];
    const [paid, declined] = created;
    await sandbox.admin.setStatus('payin', paid!.id, 'executed');
    await sandbox.admin.setStatus('payin', declined!.id, 'failed');
    // The whole retry schedule (the last attempt 1 h 45 min after the first); on the way the
    // sandbox executes the payout and expires the payin nobody paid.
    await advance(2 * 60 * 60);
    const attempts = await sandbox.admin.deliveries();
    expect(attempts.length).toBeGreaterThanOrEqual(4 * 5);
    expect(attempts.every((a) => a.response_status === null)).toBe(true); // every attempt found the receiver down
    const truth = new Map((await sandbox.admin.transactions()).map((t) => [t.id, t.status]));
    expect(created.map((t) => truth.get(t!.id))).toEqual(['executed', 'failed', 'expired', 'executed']);
    for (const t of created) expect(await journalStatus(t!.id)).toBe('new');
    // One more, created now: due 15 min after its first status, and still new on the sandbox then
    // (it expires an unpaid payin after 30 min).
    const pending = (await journal.payins.create(payinBody('rec-pending', '14.00', receiver.url))).transaction;
    await advance(16 * 60);

    const passStart = clock.now();
    const summary = await runPass(reconcilerOn());
    expect(summary).toEqual({
      checked: 5,
      changed: 4,
      unchanged: 1,
      notFound: 0,
      failed: 0,
      gaveUp: 0,
      rateLimited: false,
      recovery: { sent: 0, created: 0, notCreated: 0, conflicts: 0, failed: 0, waiting: 0, nextAt: null },
    });
    for (const t of [...created, pending]) {
      expect(await journalStatus(t!.id)).toBe(truth.get(t!.id) ?? 'new');
      expect(await lookupsOf(t!.id)).toHaveLength(1); // the sandbox's request log shows each lookup once
    }
    // One handler call per (transaction, status): `new` from the create, the rest from the lookups.
    expect(calls.map((c) => `${c.id} ${c.status} ${c.source}`).sort()).toEqual(
      [...created.map((t) => `${t!.id} ${truth.get(t!.id)} reconciler`), ...[...created, pending].map((t) => `${t!.id} new create`)].sort(),
    );
    const checks = reports.filter((r) => r.type === 'check');
    expect(checks.map((r) => `${r.id} ${r.result} ${r.status}`).sort()).toEqual(
      [...created.map((t) => `${t!.id} changed ${truth.get(t!.id)}`), `${pending.id} unchanged new`].sort(),
    );
    expect(checks.filter((r) => r.id !== pending.id).every((r) => r.nextAt === null)).toBe(true);
    // The pending one is looked up again 30 min after this pass began (the second wait doubles
    // the first 15 min), on the journal's clock.
    expect(checks.find((r) => r.id === pending.id)!.nextAt!.getTime()).toBe(passStart + 30 * MINUTE);
    expect(reports.filter((r) => r.type === 'event' && r.source === 'reconciler' && r.outcome === 'change')).toHaveLength(4);

    // The receiver is back; a resend from the dashboard brings a change late: acknowledged, not handled again.
    down = false;
    const before = calls.length;
    await sandbox.admin.resend('payin', paid!.id);
    await clock.advance(0); // the resend's delivery, a job due now, and the receiver's handling of it
    expect((await sandbox.admin.deliveries(paid!.id)).filter((a) => a.response_status === 200)).toHaveLength(1);
    expect(calls).toHaveLength(before);
    expect(reports.at(-1)).toMatchObject({ type: 'event', id: paid!.id, status: 'executed', source: 'webhook', outcome: 'duplicate' });

    // Terminal transactions are never looked up again; the pending one only when due. The
    // receiver is down again when the sandbox expires it (30 min after its creation): the next
    // lookup, 30 min after the last, finds that.
    down = true;
    expect((await runPass(reconcilerOn())).checked).toBe(0);
    await advance(31 * 60);
    expect(await runPass(reconcilerOn())).toMatchObject({ checked: 1, changed: 1 });
    expect(await journalStatus(pending.id)).toBe('expired');
    expect(calls.at(-1)).toMatchObject({ id: pending.id, status: 'expired', previous: 'new', source: 'reconciler' });
    expect(await lookupsOf(pending.id)).toHaveLength(2);
    for (const t of created) expect(await lookupsOf(t!.id)).toHaveLength(1);
  });

  it('backs off a lookup the service refuses (5xx), and ends a pass at a 429, leaving the rest for the next', async () => {
    const a = (await journal.payins.create(payinBody('rec-5xx', '5.00', receiver.url))).transaction;
    const b = (await journal.payins.create(payinBody('rec-429', '6.00', receiver.url))).transaction;
    await sandbox.admin.setStatus('payin', a.id, 'executed');
    await sandbox.admin.setStatus('payin', b.id, 'executed');
    await advance(2 * 60 * 60);

    // Every lookup of the first pass fails with 503, the client's own retries included.
    proxy.state.failWith = 503;
    proxy.state.failNext = 1000;
    const failed = await runPass(reconcilerOn({ batch: 1 }));
    expect(failed).toMatchObject({ checked: 2, failed: 2, changed: 0, rateLimited: false });
    expect(proxy.state.refused).toBeGreaterThanOrEqual(2);
    const failures = reports.filter((r) => r.type === 'check' && r.result === 'failed');
    expect(failures).toHaveLength(2);
    expect(failures.every((r) => r.type === 'check' && /503/.test(r.reason ?? ''))).toBe(true);
    // Backed off: not due again until the next wait (30 min) has passed on the sandbox's clock.
    proxy.state.failNext = 0;
    expect((await runPass(reconcilerOn())).checked).toBe(0);
    await advance(31 * 60);

    // Now 429s (more than the client's own retries) end the pass at the first lookup; the other
    // stays due and is claimed next time.
    proxy.state.failWith = 429;
    proxy.state.failNext = 1000;
    const limited = await runPass(reconcilerOn({ batch: 1 }));
    expect(limited.rateLimited).toBe(true);
    expect(limited.checked).toBe(0);
    expect(reports.at(-1)).toEqual({ type: 'rate_limited' });
    proxy.state.failNext = 0;
    const next = await runPass(reconcilerOn());
    expect(next).toMatchObject({ checked: 2, changed: 2, rateLimited: false });
    expect(await journalStatus(a.id)).toBe('executed');
    expect(await journalStatus(b.id)).toBe('executed');
    expect(calls.map((c) => `${c.id} ${c.status} ${c.source}`).sort()).toEqual(
      [`${a.id} new create`, `${a.id} executed reconciler`, `${b.id} new create`, `${b.id} executed reconciler`].sort(),
    );
  });

  it("takes a lookup that lags (404 for a while) or outlasts the client's limit as no decision, and finds the status later", async () => {
    // Invisible to lookups for 10 min after its creation, on the clock (the service's replicas
    // lagging): the first pass comes before that (first lookups 1 min after the first status,
    // here), the second after.
    const firstCheckMs = MINUTE;
    await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'lookup_lag', count: 1, ms: 10 * MINUTE });
    const lagging = (await journal.payins.create(payinBody('rec-lag', '3.00', receiver.url))).transaction;
    const slow = (await journal.payins.create(payinBody('rec-slow', '4.00', receiver.url))).transaction;
    await sandbox.admin.setStatus('payin', slow.id, 'executed');
    await advance(2 * 60);
    // The slow one's lookup never gets an answer in time: two attempts answered 500 (the client
    // retries them at once, on the clock), and the last one held past the client's limit, until
    // its real deadline (one attempt's timeoutMs, which bounds I/O) ends it.
    const slowPath = `/v2/merchants/payins/${slow.id}`;
    await sandbox.admin.addFault({ method: 'GET', path_prefix: slowPath, kind: 'status_500_after_commit', count: 2 });
    await sandbox.admin.addFault({ method: 'GET', path_prefix: slowPath, kind: 'delay', count: 1, ms: 5_000 });
    const first = await runPass(reconcilerOn({ firstCheckMs }));
    expect(first).toMatchObject({ checked: 2, notFound: 1, failed: 1, changed: 0 });
    const checks = reports.filter((r) => r.type === 'check');
    expect(checks.find((r) => r.id === lagging.id)).toMatchObject({ result: 'not_found' });
    expect(checks.find((r) => r.id === slow.id)).toMatchObject({ result: 'failed', reason: expect.stringMatching(/Timeout/) });
    expect(await journalStatus(lagging.id)).toBe('new');
    expect(await journalStatus(slow.id)).toBe('new');
    // The client's three attempts used the three faults up (its back-offs, on the clock, fit its limit).
    expect((await sandbox.admin.faults()).filter((f) => f.path_prefix === slowPath)).toEqual([]);
    await advance(31 * 60); // the lag is over, and the unpaid payin expired (30 min after its creation)
    const second = await runPass(reconcilerOn({ firstCheckMs }));
    expect(second).toMatchObject({ checked: 2, changed: 2, notFound: 0, failed: 0 });
    expect(await journalStatus(lagging.id)).toBe('expired');
    expect(await journalStatus(slow.id)).toBe('executed');
    expect(
      calls
        .filter((c) => c.source === 'reconciler')
        .map((c) => c.status)
        .sort(),
    ).toEqual(['executed', 'expired']);
  });

  it('keeps looking up a transaction the service does not know (404), then gives up at the give-up age', async () => {
    const lost = (await journal.payins.create(payinBody('rec-forgotten', '7.00', receiver.url))).transaction;
    await oracle.reset(); // the service forgets it
    const options: ReconcilerOptions = { giveUpMs: 3 * 60 * MINUTE, lookupsPerSecond: 200 };
    await clock.advance(20 * MINUTE);
    const first = await journal.reconciler(options).runOnce();
    expect(first).toMatchObject({ checked: 1, notFound: 1, gaveUp: 0 });
    expect(reports.at(-1)).toMatchObject({ type: 'check', id: lost.id, result: 'not_found', checks: 1 });
    await clock.advance(29 * MINUTE);
    expect((await journal.reconciler(options).runOnce()).checked).toBe(0); // the next wait is 30 min
    await clock.advance(2 * MINUTE);
    expect(await journal.reconciler(options).runOnce()).toMatchObject({ checked: 1, notFound: 1 });
    // Past the give-up age: one last lookup, then a give_up report, and never again.
    await clock.advance(4 * 60 * MINUTE);
    expect(await journal.reconciler(options).runOnce()).toMatchObject({ checked: 1, notFound: 1, gaveUp: 1 });
    expect(reports.at(-1)).toEqual({ type: 'give_up', kind: 'payin', id: lost.id, referenceId: 'rec-forgotten', status: 'new', checks: 3 });
    await clock.advance(24 * 60 * MINUTE);
    expect((await journal.reconciler(options).runOnce()).checked).toBe(0);
    expect(await journalStatus(lost.id)).toBe('new'); // left for a person: the journal never invents a status
  });

  it('runs as a loop: start, a pass now and then, stop with no timer left', async () => {
    const t = (await journal.payins.create(payinBody('rec-loop', '8.00', receiver.url))).transaction;
    await sandbox.admin.setStatus('payin', t.id, 'executed');
    await advance(2 * 60 * 60);
    const loop = reconcilerOn({ everyMs: MINUTE });
    const started = passes.length;
    loop.start();
    loop.start(); // a second start is a no-op
    await clock.advance(3 * MINUTE);
    // A pass at once, then one each minute after the last ended (a pass takes no clock time here).
    const at = (ms: number) => 2 * 60 * 60 * 1000 + ms;
    expect(passes.slice(started)).toEqual([at(0), at(MINUTE), at(2 * MINUTE), at(3 * MINUTE)]);
    expect(await journalStatus(t.id)).toBe('executed');
    await loop.stop();
    expect(clock.pending).toBe(0); // no timer left
    const passesAtStop = passes.length;
    await clock.advance('1h');
    expect(passes.length).toBe(passesAtStop); // nothing ran after stop()
    expect(calls.filter((c) => c.status === 'executed')).toHaveLength(1);
  });

  it('stops the pass under way even when runOnce is called while stop() waits for it', async () => {
    const created: string[] = [];
    for (let i = 0; i < 6; i++)
      created.push((await journal.payins.create(payinBody(`rec-stop-${i}`, `${20 + i}.00`, receiver.url))).transaction.id);
    for (const id of created) await sandbox.admin.setStatus('payin', id, 'executed');
    await advance(2 * 60 * 60);
    // The loop's pass claims all six rows (one batch), then its first lookup is held at the proxy.
    const held = proxy.holdNext();
    const loop = reconcilerOn({ batch: 10 });
    loop.start();
    await held.arrived;
    const stopped = loop.stop();
    // A pass of its own while stop() waits: it finds every row held by the loop's pass.
    expect(await loop.runOnce()).toMatchObject({ checked: 0 });
    held.release();
    await stopped;
    // The loop's pass ended after the lookup under way (whatever it found), and gave the other five
    // rows back at once: the next pass looks up exactly those.
    const checked = () => reports.filter((r) => r.type === 'check').map((r) => (r as { id: string }).id);
    expect(checked()).toHaveLength(1);
    const released = created.filter((id) => id !== checked()[0]);
    expect(released).toHaveLength(5);
    expect(await runPass(reconcilerOn())).toMatchObject({ checked: 5, changed: 5 });
    expect(checked().slice(1).sort()).toEqual([...released].sort());
    for (const id of released) expect(await journalStatus(id)).toBe('executed');
  });

  it('refuses unusable options with a TypeError naming the option', () => {
    expect(() => journal.reconciler({ firstCheckMs: 0 })).toThrow(/firstCheckMs/);
    expect(() => journal.reconciler({ lookupsPerSecond: -1 })).toThrow(/lookupsPerSecond/);
    expect(() => journal.reconciler({ batch: 5000 })).toThrow(/batch/);
    expect(() => journal.reconciler({ now: 'soon' } as never)).toThrow(/now is not an option of the reconciler/);
  });

  it('reads options one way: the same option refused with the same message by recover() and the reconciler', async () => {
    const message = 'batch must be a whole number from 1 to 1000';
    expect(() => journal.reconciler({ batch: 0 })).toThrow(new TypeError(message));
    await expect(journal.recover({ batch: 0 })).rejects.toThrow(new TypeError(message));
    await expect(journal.recover({ batch: 1.5 })).rejects.toThrow(new TypeError(message));
    expect(() => journal.reconciler(null as never)).toThrow(new TypeError('reconciler options must be an object'));
    await expect(journal.recover(null as never)).rejects.toThrow(new TypeError('recover options must be an object'));
  });
});
