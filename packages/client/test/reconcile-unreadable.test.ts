// A lookup answer the client cannot read, while it reconciles a create: it is a lost answer like
// any other (the same answer to the create itself already is), so it is looked up again within
// totalTimeoutMs and never taken as a decision: not as "found", and not as "missing" either (a
// proxy's 404 page is no proof that nothing was created). Over real HTTP against the scripted
// stand-in, which counts the records it holds, both on one test clock (helpers/reconcile.ts).
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../src/index.js';
import { dropAfterCommit, dropBeforeCommit, failure, setup } from './helpers/reconcile.js';
import { payinBody, serviceTime } from './helpers/server.js';

// A complete payin lookup record, as JSON text: the start of it is what a cut answer carries.
const RECORD = JSON.stringify({
  id: 'pi_1',
  reference_id: 'r-1',
  status: 'new',
  payment: { amount: 10.5, currency: 'EUR' },
  fee: null,
  created_at: serviceTime(),
  updated_at: serviceTime(),
  expires_at: serviceTime(),
  error_code: null,
  error_message: null,
});

const answer = (status: number, headers: Record<string, string>, body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(status, { ...headers, connection: 'close' });
  res.end(body);
};

// Each is a complete HTTP answer (nothing for the transport to notice) that says nothing the
// client can use.
const UNREADABLE: [string, (req: unknown, res: ServerResponse) => void][] = [
  ['200 with JSON cut short', answer(200, { 'content-type': 'application/json' }, RECORD.slice(0, 40))],
  ['200 with an HTML page', answer(200, { 'content-type': 'text/html' }, '<html><body>Service temporarily unavailable</body></html>')],
  ['200 with an empty body', answer(200, {}, '')],
  ['204 without a body', answer(204, {}, '')],
  ['200 with JSON that is not a payin', answer(200, { 'content-type': 'application/json' }, '{"status":"ok"}')],
  ['404 with an HTML page (a proxy, not the service)', answer(404, { 'content-type': 'text/html' }, '<html><h1>404 Not Found</h1></html>')],
];

describe.concurrent('an unreadable lookup answer while reconciling is a lost answer', { timeout: 40_000 }, () => {
  it.each(UNREADABLE)('%s, the create never committed: looked up again, proven absent, created once', async (_label, unreadable) => {
    await using t = await setup();
    t.server.next.push(dropBeforeCommit, unreadable);
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'absent' }) as never));
    // The re-send's own answer: proven not created by the later lookups, then created.
    expect(result.reconciled).toBe(false);
    expect(result.data.reference_id).toBe('absent');
    expect(t.server.service.count('absent')).toBe(1);
    expect(t.posts()).toHaveLength(2);
    expect(t.ts(1)).toBeGreaterThanOrEqual(t.deadAt(0));
    expect(t.gets().length).toBeGreaterThan(1);
  });

  it.each(UNREADABLE)('%s until past the proof time, the create committed: found, never sent again', async (_label, unreadable) => {
    await using t = await setup();
    t.server.next.push(dropAfterCommit);
    // Every lookup is unreadable until a lookup sent then could have proven the create absent.
    const service = t.server.service.answer.bind(t.server.service);
    t.server.service.answer = (req, res) => {
      if (req.method === 'GET' && Number(req.headers['x-timestamp']) <= t.deadAt(0)) return unreadable(req, res);
      return service(req, res);
    };
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'present' }) as never));
    expect(result.reconciled).toBe(true);
    expect(result.data.reference_id).toBe('present');
    expect(t.posts()).toHaveLength(1);
    expect(t.server.service.count('present')).toBe(1);
    // Unreadable answers were received after the proof time, and none was taken as a miss.
    expect(t.gets().some((r) => Number(r.headers['x-timestamp']) >= t.deadAt(0))).toBe(true);
  });

  it.each(UNREADABLE)(
    '%s on every lookup until the time runs out: OutcomeUnknownError with the reference_id',
    async (_label, unreadable) => {
      // The budget outlasts the proof time: lookups are sent after it, and still decide nothing.
      await using t = await setup({ totalTimeoutMs: 6_000 });
      t.server.next.push(dropBeforeCommit);
      const service = t.server.service.answer.bind(t.server.service);
      t.server.service.answer = (req, res) => (req.method === 'GET' ? unreadable(req, res) : service(req, res));
      const error = (await failure(t.run(t.pay.payins.create(payinBody({ reference_id: 'undecided' }) as never)))) as OutcomeUnknownError;
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(error.referenceId).toBe('undecided');
      expect(error.message).toContain('"undecided"');
      expect(error.message).toMatch(/no time left in totalTimeoutMs/);
      expect(error.message).toContain('(the last lookup: payins.create: the service answered');
      expect(t.posts()).toHaveLength(1);
      expect(t.server.service.count('undecided')).toBe(0);
      expect(t.gets().length).toBeGreaterThan(1);
      expect(t.gets().some((r) => Number(r.headers['x-timestamp']) >= t.deadAt(0))).toBe(true);
      expect(t.events.at(-1)?.step).toBe('unknown');
    },
  );

  it.each(UNREADABLE)('%s after a 409 (the reference exists): looked up again, found', async (_label, unreadable) => {
    await using t = await setup();
    t.server.service.commit('payins', { reference_id: 'exists', payment: { amount: 10.5, currency: 'EUR' } });
    t.server.next.push((req, res, service) => service.answer(req, res), unreadable);
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'exists' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
    expect(t.gets()).toHaveLength(2);
    expect(t.server.service.count('exists')).toBe(1);
  });
});
