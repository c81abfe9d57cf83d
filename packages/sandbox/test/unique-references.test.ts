// `uniqueReferences: false`: a service that does not refuse a used reference_id (the interface does
// not promise it does), so an exactly-once test counting records per reference sees a create sent
// twice. Over real HTTP, signed with node:crypto; the default mode's 409 is checked beside it.
import { createSandbox } from '../src/index.js';
import { describe, expect, it } from 'vitest';
import { get, M1, M2, payinBody, payinV1Body, payoutBody, post, start } from './helpers.js';
import { run, field } from './process.js';

const ids = (records: { id: string }[]) => records.map((r) => r.id);

describe('uniqueReferences', () => {
  it('by default refuses a used reference_id with 409 duplicate_reference_id and the existing id', async () => {
    const sandbox = await start();
    try {
      const first = await created(sandbox.url, 'payins', payinBody({ reference_id: 'ref-1' }));
      const again = await postTo(sandbox.url, 'payins', payinBody({ reference_id: 'ref-1' }));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: { code: 'duplicate_reference_id', id: first } });
      expect(ids(await sandbox.admin.transactions())).toEqual([first]);
      const logged = await sandbox.admin.requests();
      expect(logged.filter((r) => r.status === 409).map((r) => [r.method, r.path, r.code])).toEqual([
        ['POST', '/v2/merchants/payins/', 'duplicate_reference_id'],
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it('false: each create with a used reference_id is a new transaction; a lookup by reference answers the first', async () => {
    const sandbox = await start({ uniqueReferences: false });
    try {
      const first = await created(sandbox.url, 'payins', payinBody({ reference_id: 'ref-1', payment: { amount: 10, currency: 'EUR' } }));
      const second = await created(sandbox.url, 'payins', payinBody({ reference_id: 'ref-1', payment: { amount: 11, currency: 'EUR' } }));
      // v1 payins share the reference space of v2 payins; payouts have their own.
      const third = await created(sandbox.url, 'payins-v1', payinV1Body({ reference_id: 'ref-1' }));
      const payout = await created(sandbox.url, 'payouts', payoutBody({ reference_id: 'ref-1' }));
      const otherMerchant = await created(sandbox.url, 'payins', payinBody({ reference_id: 'ref-1' }), M2);
      expect(new Set([first, second, third, payout, otherMerchant]).size).toBe(5);
      const all = await sandbox.admin.transactions();
      expect(
        all
          .filter((t) => t.kind === 'payin' && t.merchant_id === M1.id && t.reference_id === 'ref-1')
          .map((t) => t.id)
          .sort(),
      ).toEqual([first, second, third].sort());
      // Each is a transaction of its own: found by id, with its own amount.
      const byId = await get(`${sandbox.url}/v2/merchants/payins/${second}`);
      expect(byId.body).toMatchObject({ id: second, reference_id: 'ref-1', payment: { amount: 11 } });
      // The lookup by reference answers the first created under it, for each merchant and resource.
      expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=ref-1`)).body).toMatchObject({ id: first });
      expect((await get(`${sandbox.url}/v2/merchants/payouts/?reference_id=ref-1`)).body).toMatchObject({ id: payout });
      expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=ref-1`, M2)).body).toMatchObject({ id: otherMerchant });
      expect((await sandbox.admin.requests()).filter((r) => r.status === 409)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('false: once the first is forgotten (maxTransactions), the lookup by reference answers the next one still kept', async () => {
    const sandbox = await start({ uniqueReferences: false, maxTransactions: 3 });
    try {
      const made: string[] = [];
      for (let i = 0; i < 3; i++) made.push(await created(sandbox.url, 'payins', payinBody({ reference_id: 'ref-cap' })));
      expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=ref-cap`)).body).toMatchObject({ id: made[0] });
      await created(sandbox.url, 'payins', payinBody({ reference_id: 'other' })); // the first is forgotten
      expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=ref-cap`)).body).toMatchObject({ id: made[1] });
      await created(sandbox.url, 'payins', payinBody({ reference_id: 'other' }));
      await created(sandbox.url, 'payins', payinBody({ reference_id: 'other' }));
      expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=ref-cap`)).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a uniqueReferences that is not a boolean', () => {
    expect(() => createSandbox({ uniqueReferences: 'no' as never })).toThrow(/uniqueReferences must be true or false/);
  });

  it('pay-sandbox --no-unique-references starts a sandbox that accepts a used reference_id', async () => {
    const sandbox = run(['--port', '0', '--quiet', '--no-unique-references', '--merchant', `${M1.id}:${M1.secret}`]);
    try {
      const url = field(await sandbox.waitFor('Press Ctrl-C'), 'base URL');
      const a = await created(url, 'payins', payinBody({ reference_id: 'cli-ref' }));
      const b = await created(url, 'payins', payinBody({ reference_id: 'cli-ref' }));
      expect(a).not.toBe(b);
    } finally {
      sandbox.child.kill('SIGKILL');
      await sandbox.exited;
    }
  });
});

const PATHS = { payins: '/v2/merchants/payins/', 'payins-v1': '/v1/merchants/payins/', payouts: '/v2/merchants/payouts/' } as const;

function postTo(base: string, where: keyof typeof PATHS, body: unknown, merchant = M1) {
  return post(`${base}${PATHS[where]}`, body, merchant);
}

/** A create that must be accepted (200); the new transaction's id. */
async function created(base: string, where: keyof typeof PATHS, body: unknown, merchant = M1): Promise<string> {
  const answer = await postTo(base, where, body, merchant);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { id: string }).id;
}
