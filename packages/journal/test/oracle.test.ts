// The exactly-once oracle can fail. The journal's exactly-once tests judge their creates with
// @pay/test-oracle, read from the sandbox: records per reference_id on a sandbox that accepts a
// used reference_id (uniqueReferences: false), and creates refused as duplicates (409) in the
// request log of one that refuses it. Here the same oracle judges a deliberately wrong variant, a
// client that sends a create again around the journal after a lost answer (the oracle's
// resendingAfterLostAnswer), and must report it in each mode; the right client, in the
// same conditions, must pass.
import { type Client, createClient, isPayError } from '@pay/client';
import { exactlyOnceReport, followRequests, resendingAfterLostAnswer } from '@pay/test-oracle';
import type { Clock } from '@pay/clock';
import { createTestClock } from '@pay/clock/test-clock';
import { afterAll, describe, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { freshPGlite, freshSchema } from './helpers/backends.js';
import { whileClockSteps } from './helpers/clock-steps.js';
import { IN_FLIGHT_LEASE_MS, MERCHANT, payinBody, SETTLE_S, startShopSandbox, TOLERANCE_S } from './helpers/shop.js';

const NOWHERE = 'http://127.0.0.1:9/none';
/**
 * The tests' client, on the case's test clock: its back-offs and its whole-call limit pass in no
 * real time (the clock is moved for them), so a loaded machine's slow answer never ends a case
 * early. One attempt's limit stays real, and generous: the faults here answer at once.
 */
const quickClient = (baseUrl: string, clock: Clock) =>
  createClient({
    clock,
    baseUrl,
    merchantId: MERCHANT.id,
    secret: MERCHANT.secret,
    toleranceSeconds: TOLERANCE_S,
    settleSeconds: SETTLE_S,
    totalTimeoutMs: 1_500,
    timeoutMs: 30_000,
  });

// Each case on a sandbox and a test clock of its own, all at once.
describe.concurrent.each([
  ['refuses a used reference_id (409)', true],
  ['accepts a used reference_id as a new transaction', false],
])('on a sandbox that %s', (_, uniqueReferences) => {
  // One PGlite for the cases (a PGlite each costs more CPU than the cases share), made when the
  // first case asks for it.
  const db = freshPGlite();
  const sandboxes: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    await (await db).close();
  });

  /** One create through the journal whose answer is lost and whose lookups fail past the client's limit; then the oracle's report. */
  async function judge(clientFor: (sandboxUrl: string, clock: Clock) => Client, reference: string) {
    const clock = createTestClock();
    const sandbox = await startShopSandbox({ uniqueReferences, clock });
    sandboxes.push(sandbox);
    const journal = await openJournal({
      client: clientFor(sandbox.url, clock),
      clock,
      database: await db,
      schema: freshSchema(),
      inFlightLeaseMs: IN_FLIGHT_LEASE_MS,
    });
    try {
      const requests = await followRequests(sandbox.admin);
      await sandbox.admin.addFault({ method: 'POST', path_prefix: '/v2/merchants/payins/', kind: 'drop_after_commit', count: 1 });
      await sandbox.admin.addFault({ method: 'GET', path_prefix: '/v2/merchants/payins/?', kind: 'status_500_after_commit', count: 12 });
      const outcome = await whileClockSteps(clock, journal.payins.create(payinBody(reference, '4.20', NOWHERE))).then(
        () => 'created',
        (error) => (isPayError(error) ? error.kind : String(error?.name)),
      );
      return { outcome, report: await exactlyOnceReport(sandbox.admin, { requests: await requests.stop(), only: (r) => r === reference }) };
    } finally {
      await journal.close();
    }
  }

  it('passes the journal with the right client: one record, no create refused as a duplicate', async () => {
    const { outcome, report } = await judge(quickClient, `right-${uniqueReferences}`);
    expect(outcome).toBe('outcome_unknown'); // the journal keeps it unknown and sends nothing more
    expect(report).toEqual({ records: 1, duplicated: [], refused: [] });
  }, 60_000);

  it('reports a create re-sent around the journal', async () => {
    const reference = `wrong-${uniqueReferences}`;
    const { report } = await judge((url, clock) => resendingAfterLostAnswer(quickClient(url, clock), isPayError), reference);
    if (uniqueReferences) {
      // One record, as the service refused the second create; the request log shows it was sent.
      expect(report.records).toBe(1);
      expect(report.duplicated).toEqual([]);
      expect(report.refused).toMatchObject([{ path: '/v2/merchants/payins/', reference_id: reference }]);
    } else {
      expect(report.records).toBe(2);
      expect(report.duplicated).toMatchObject([{ kind: 'payin', reference_id: reference }]);
      expect(report.duplicated[0]!.ids).toHaveLength(2);
      expect(report.refused).toEqual([]);
    }
  }, 60_000);
});

describe('followRequests', () => {
  it('vouches only for a whole log: a reset while following, or more requests between two reads than the log keeps, is an error', async () => {
    const sandbox = await startShopSandbox();
    // Unsigned lookups: refused (401), and logged like any request to the service.
    const knock = (n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => fetch(`${sandbox.url}/v2/merchants/payins/pi_${i}`).then((r) => r.text())));
    try {
      await knock(3);
      const whole = await followRequests(sandbox.admin);
      await knock(5);
      expect((await whole.stop()).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);

      const reset = await followRequests(sandbox.admin);
      await sandbox.admin.reset();
      await knock(4);
      await expect(reset.stop()).rejects.toThrow(/reset/);

      const overrun = await followRequests(sandbox.admin);
      for (let i = 0; i < 11; i++) await knock(100);
      await expect(overrun.stop()).rejects.toThrow(/missed/);

      const followed = await followRequests(sandbox.admin, { intervalMs: 20 });
      for (let i = 0; i < 11; i++) {
        await knock(100);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await followed.stop()).toHaveLength(1100);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
