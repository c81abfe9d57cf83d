// A reconciler pass over a backlog holds one batch at a time, on every backend: every statement it
// sends is counted at the driver (helpers/counted.ts), and none may return more rows than the
// batch, however many are pending, while every due transaction is looked up exactly once, most
// overdue first, and none that is not due or is leased by another instance. The backlog is
// written straight into the journal's tables (as the event path leaves them, with due times that
// tie, both kinds, and ids whose order depends on the database's collation); the lookups are the
// client's own, answered in this process, so the pass's SQL is all that is measured. One test
// clock moves the pass's pacing, so a long pass takes no real time: it also shows that each row's
// lease runs from its claim, not from the pass's start, however long the pass has lasted.
import { createClient } from '@pay/client';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { type Counter, counted } from './helpers/counted.js';
import { MERCHANT } from './helpers/shop.js';

/** Transactions written; a quarter of them not due or leased elsewhere. */
const PENDING = 2_400;
const BATCH = 16;
/** The pass's pace: one lookup per 100 ms of the test clock, so it lasts minutes on it. */
const LOOKUPS_PER_SECOND = 10;
/** The client's whole call: with the pacing and the 10 s margin, a lease of 14.1 s (leases.ts). */
const TOTAL_TIMEOUT_MS = 4_000;

/**
 * The backlog, by the number `n` of each transaction: its kind, its id (upper and lower case, so
 * that code-unit order and a collation's disagree), and where it stands for a pass at `start`:
 * never looked up (due `since` + 15 min), looked up before (due_at), not due yet, or due but
 * leased by another instance. Due times fall on whole minutes, so many tie, across both kinds of
 * row too. Every seventh has become `executed` on the service.
 */
const backlogSql = (schema: string) => `
  WITH backlog AS (
    SELECT n, CASE WHEN n % 3 = 0 THEN 'payout' ELSE 'payin' END AS kind,
           CASE WHEN n % 3 = 0 THEN 'po_' ELSE 'pi_' END || CASE WHEN n % 2 = 0 THEN 'X' ELSE 'x' END || n AS id,
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

/** The backlog's transactions as the test expects a pass to see them. */
const backlog = Array.from({ length: PENDING }, (_, i) => {
  const n = i + 1;
  const kind = n % 3 === 0 ? 'payout' : 'payin';
  const id = `${n % 3 === 0 ? 'po_' : 'pi_'}${n % 2 === 0 ? 'X' : 'x'}${n}`;
  const place = n % 8;
  // Minutes before the pass's start it fell due (both kinds of due row), for those due.
  const overdue = place < 6 ? 5 + (n % 40) : undefined;
  return { n, kind, id, due: place < 6, overdue, executed: n % 7 === 0 };
});
const due = backlog.filter((t) => t.due);

describe.each(BACKENDS)('a reconciler pass over a backlog on %s', (backendName) => {
  let backend: Backend;
  let counter: Counter;
  let journal: Journal;
  let clock: TestClock;
  let schema: string;
  /** The ids looked up, in order, and each lookup's lease as read while it was under way. */
  let lookups: string[];
  let leases: { id: string; owner: unknown; untilMs: number; nowMs: number }[];

  beforeAll(async () => {
    backend = await openBackend(backendName, 'reconciler_backlog');
    counter = counted(backend);
    clock = createTestClock({ start: '2031-05-01T12:00:00Z' });
    schema = freshSchema();
    lookups = [];
    leases = [];
    const real = createClient({
      baseUrl: 'http://127.0.0.1:9',
      merchantId: MERCHANT.id,
      secret: MERCHANT.secret,
      totalTimeoutMs: TOTAL_TIMEOUT_MS,
      clock,
    });
    // The service's answer to each lookup; every 100th lookup first reads the row's lease (with
    // the counter off: the test's statement, not the pass's).
    const byId = new Map(backlog.map((t) => [t.id, t]));
    const get = async (id: string) => {
      lookups.push(id);
      if (lookups.length % 100 === 0) {
        counter.counting = false;
        leases.push({ id, ...(await leaseOf(id)), nowMs: clock.now() });
        counter.counting = true;
      }
      const { n, executed } = byId.get(id)!;
      const status = executed ? 'executed' : 'new';
      return { data: { id, reference_id: `backlog-${n}`, status, payment: { amount: '10.00', currency: 'EUR' } } };
    };
    const client = { ...real, payins: { ...real.payins, get }, payouts: { ...real.payouts, get } } as unknown as typeof real;
    journal = await openJournal({ client, clock, database: counter.database, schema });
    await journal.transaction((q) => q(backlogSql(schema), [new Date(clock.now()).toISOString(), PENDING]));
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
    const summary = await whileClockSteps(clock, journal.reconciler({ batch: BATCH, lookupsPerSecond: LOOKUPS_PER_SECOND }).runOnce());
    counter.counting = false;

    const most = Math.max(...counter.statements.map((s) => s.rows));
    expect(most, 'the most rows one statement of the pass returned').toBe(BATCH); // full batches, never more
    const claims = counter.statements.filter((s) => s.text.includes('SKIP LOCKED') && s.text.includes('pay_checks'));
    expect(claims.length).toBe(Math.floor(due.length / BATCH) + 1); // the last one finds fewer: the walk's end

    expect([...lookups].sort()).toEqual(due.map((t) => t.id).sort()); // each due one once, no other
    expect(summary).toMatchObject({ checked: due.length, changed: due.filter((t) => t.executed).length, failed: 0, rateLimited: false });
    // Most overdue first: in the order of due time (ties in the database's order).
    const overdue = new Map(due.map((t) => [t.id, t.overdue!]));
    const order = lookups.map((id) => overdue.get(id)!);
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });

  it('holds each row it looks up: its lease runs from its claim, however long the pass has lasted', () => {
    expect(leases.length).toBe(Math.floor(due.length / 100));
    // The pass lasted longer than a lease many times over, on the clock.
    expect(leases.at(-1)!.nowMs - leases[0]!.nowMs).toBeGreaterThan(10 * 14_100);
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
