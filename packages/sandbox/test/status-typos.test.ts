// A status typo is refused wherever a status is set, with the status it most likely meant: the
// command line (a usage error, exit 2, before any call), the admin API (400 at `status`), the admin
// client (that 400 as a SandboxAdminError) and a seed. A status outside the interface's is taken
// only when asked for on purpose (`--unknown-status`, `"unknown_status": true`, `unknownStatus`).
// Before, `pay-sandbox status payin ID execute` printed `is now execute` and exited 0, and the
// transaction's webhook announced `execute` to a client that knows no such status. The command
// line runs in this process (runInProcess), as the CLI's process runs it: that the process prints
// the same is commands.test.ts's, on a status typo too.
import { afterAll, describe, expect, it } from 'vitest';
import { isSandboxAdminError, parseSeed, startSandbox } from '../src/index.js';
import { adminCall, payinBody, post, receiver, sandboxForFile, type Started } from './helpers.js';
import { runInProcess } from './process.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const hooks = await receiver();
afterAll(() => hooks.close());

/** A new payin whose webhooks go to `hooks`, its `new` webhook already received. */
async function newPayin(): Promise<string> {
  const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
  expect(JSON.parse((await hooks.next(created.body.id)).body).status).toBe('new');
  return created.body.id as string;
}

const statusOf = async (id: string) => (await sb.admin.transactions()).find((t) => t.id === id)!.status;

describe('pay-sandbox status with a status the interface does not have', () => {
  it.each([
    ['execute', 'executed'],
    ['exectued', 'executed'],
    ['paid', 'executed'],
    ['faild', 'failed'],
    ['declined', 'failed'],
    ['Expired', 'expired'],
  ])('%s: exit 2, "did you mean %s?", nothing changed, no webhook sent', async (typed, meant) => {
    const id = await newPayin();
    const done = await runInProcess(['status', 'payin', id, typed, '--url', sb.url]);
    expect(done.code).toBe(2);
    expect(done.stdout).toBe('');
    expect(done.stderr).toContain(`did you mean ${meant}?`);
    expect(done.stderr).toMatch(/ \(see pay-sandbox status --help\)\n$/);
    expect(done.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await statusOf(id)).toBe('new');
    expect(await sb.admin.deliveries(id)).toHaveLength(1); // the `new` webhook, and no other
  });

  it('a word with nothing near it is refused without a guess, naming the option that sends it on purpose', async () => {
    const id = await newPayin();
    const done = await runInProcess(['status', 'payin', id, 'refunded', '--url', sb.url]);
    expect(done.code).toBe(2);
    expect(done.stderr).toBe(
      "pay-sandbox: STATUS is not one of the interface's statuses (executed, failed or expired; to send a status clients do not know on purpose, add --unknown-status) (see pay-sandbox status --help)\n",
    );
  });

  it('--unknown-status sends it on purpose: the transaction moves and its webhook announces it', async () => {
    const id = await newPayin();
    const done = await runInProcess(['status', 'payin', id, 'processing', '--unknown-status', '--url', sb.url]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(`payin ${id} is now processing\n`);
    expect(JSON.parse((await hooks.next(id)).body).status).toBe('processing');
  });
});

describe('the admin API and its client', () => {
  it('400 at status with the likely status; nothing changed', async () => {
    const id = await newPayin();
    const answer = await adminCall(sb, 'POST', `/payins/${id}/status`, { status: 'execute' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors).toEqual([
      {
        path: 'status',
        message:
          'is not one of the interface\'s statuses: did you mean executed? (the interface\'s are executed, failed or expired; to send a status clients do not know on purpose, add "unknown_status": true)',
      },
    ]);
    expect(await statusOf(id)).toBe('new');
  });

  it('the client rejects with that 400, and takes the status with unknownStatus', async () => {
    const id = await newPayin();
    const refused = await sb.admin.setStatus('payin', id, 'paid').catch((error: unknown) => error);
    expect(isSandboxAdminError(refused) && [refused.status, refused.code, refused.errors[0]?.path]).toEqual([
      400,
      'invalid_request',
      'status',
    ]);
    expect((refused as Error).message).toContain('did you mean executed?');
    const moved = await sb.admin.setStatus('payin', id, 'paid', undefined, { unknownStatus: true });
    expect(moved.status).toBe('paid');
  });

  it('the interface statuses need no option; a status asked for on purpose may also be one of them', async () => {
    const [a, b] = [await newPayin(), await newPayin()];
    expect((await sb.admin.setStatus('payin', a, 'executed')).status).toBe('executed');
    expect((await sb.admin.setStatus('payin', b, 'failed', undefined, { unknownStatus: true })).status).toBe('failed');
  });
});

describe('a seed', () => {
  it('refuses a typo at the entry, with the likely status, and takes an unknown one asked for on purpose', async () => {
    const entry = { kind: 'payin', amount: '1.00', currency: 'EUR' };
    expect(() => parseSeed({ transactions: [{ ...entry, status: 'execute' }] })).toThrow(
      /^the seed is not valid: transactions\.0\.status is not one of the interface's statuses: did you mean executed\?/,
    );
    const seed = parseSeed({ transactions: [{ ...entry, reference_id: 'odd', status: 'on_hold', unknown_status: true }] });
    const seeded = await startSandbox({ seed });
    try {
      expect((await seeded.admin.transactions()).map((t) => t.status)).toEqual(['on_hold']);
    } finally {
      await seeded.close();
    }
  });
});
