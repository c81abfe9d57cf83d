// One rule for the status the sandbox lets someone set, followed by the admin API and a seed
// alike, and one default error for a `failed` given none: the expected answers are written here
// by hand from the README (any lower-case word but `new`, up to 32 characters; `declined`, "The
// transaction was declined.").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../src/index.js';
import { adminCall, post, payinBody, start, type Started } from './helpers.js';

const CASES: [status: string, settable: boolean][] = [
  ['executed', true],
  ['failed', true],
  ['expired', true],
  ['processing', true], // a status nobody here knows: clients must cope
  ['on_hold_2', true],
  [`a${'b'.repeat(31)}`, true], // 32 characters
  ['new', false], // a transaction is created new once
  ['EXECUTED', false],
  ['2fa', false],
  ['in progress', false],
  ['', false],
  [`a${'b'.repeat(32)}`, false], // 33 characters
];

describe('a settable status: the admin API and a seed agree', () => {
  let sb!: Started;
  beforeAll(async () => {
    sb = await start();
  });
  afterAll(async () => sb?.close());

  it.each(CASES)('%j: settable %s', async (status, settable) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const answer = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status });
    expect(answer.status).toBe(settable ? 200 : 400);
    const seed = () => parseSeed({ transactions: [{ kind: 'payin', amount: '1.00', currency: 'EUR', status }] });
    if (settable) expect(seed().transactions[0]!.status).toBe(status);
    else {
      expect(answer.body.error.errors).toEqual([
        { path: 'status', message: 'must be executed, failed, expired, or another lower-case status other than new' },
      ]);
      expect(seed).toThrow(
        'transactions.0.status must be executed, failed, expired, or another lower-case status other than new (leave it out for new)',
      );
    }
  });

  it('a failed status given no error gets the same default from the admin API and from a seed', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const byAdmin = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'failed' });
    const seeded = await start({
      seed: parseSeed({
        transactions: [{ kind: 'payin', reference_id: 'seed-failed', amount: '1.00', currency: 'EUR', status: 'failed' }],
      }),
    });
    try {
      const [bySeed] = await seeded.admin.transactions();
      const expected = { status: 'failed', error_code: 'declined', error_message: 'The transaction was declined.' };
      expect(byAdmin.body).toMatchObject(expected);
      expect(bySeed).toMatchObject(expected);
    } finally {
      await seeded.close();
    }
  });
});
