// A reconciler pass over a backlog holds one batch at a time, on every backend: every statement it
// sends is counted at the driver (helpers/counted.ts), and none may return more rows than the
// batch, however many are pending, while every due transaction is looked up exactly once, most
// overdue first, and none that is not due or is leased by another instance. The backlog is
// written straight into the journal's tables (as the event path leaves them, with due times that
// tie, and both kinds) for transactions created on the real sandbox first, which the pass looks up
// there over loopback HTTP. The journal's test clock moves the pass's pacing, so a long pass takes
// no real time: it also shows that each row's lease runs from its claim, not from the pass's start,
// however long the pass has lasted. (The client and the sandbox stay on the real clock, which only
// signs and checks the lookups.)
import { createClient } from '@pay/client';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import type { RunningSandbox } from '@pay/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { type Counter, counted } from './helpers/counted.js';
import { payinBody, payoutBody, shopClientOptions, startShopSandbox, TOTAL_TIMEOUT_MS } from './helpers/shop.js';

/**
 * Transactions written; a quarter of them not due or leased elsewhere. Twenty-five times the
 * batch: what the test proves (no statement returns more than a batch) needs the backlog many
 * batches long, not long in itself, and every row costs a create over HTTP (once) and a lookup (on
 * each backend). A pass that read every due row at once, or two batches at a time, fails it.
 */
const PENDING = 200;
const BATCH = 8;
/** The pass's pace: one lookup per 2 s of the test clock (the clock moves a lookup's gap a step), so it lasts minutes on it. */
const LOOKUPS_PER_SECOND = 0.5;
/** A lookup's lease: the client's whole call (the shop client's), the pacing and the 10 s margin (leases.ts). */
const LEASE_MS = TOTAL_TIMEOUT_MS + 1000 / LOOKUPS_PER_SECOND + 10_000;
/** Every this many lookups, the row's lease is read while its lookup is under way. */
const LEASE_EVERY = 25;

/**
 * The backlog, by the number `n` of each transaction: its kind, its id (`$3`, the sandbox's, by n),
 * and where it stands for a pass at `start`:
 * never looked up (due `since` + 15 min), looked up before (due_at), not due yet, or due but
 * leased by another instance. Due times fall on whole minutes, so many tie, across both kinds of
 * row too. Every seventh has become `executed` on the sandbox.
 */
const backlogSql = (schema: string) => `
  WITH backlog AS (
    SELECT n, CASE WHEN n % 3 = 0 THEN 'payout' ELSE 'payin' END AS kind,
           ($3::text[])[n] AS id,
           n % 8 AS place, (n % 40) * interval '1 minute' AS age
      FROM generate_series(1, $2::int) n),
  transactions AS (
    INSERT INTO "${schema}".pay_transactions (kind, id, reference_id, amount, currency, status, statuses)
      SELECT kind, id, 'backlog-' || n, 10.00, 'EUR', 'new', ARRAY['new'] FROM backlog)
  INSERT INTO "${schema}".pay_checks (kind, id, since, due_at, checks, lease_owner, lease_until)
    SELECT kind, id,
           CASE WHEN place < 4 THEN $1::timestamptz - interval '20 minutes' - age
                WHEN place = 6 AND n % 2 = 0 THEN $1::timestamptz - interval '5 minutes'
                ELSE $1::timestamptz - interval '3 hours' END,
           CASE WHEN place IN (4, 5) THEN $1::timestamptz - interval '5 minutes' - age
                WHEN place = 6 AND n % 2 = 1 THEN $1::timestamptz + interval '10 minutes'
                WHEN place = 7 THEN $1::timestamptz - age END,
           CASE WHEN place IN (4, 5, 7) THEN 2 ELSE 0 END,
           CASE WHEN place = 7 THEN 'another-instance' END,
           CASE WHEN place = 7 THEN $1::timestamptz + interval '10 minutes' END
      FROM backlog`;

/** The backlog's transactions as the test expects a pass to see them (their ids, once created on the sandbox). */
const backlog = Array.from({ length: PENDING }, (_, i) => {
  const n = i + 1;
  const kind: 'payin' | 'payout' = n % 3 === 0 ? 'payout' : 'payin';
  const place = n % 8;
  // Minutes before the pass's start it fell due (both kinds of due row), for those due.
  const overdue = place < 6 ? 5 + (n % 40) : undefined;
  return { n, kind, id: '', due: place < 6, overdue, executed: n % 7 === 0 };
});
const due = backlog.filter((t) => t.due);

// One sandbox for the three backends, its transactions made once: each backend's pass only looks
// them up (a GET changes nothing there), and each journal writes its own backlog of their ids.
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startShopSandbox();
  // The sandbox's transactions, created through a client of their own.
  const maker = createClient(shopClientOptions(sandbox.url, 30_000));
  const hooks = 'http://127.0.0.1:9/hooks'; // nobody listens: the pass looks the statuses up
  for (let from = 0; from < PENDING; from += 100) {
    await Promise.all(
      backlog.slice(from, from + 100).map(async (t) => {
        const body = t.kind === 'payin' ? payinBody(`backlog-${t.n}`, '10.00', hooks) : payoutBody(`backlog-${t.n}`, '10.00', hooks);
        const { data } = t.kind === 'payin' ? await maker.payins.create(body) : await maker.payouts.create(body);
        t.id = data.id;
        if (t.executed) await sandbox.admin.setStatus(t.kind, t.id, 'executed');
      }),
    );
  }
});
afterAll(() => sandbox?.close());

describe.each(BACKENDS)('a reconciler pass over a backlog on %s', (backendName) => {
  let backend: Backend;
  let counter: Counter;
  let journal: Journal;
  let clock: TestClock;
  let schema: string;
  /** The ids looked up, in order, and each lookup's lease as read while it was under way. */
  let lookups: string[];
  let leases: { id: string; owner: unknown; untilMs: number; nowMs: number }[];

  /** How many lookups the sandbox answered with a status other than the recorded `new`. */
  let changedThere: number;

  beforeAll(async () => {
    backend = await openBackend(backendName, 'reconciler_backlog');
    counter = counted(backend);
    clock = createTestClock({ start: '2031-05-01T12:00:00Z' });
    schema = freshSchema();
    lookups = [];
    leases = [];
    changedThere = 0;
    // The pass's lookups, seen on their way: each one's id and what the sandbox answered; every
    // LEASE_EVERY-th first reads the row's lease (with the counter off: the test's statement, not the pass's).
    const watching: typeof fetch = async (input, init) => {
      const id = new URL(String(input)).pathname.split('/').at(-1) ?? '';
      const lookup = (init?.method ?? 'GET') === 'GET' && /^p[io]_/.test(id);
      if (lookup) {
        lookups.push(id);
        if (lookups.length % LEASE_EVERY === 0) {
          counter.counting = false;
          leases.push({ id, ...(await leaseOf(id)), nowMs: clock.now() });
          counter.counting = true;
        }
      }
      const answer = await fetch(input, init);
      if (lookup && answer.ok && ((await answer.clone().json()) as { status?: unknown }).status !== 'new') changedThere++;
      return answer;
    };
    const client = createClient({ ...shopClientOptions(sandbox.url), fetch: watching });
    journal = await openJournal({ client, clock, database: counter.database, schema });
    await journal.transaction((q) => q(backlogSql(schema), [new Date(clock.now()).toISOString(), PENDING, backlog.map((t) => t.id)]));
  });
  /** Who holds the lease of row `id`, and until when (unix ms on the clock). */
  async function leaseOf(id: string) {
    const [row] = await journal.transaction((q) =>
      q(`SELECT lease_owner, (extract(epoch FROM lease_until) * 1000)::float8 AS until FROM "${schema}".pay_checks WHERE id = $1`, [id]),
    );
    return { owner: row?.['lease_owner'], untilMs: Number(row?.['until']) };
  }
  afterAll(async () => {
    await journal?.close();
    await backend?.close();
  });

  it('reads no more than one batch in any statement, and looks every due transaction up once, most overdue first', async () => {
    counter.counting = true;
    const summary = await whileClockSteps(
      clock,
      journal.reconciler({ batch: BATCH, lookupsPerSecond: LOOKUPS_PER_SECOND }).runOnce(),
      1000 / LOOKUPS_PER_SECOND,
    );
    counter.counting = false;

    const most = Math.max(...counter.statements.map((s) => s.rows));
    expect(most, 'the most rows one statement of the pass returned').toBe(BATCH); // full batches, never more
    const claims = counter.statements.filter((s) => s.text.includes('SKIP LOCKED') && s.text.includes('pay_checks'));
    expect(claims.length).toBe(Math.floor(due.length / BATCH) + 1); // the last one finds fewer: the walk's end

    expect([...lookups].sort()).toEqual(due.map((t) => t.id).sort()); // each due one once, no other
    // Every executed one changed; a payout the sandbox executed meanwhile (60 s after its create) too.
    expect(changedThere).toBeGreaterThanOrEqual(due.filter((t) => t.executed).length);
    expect(summary).toMatchObject({ checked: due.length, changed: changedThere, failed: 0, rateLimited: false });
    // Most overdue first: in the order of due time (ties in the database's order).
    const overdue = new Map(due.map((t) => [t.id, t.overdue!]));
    const order = lookups.map((id) => overdue.get(id)!);
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });

  it('holds each row it looks up: its lease runs from its claim, however long the pass has lasted', () => {
    expect(leases.length).toBe(Math.floor(due.length / LEASE_EVERY));
    // The pass lasted longer than a lease many times over, on the clock.
    expect(leases.at(-1)!.nowMs - leases[0]!.nowMs).toBeGreaterThan(10 * LEASE_MS);
    for (const lease of leases) {
      expect(lease.owner, lease.id).not.toBeNull();
      expect(lease.owner, lease.id).not.toBe('another-instance');
      expect(lease.untilMs - lease.nowMs, lease.id).toBeGreaterThan(0);
    }
  });

  it('leaves alone what was not due and what another instance holds', async () => {
    const rows = await journal.transaction((q) =>
      q(`SELECT id, checks, lease_owner FROM "${schema}".pay_checks WHERE id = ANY ($1::text[])`, [
        backlog.filter((t) => !t.due).map((t) => t.id),
      ]),
    );
    expect(rows).toHaveLength(PENDING - due.length);
    for (const row of rows) expect(row['checks']).toBe(row['lease_owner'] === 'another-instance' ? 2 : 0);
  });
});
