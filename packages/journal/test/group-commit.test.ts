// Group commit (src/group-commit.ts): first the queue itself, as a table of arrivals against what
// each item must get; then, on every backend against the real sandbox, creates started together:
// they share their statements (counted by the database itself: a trigger writes the transaction
// of each intent's INSERT, and each event row keeps the transaction that wrote it), and each gets
// its own answer, also when one row of the group is refused by the database.
import type { RunningSandbox } from '@pay/sandbox';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { createClient } from '@pay/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit, type GroupWork } from '../src/group-commit.js';
import { type Journal, openJournal } from '../src/index.js';
import { type Backend, BACKENDS, freshSchema, openBackend } from './helpers/backends.js';
import { bunchingFetch } from './fixtures/bunching-fetch.mjs';
import { judgedExactlyOnce } from './helpers/oracle.js';
import { IN_FLIGHT_LEASE_MS, payinBody, shopClientOptions, startShopSandbox } from './helpers/shop.js';

/** A group work that records what ran: each group's items, each lone item; `failTogether`: groups throw. */
function recording(failTogether = false, refuse: (n: number) => boolean = () => false) {
  const groups: number[][] = [];
  const alone: number[] = [];
  let release: () => void = () => {};
  let hold = Promise.resolve();
  const work: GroupWork<number, string> = {
    together: async (items) => {
      groups.push([...items]);
      await hold;
      if (failTogether) throw new Error('the group statement failed');
      return items.map((n) => (refuse(n) ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: `together ${n}` }));
    },
    alone: async (n) => {
      alone.push(n);
      await hold;
      if (refuse(n)) throw new Error(`refused ${n}`);
      return `alone ${n}`;
    },
  };
  return {
    work,
    groups,
    alone,
    /** Holds every statement until `release()`: what arrives meanwhile waits for the next group. */
    holdNext() {
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}

const settled = (ps: Promise<string>[]) =>
  Promise.all(
    ps.map((p) =>
      p.then(
        (value) => value,
        (error: Error) => `error: ${error.message}`,
      ),
    ),
  );

describe('groupCommit', () => {
  it('sends an item given alone by itself, at once', async () => {
    const r = recording();
    const run = groupCommit(r.work, 8, () => true);
    expect(await run(1)).toBe('alone 1');
    expect(r).toMatchObject({ groups: [], alone: [1] });
  });

  it('sends an item at once, not at the end of the turn, when no other can come', async () => {
    const r = recording();
    let others = false;
    const run = groupCommit(r.work, 8, () => others);
    const turn = () => {
      const ended = { now: false };
      setImmediate(() => {
        ended.now = true;
      });
      return ended;
    };
    let ended = turn();
    const first = run(1);
    await Promise.resolve();
    await Promise.resolve();
    expect([r.alone, ended.now]).toEqual([[1], false]);
    expect(await first).toBe('alone 1');
    await new Promise((resolve) => setImmediate(resolve)); // the first group is over

    others = true;
    ended = turn();
    const second = run(2);
    await Promise.resolve();
    await Promise.resolve();
    expect(r.alone).toEqual([1]); // waits for the turn's end, for others to join
    expect(await second).toBe('alone 2');
    expect(ended.now).toBe(true);
  });

  it('sends the items given in one turn together, each with its own answer, in order', async () => {
    const r = recording();
    const run = groupCommit(r.work, 8, () => true);
    expect(await Promise.all([1, 2, 3].map(run))).toEqual(['together 1', 'together 2', 'together 3']);
    expect(r).toMatchObject({ groups: [[1, 2, 3]], alone: [] });
  });

  it('gathers what arrives while a group is on its way into the next one', async () => {
    const r = recording();
    const run = groupCommit(r.work, 8, () => true);
    r.holdNext();
    const first = [run(1), run(2)];
    await new Promise((resolve) => setImmediate(resolve)); // the first group has left
    const later = [3, 4, 5].map(run);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.groups).toEqual([[1, 2]]); // the others wait for it
    r.release();
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5].map((n) => `together ${n}`));
    expect(r.groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('never puts more than the size limit in one group', async () => {
    const r = recording();
    const run = groupCommit(r.work, 3, () => true);
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map(run));
    expect(r.groups).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(r.alone).toEqual([7]);
  });

  it('gives each item its own answer from the group: one refused item fails alone', async () => {
    const r = recording(false, (n) => n === 2);
    const run = groupCommit(r.work, 8, () => true);
    expect(await settled([1, 2, 3].map(run))).toEqual(['together 1', 'error: refused 2', 'together 3']);
  });

  it('runs every item of a group that failed as a whole alone, each with its own answer', async () => {
    const r = recording(true, (n) => n === 2);
    const run = groupCommit(r.work, 8, () => true);
    expect(await settled([1, 2, 3].map(run))).toEqual(['alone 1', 'error: refused 2', 'alone 3']);
    expect(r.groups).toEqual([[1, 2, 3]]);
    expect([...r.alone].sort()).toEqual([1, 2, 3]);
  });

  it('goes on with the next group after a failed one', async () => {
    const r = recording(true);
    const run = groupCommit(r.work, 8, () => true);
    await settled([1, 2].map(run));
    expect(await run(3)).toBe('alone 3');
  });
});

describe.each(BACKENDS)('creates started together on %s', (backendName) => {
  let backend: Backend;
  let sandbox: RunningSandbox;
  let journal: Journal;
  let schema: string;
  let clock: TestClock;
  const webhookUrl = 'http://127.0.0.1:9/webhooks/pay'; // nobody listens: this file judges creates only

  beforeAll(async () => {
    backend = await openBackend(backendName, 'group_commit');
    sandbox = await startShopSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    await backend.close();
  });
  /** Opens the journal of a test whose first `together` creates are answered together. */
  async function open(together: number) {
    journal = await openJournal({
      // An attempt's limit far above any answer time on a loaded machine: this file counts the
      // statements of answers that come together, and one timed out would be recorded alone.
      client: createClient({ ...shopClientOptions(sandbox.url), timeoutMs: 60_000, fetch: bunchingFetch(together) }),
      database: backend.database,
      schema,
      clock,
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
    });
    // Each intent's INSERT leaves the id of its transaction here: the number of claim statements.
    await sql(`CREATE TABLE "${schema}".claimed_in (reference_id text, tx text)`);
    await sql(`CREATE FUNCTION "${schema}".note_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO "${schema}".claimed_in VALUES (NEW.reference_id, txid_current()::text); RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER note_claim BEFORE INSERT ON "${schema}".pay_intents FOR EACH ROW EXECUTE FUNCTION "${schema}".note_claim()`);
  }
  beforeEach(async () => {
    await sandbox.admin.reset();
    schema = freshSchema();
    clock = createTestClock();
    return () => journal?.close();
  });
  judgedExactlyOnce(() => sandbox);

  /** A statement of the test's own, on the backend's database (outside the journal). */
  async function sql(text: string): Promise<Record<string, unknown>[]> {
    const db = backend.database as any;
    if (backendName === 'postgres.js') return [...(await db.unsafe(text))];
    return (await db.query(text)).rows;
  }
  const count = async (text: string) => Number((await sql(text))[0]!['n']);

  const onSandbox = async (prefix: string) => (await sandbox.admin.transactions()).filter((t) => (t.reference_id ?? '').startsWith(prefix));

  it('share their statements: each created once, recorded as the sandbox has it, in fewer transactions than creates', async () => {
    await open(24);
    const references = Array.from({ length: 24 }, (_, i) => `grp-${i}`);
    const results = await Promise.all(references.map((r, i) => journal.payins.create(payinBody(r, `${i + 1}.25`, webhookUrl))));

    const there = await onSandbox('grp-');
    expect(there).toHaveLength(references.length);
    for (const [i, result] of results.entries()) {
      const record = there.find((t) => t.reference_id === references[i]);
      expect(result).toMatchObject({ replayed: false, transaction: { id: record!.id, referenceId: references[i], status: 'new' } });
      expect(result.transaction.amount).toBe(`${i + 1}.25`);
      expect(result.transaction.nextAction).toMatchObject({ type: 'redirect', url: expect.stringContaining(record!.id) });
    }
    // Started in one turn: one claim. Answered together: one outcome statement.
    const claims = await count(`SELECT count(DISTINCT tx)::int AS n FROM "${schema}".claimed_in WHERE reference_id LIKE 'grp-%'`);
    const outcomes = await count(`SELECT count(DISTINCT xmin::text)::int AS n FROM "${schema}".pay_events WHERE reference_id LIKE 'grp-%'`);
    expect(claims).toBe(1);
    expect(outcomes).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM "${schema}".pay_intents WHERE state = 'created'`)).toBe(references.length);
    // Stored as JSON objects by every driver, whether recorded alone or in a group.
    expect(await sql(`SELECT DISTINCT jsonb_typeof(next_action) AS t FROM "${schema}".pay_intents`)).toEqual([{ t: 'object' }]);
  });

  it("a row the database refuses fails its own create only, before it is sent, when it is the intent's", async () => {
    await open(5); // the sixth is not sent
    await sql(`ALTER TABLE "${schema}".pay_intents ADD CONSTRAINT refuse_one CHECK (reference_id <> 'ref-intent-2')`);
    const references = Array.from({ length: 6 }, (_, i) => `ref-intent-${i}`);
    const answers = await Promise.allSettled(references.map((r) => journal.payins.create(payinBody(r, '4.00', webhookUrl))));

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({
      code: 'database_failed',
      step: 'record intent',
      sqlState: '23514',
    });
    expect((await onSandbox('ref-intent-')).map((t) => t.reference_id).sort()).toEqual(references.filter((r) => r !== 'ref-intent-2'));
  });

  it("a row the database refuses fails its own create only, when it is the outcome's, and recover() records it later", async () => {
    await open(6);
    await sql(`ALTER TABLE "${schema}".pay_transactions ADD CONSTRAINT refuse_one CHECK (reference_id <> 'ref-outcome-3')`);
    const references = Array.from({ length: 6 }, (_, i) => `ref-outcome-${i}`);
    const answers = await Promise.allSettled(references.map((r) => journal.payins.create(payinBody(r, '5.00', webhookUrl))));

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((answers[3] as PromiseRejectedResult).reason).toMatchObject({
      code: 'database_failed',
      step: 'record outcome',
      sqlState: '23514',
    });
    // It was sent, once: the service has it, and the journal still holds its intent, undecided.
    const there = await onSandbox('ref-outcome-');
    expect(there.map((t) => t.reference_id).sort()).toEqual(references);
    expect(await count(`SELECT count(*)::int AS n FROM "${schema}".pay_intents WHERE state = 'created'`)).toBe(5);

    await sql(`ALTER TABLE "${schema}".pay_transactions DROP CONSTRAINT refuse_one`);
    await clock.advance(IN_FLIGHT_LEASE_MS + 1_000); // its lease over, recover() may look it up
    expect(await journal.recover()).toMatchObject({ created: 1, waiting: 0 });
    const recorded = await journal.payins.create(payinBody('ref-outcome-3', '5.00', webhookUrl));
    expect(recorded).toMatchObject({ replayed: true, transaction: { id: there.find((t) => t.reference_id === 'ref-outcome-3')!.id } });
  });

  it('queued creates sent together: claimed in one statement, each sent once, each its own answer', async () => {
    await open(8);
    // Each claim of a queued intent leaves the id of its transaction here: the number of claim statements.
    await sql(`CREATE TABLE "${schema}".sent_in (reference_id text, tx text)`);
    await sql(`CREATE FUNCTION "${schema}".note_send() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.state = 'queued' AND NEW.state = 'in_flight' THEN
        INSERT INTO "${schema}".sent_in VALUES (NEW.reference_id, txid_current()::text); END IF; RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER note_send BEFORE UPDATE ON "${schema}".pay_intents FOR EACH ROW EXECUTE FUNCTION "${schema}".note_send()`);
    const references = Array.from({ length: 8 }, (_, i) => `queued-${i}`);
    await journal.transaction(async (query) => {
      for (const [i, r] of references.entries()) await journal.payins.enqueue(query, payinBody(r, `${i + 1}.10`, webhookUrl));
    });

    const answers = await Promise.allSettled([...references, 'queued-none'].map((r) => journal.payins.send(r)));
    expect(answers.map((a) => a.status)).toEqual([...references.map(() => 'fulfilled'), 'rejected']);
    expect((answers[8] as PromiseRejectedResult).reason.message).toMatch(/nothing is recorded under reference_id "queued-none"/);
    const there = await onSandbox('queued-');
    expect(there.map((t) => t.reference_id).sort()).toEqual(references);
    for (const [i, r] of references.entries()) {
      const value = (answers[i] as PromiseFulfilledResult<{ replayed: boolean; transaction: { id: string; amount: string } }>).value;
      expect(value).toMatchObject({
        replayed: false,
        transaction: { id: there.find((t) => t.reference_id === r)!.id, amount: `${i + 1}.10` },
      });
    }
    expect(await count(`SELECT count(DISTINCT tx)::int AS n FROM "${schema}".sent_in`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM "${schema}".sent_in`)).toBe(references.length);
    // Sent again: nothing is sent twice, each answers with its record.
    const again = await Promise.all(references.map((r) => journal.payins.send(r)));
    expect(again.every((a) => a.replayed)).toBe(true);
  });

  it.runIf(backendName === 'pg')(
    'a driver that answers no row to a call that writes: a DatabaseError saying it may have committed, not a TypeError',
    async () => {
      // A pg pool whose answers to record_created lose their row, as postgres.js once did after a
      // failed statement: the create was sent and its outcome may be recorded; the caller must learn
      // that, in the journal's terms.
      const pool = backend.database as unknown as {
        query: (...a: unknown[]) => Promise<{ rows: unknown[] }>;
        connect: () => Promise<unknown>;
      };
      const textOf = (q: unknown) => (typeof q === 'string' ? q : String((q as { text?: unknown })?.text ?? ''));
      const losing = {
        totalCount: 0,
        query: async (q: unknown, params?: unknown) => {
          const answer = await pool.query(q, params);
          return textOf(q).includes('record_created') ? { ...answer, rows: [] } : answer;
        },
        connect: () => pool.connect(),
      };
      const other = await openJournal({
        client: createClient(shopClientOptions(sandbox.url)),
        database: losing as never,
        schema: freshSchema(),
      });
      try {
        const error = await other.payins.create(payinBody('lost-row-1', '1.00', webhookUrl)).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'DatabaseError', code: 'database_failed', step: 'record outcome', reason: 'commit_unknown' });
        expect((await onSandbox('lost-row-')).map((t) => t.reference_id)).toEqual(['lost-row-1']);
      } finally {
        await other.close();
      }
    },
  );

  it('a reference_id the database cannot hold (a NUL) fails its own create only, with a typed error, before it is sent', async () => {
    await open(3); // the fourth is not sent
    const references = ['nul-0', 'nul-\u0000-1', 'nul-2', 'nul-3'];
    const answers = await Promise.allSettled(references.map((r) => journal.payins.create(payinBody(r, '2.00', webhookUrl))));

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({
      code: expect.stringMatching(/^(database_failed|invalid_request)$/),
    });
    expect((await onSandbox('nul-')).map((t) => t.reference_id).sort()).toEqual(['nul-0', 'nul-2', 'nul-3']);
  });

  it('a group mixing new creates, a repeat and a conflict: each its own answer', async () => {
    await open(0);
    await journal.payins.create(payinBody('mix-done', '7.00', webhookUrl));
    await journal.payins.create(payinBody('mix-other', '5.00', webhookUrl));
    const answers = await Promise.allSettled([
      journal.payins.create(payinBody('mix-new-1', '1.00', webhookUrl)),
      journal.payins.create(payinBody('mix-done', '7.00', webhookUrl)), // the same: the record
      journal.payins.create(payinBody('mix-other', '6.00', webhookUrl)), // another amount: a conflict
      journal.payins.create(payinBody('mix-new-2', '3.00', webhookUrl)),
    ]);

    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const value = (i: number) => (answers[i] as PromiseFulfilledResult<{ replayed: boolean; transaction: { amount: string } }>).value;
    expect([value(0).replayed, value(1).replayed, value(3).replayed]).toEqual([false, true, false]);
    expect(value(1).transaction.amount).toBe('7.00');
    expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({ name: 'ReferenceConflictError' });
    expect((await onSandbox('mix-')).map((t) => t.reference_id).sort()).toEqual(['mix-done', 'mix-new-1', 'mix-new-2', 'mix-other']);
  });
});
