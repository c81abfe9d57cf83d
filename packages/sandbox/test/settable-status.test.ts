// One rule for the status the sandbox lets someone set, followed by the admin API and a seed
// alike, and one default error for a `failed` given none: the expected answers are written here
// by hand from the README (the interface's executed, failed and expired; another lower-case word
// but `new`, up to 32 characters, only on purpose; `declined`, "The transaction was declined.").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../src/index.js';
import { adminCall, post, payinBody, start, type Started } from './helpers.js';

const CASES: [status: string, onPurpose: boolean, settable: boolean][] = [
  ['executed', false, true],
  ['failed', false, true],
  ['expired', false, true],
  ['executed', true, true],
  ['processing', true, true], // a status nobody here knows, on purpose: clients must cope
  ['on_hold_2', true, true],
  [`a${'b'.repeat(31)}`, true, true], // 32 characters
  ['processing', false, false], // not on purpose: a likely typo
  ['execute', false, false],
  ['new', false, false], // a transaction is created new once
  ['new', true, false],
  ['EXECUTED', true, false],
  ['2fa', true, false],
  ['in progress', true, false],
  ['', true, false],
  [`a${'b'.repeat(32)}`, true, false], // 33 characters
];

/** What the admin API says at `status`, as a seed says it at `transactions.0.status`. */
const SAID: Record<string, string> = {
  processing:
    "is not one of the interface's statuses (executed, failed or expired; to send a status clients do not know on purpose, add OPT_IN)",
  execute:
    "is not one of the interface's statuses: did you mean executed? (the interface's are executed, failed or expired; to send a status clients do not know on purpose, add OPT_IN)",
  new: 'cannot be new: a transaction is created new, once',
  EXECUTED:
    'must be executed, failed or expired, or another lower-case word (a-z, 0-9, _; at most 32 characters) but new: did you mean executed?',
  '2fa': 'must be executed, failed or expired, or another lower-case word (a-z, 0-9, _; at most 32 characters) but new',
};

describe('a settable status: the admin API and a seed agree', () => {
  let sb!: Started;
  beforeAll(async () => {
    sb = await start();
  });
  afterAll(async () => sb?.close());

  it.each(CASES)('%j, on purpose %s: settable %s', async (status, onPurpose, settable) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const answer = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, {
      status,
      ...(onPurpose ? { unknown_status: true } : {}),
    });
    expect(answer.status).toBe(settable ? 200 : 400);
    const seed = () =>
      parseSeed({
        transactions: [{ kind: 'payin', amount: '1.00', currency: 'EUR', status, ...(onPurpose ? { unknown_status: true } : {}) }],
      });
    if (settable) expect(seed().transactions[0]!.status).toBe(status);
    else {
      expect(answer.body.error.errors).toHaveLength(1);
      const [error] = answer.body.error.errors;
      expect(error.path).toBe('status');
      const said = SAID[status];
      if (said !== undefined) {
        expect(error.message).toBe(said.replace('OPT_IN', '"unknown_status": true'));
        expect(seed).toThrow(
          `transactions.0.status ${said.replace('OPT_IN', '"unknown_status": true to the entry')} (leave it out for new)`,
        );
      } else expect(seed).toThrow(/^the seed is not valid: transactions\.0\.status must be executed, failed or expired/);
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
