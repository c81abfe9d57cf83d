// State that survives: `--state FILE` over real restarts of the `pay-sandbox` process (SIGTERM,
// and SIGKILL after a periodic write), and `--seed FILE`. Counted on the sandbox: nothing lost,
// nothing twice, the clock never backwards, webhooks still due still sent. A file refused at start
// is refused before anything starts: those cases run the command line in this process (as the CLI's
// process runs it); one refused state file and one refused seed are run both ways, and must exit and
// print the same.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.js';
import { adminCall, get, M1, M2, payinBody, payoutBody, post, receiver, freePort } from './helpers.js';
import { field, run, runInProcess, runToEnd, type Running } from './process.js';

const merchants = ['--merchant', `${M1.id}:${M1.secret}`, '--merchant', `${M2.id}:${M2.secret}`];

async function started(args: string[]): Promise<{ process: Running; url: string }> {
  const process = run([...args, '--quiet'], { PAY_SANDBOX_MERCHANTS: '' });
  const banner = await Promise.race([process.waitFor('Press Ctrl-C'), process.exited.then(() => process.output())]);
  if (!banner.includes('Press Ctrl-C')) throw new Error(`pay-sandbox did not start:\n${banner}`);
  return { process, url: field(banner, 'base URL') };
}

async function stop(p: Running, signal: NodeJS.Signals = 'SIGTERM') {
  p.child.kill(signal);
  await p.exited;
}

/** A command line run in this process (see runInProcess): its exit code and all it printed. */
async function refused(args: string[]): Promise<{ code: number | null; output: string }> {
  const done = await runInProcess(args);
  return { code: done.code, output: `${done.stdout}${done.stderr}` };
}

const clockMs = async (sandbox: { url: string }) => Date.parse(`${(await adminCall(sandbox, 'GET', '/clock')).body.now}Z`);

describe('--state FILE', () => {
  it('a restart goes on where it stopped: records, lookups, the clock, the delivery log and the retries still due', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
    const file = join(dir, 'state.json');
    const port = String(await freePort());
    const hooks = await receiver(() => 500);
    const args = ['--port', port, '--state', file, ...merchants];
    let first = await started(args);
    try {
      expect(first.process.output()).toContain(`state file      ${file}`);
      const sb = { url: first.url };
      const failing = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'keep-1', webhook_url: hooks.url() }));
      const executed = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'keep-2', method: 'card' }));
      await adminCall(sb, 'POST', `/payins/${executed.body.id}/status`, { status: 'executed' });
      const payout = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'keep-3' }), M2);
      // Attempts 1 and 2 of the failing webhook run at once; attempt 3 is due 15 minutes later.
      await hooks.next();
      await hooks.next();
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 120 }); // the payout executes
      const before = {
        transactions: (await adminCall(sb, 'GET', '/transactions')).body,
        deliveries: (await adminCall(sb, 'GET', '/deliveries')).body,
        clock: await clockMs(sb),
      };
      expect(
        before.deliveries.filter(
          (a: { transaction_id: string; sent_at: string | null }) => a.transaction_id === failing.body.id && a.sent_at === null,
        ),
      ).toHaveLength(1);
      await stop(first.process);

      first = await started(args);
      const after = {
        transactions: (await adminCall(sb, 'GET', '/transactions')).body,
        deliveries: (await adminCall(sb, 'GET', '/deliveries')).body,
        clock: await clockMs(sb),
      };
      expect(after.transactions).toEqual(before.transactions);
      expect(after.deliveries).toEqual(before.deliveries);
      expect(after.clock).toBeGreaterThanOrEqual(before.clock); // never backwards
      expect((await get(`${sb.url}/v2/merchants/payins/?reference_id=keep-2`)).body.status).toBe('executed');
      expect((await get(`${sb.url}/v2/merchants/payouts/${payout.body.id}`, M2)).body.status).toBe('executed');
      // The same reference is still taken.
      expect((await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'keep-1' }))).status).toBe(409);
      // The retry still due is sent when its time comes: attempt 3, then the schedule goes on.
      const sent = hooks.all.length;
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 15 * 60 });
      expect(hooks.all.length).toBe(sent + 1);
      const third = (await adminCall(sb, 'GET', `/deliveries?transaction_id=${failing.body.id}`)).body.find(
        (a: { attempt: number; status: string }) => a.attempt === 3 && a.status === 'new',
      );
      expect(third).toMatchObject({ response_status: 500 });
    } finally {
      await stop(first.process, 'SIGKILL');
      await hooks.close();
    }
  });

  it('after SIGKILL, what was written periodically is there; nothing is created twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
    const file = join(dir, 'state.json');
    const args = ['--port', String(await freePort()), '--state', file, ...merchants];
    let sandbox = await started(args);
    try {
      const created = await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ reference_id: 'killed-1' }));
      // Wait for the periodic write to hold it (bounded by the test's time limit), then kill.
      for (;;) {
        let text = '';
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          // not written yet
        }
        if (text.includes(created.body.id)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await stop(sandbox.process, 'SIGKILL');
      sandbox = await started(args);
      const transactions = (await adminCall(sandbox, 'GET', '/transactions')).body;
      expect(transactions.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
      expect((await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ reference_id: 'killed-1' }))).status).toBe(409);
    } finally {
      await stop(sandbox.process, 'SIGKILL');
    }
  });

  it('refuses a state file that is not one, naming the problem, and leaves it as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
    for (const [content, problem] of [
      ['{"format":"pay-sandbox-state","version":1', /cannot be read as JSON/],
      // Not JSON, around a customer's e-mail: the message says where, and never quotes the file.
      [
        '{"customer": Jane Doe <jane.secret@shop.example>}',
        /^pay-sandbox: state file \S+ cannot be read as JSON( \(error at character \d+\))?\n$/,
      ],
      ['{"format":"something-else"}', /format/],
      [
        JSON.stringify({
          format: 'pay-sandbox-state',
          version: 1,
          saved_at: 'x',
          clock_offset_ms: 0,
          transactions: [{ id: 42 }],
          deliveries: [],
        }),
        /transactions\.0/,
      ],
    ] as const) {
      const file = join(dir, 'bad.json');
      writeFileSync(file, content);
      const p = await refused(['--port', '0', '--state', file]);
      expect(p.code).toBe(1);
      expect(p.output).toMatch(problem);
      expect(p.output).not.toContain('Usage:');
      expect(p.output).not.toContain('jane.secret');
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('is written 0600, readable by the developer alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
    const file = join(dir, 'state.json');
    const sandbox = await startSandbox({ merchants: [M1], stateFile: file });
    await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ reference_id: 'mode-1' }));
    await sandbox.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A temporary file left by a crash, readable by all, is not reused as it was.
    const stale = `${file}.${process.pid}.tmp`;
    writeFileSync(stale, 'x', { mode: 0o644 });
    const again = await startSandbox({ merchants: [M1], stateFile: file });
    await post(`${again.url}/v2/merchants/payins/`, payinBody({ reference_id: 'mode-2' }));
    await again.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(stale)).toBe(false);
  });

  describe('refuses a state file another account could have written or swapped in, naming why, and leaves it as it was', () => {
    const isRoot = process.getuid?.() === 0;
    /** A state file the sandbox itself wrote: valid, 0600, this account's. */
    async function written(dir: string): Promise<string> {
      const file = join(dir, 'state.json');
      const sandbox = await startSandbox({ merchants: [M1], stateFile: file });
      await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ reference_id: 'owner-1' }));
      await sandbox.close();
      return file;
    }
    const refusal = async (file: string) => {
      const error = await startSandbox({ merchants: [M1], stateFile: file }).then(
        (s) => s.close().then(() => undefined),
        (e: unknown) => e,
      );
      expect(error, file).toBeInstanceOf(TypeError);
      expect((error as { code?: string }).code).toBe('ERR_PAY_SANDBOX_FILE');
      return (error as Error).message;
    };

    it('the file as written loads (the control)', async () => {
      const file = await written(mkdtempSync(join(tmpdir(), 'pay-sandbox-owner-')));
      const sandbox = await startSandbox({ merchants: [M1], stateFile: file });
      const found = await get(`${sandbox.url}/v2/merchants/payins/?reference_id=owner-1`, M1);
      await sandbox.close();
      expect(found.status).toBe(200);
    });

    it.each([
      ['writable by its group', (file: string) => chmodSync(file, 0o620), /writable by its group or by others \(mode 620\)/],
      ['writable by others', (file: string) => chmodSync(file, 0o606), /writable by its group or by others \(mode 606\)/],
    ])('%s', async (_name, spoil, problem) => {
      const file = await written(mkdtempSync(join(tmpdir(), 'pay-sandbox-owner-')));
      spoil(file);
      const before = readFileSync(file, 'utf8');
      expect(await refusal(file)).toMatch(problem);
      expect(readFileSync(file, 'utf8')).toBe(before);
    });

    it('a symbolic link to a state file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-owner-'));
      const file = await written(dir);
      symlinkSync(file, join(dir, 'link.json'));
      expect(await refusal(join(dir, 'link.json'))).toMatch(/is a symbolic link/);
    });

    it('a directory or a FIFO under the name: refused at once, no hang', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-owner-'));
      mkdirSync(join(dir, 'dir.json'));
      expect(await refusal(join(dir, 'dir.json'))).toMatch(/is not a regular file|cannot be read/);
      execFileSync('mkfifo', [join(dir, 'fifo.json')]);
      expect(await refusal(join(dir, 'fifo.json'))).toMatch(/is not a regular file/);
    });

    it.skipIf(!isRoot)(`owned by another account (nobody)${isRoot ? '' : ' (SKIPPED: needs root to give a file away)'}`, async () => {
      const file = await written(mkdtempSync(join(tmpdir(), 'pay-sandbox-owner-')));
      chownSync(file, 65534, 65534);
      expect(await refusal(file)).toMatch(/belongs to another account \(uid 65534, not 0\)/);
      // The command line says the same and exits 1, as for any refused state file.
      const p = run(['--port', '0', '--state', file]);
      expect(await p.exited).toBe(1);
      expect(p.output()).toMatch(/state file \S+ belongs to another account/);
    });
  });

  describe('refuses a state file out of range or against the create rules, naming what is wrong (exit 1)', () => {
    let valid: any;
    it('(a valid state file to spoil)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
      const file = join(dir, 'state.json');
      const sandbox = await startSandbox({ merchants: [M1], stateFile: file });
      await post(
        `${sandbox.url}/v2/merchants/payins/`,
        payinBody({ reference_id: 'range-1', redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' } }),
      );
      await sandbox.admin.advance(0);
      await sandbox.close();
      valid = JSON.parse(readFileSync(file, 'utf8'));
      expect(valid.transactions).toHaveLength(1);
      expect(valid.deliveries.length).toBeGreaterThan(0);
    });

    const LONG = `https://shop.example/${'a'.repeat(40_000)}`;
    it.each([
      ['clock_offset_ms 1e300', (s: any) => (s.clock_offset_ms = 1e300), /clock_offset_ms/],
      ['a clock offset past year 9999', (s: any) => (s.clock_offset_ms = Date.UTC(9999, 11, 31) - Date.UTC(2020, 0, 1)), /clock_offset_ms/],
      ['createdAt 1e300', (s: any) => (s.transactions[0].createdAt = 1e300), /transactions\.0\.createdAt/],
      ['expiresAt negative', (s: any) => (s.transactions[0].expiresAt = -1), /transactions\.0\.expiresAt/],
      ['a delivery due at 1e300', (s: any) => (s.deliveries[0].dueAt = 1e300), /deliveries\.0\.dueAt/],
      [
        'a javascript: redirect',
        (s: any) => (s.transactions[0].redirectUrls.success = 'javascript:alert(1)'),
        /transactions\.0\.redirectUrls\.success/,
      ],
      ['a 40 KB redirect URL', (s: any) => (s.transactions[0].redirectUrls.fail = LONG), /transactions\.0\.redirectUrls\.fail/],
      ['a 40 KB webhook URL', (s: any) => (s.transactions[0].webhookUrl = LONG), /transactions\.0\.webhookUrl/],
      [
        'a plain-http webhook URL to another host',
        (s: any) => (s.transactions[0].webhookUrl = 'http://shop.example/hooks'),
        /transactions\[0\]\.webhookUrl/,
      ],
      ['an amount of 1e300', (s: any) => (s.transactions[0].amount = 1e300), /transactions\.0\.amount/],
    ])('%s', async (_what, spoil, problem) => {
      const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-state-'));
      const file = join(dir, 'state.json');
      const bad = structuredClone(valid);
      spoil(bad);
      const content = JSON.stringify(bad);
      writeFileSync(file, content);
      const p = await refused(['--port', '0', '--state', file, '--merchant', `${M1.id}:${M1.secret}`]);
      expect(p.code).toBe(1);
      expect(p.output).toMatch(problem);
      expect(p.output).not.toContain('Usage:');
      expect(p.output).not.toContain('a'.repeat(200));
      expect(readFileSync(file, 'utf8')).toBe(content);
    });
  });
});

describe('--seed FILE', () => {
  const seed = {
    transactions: [
      { kind: 'payin', reference_id: 'seed-paid', amount: '10.50', currency: 'EUR', status: 'executed' },
      {
        kind: 'payin',
        reference_id: 'seed-declined',
        amount: 5,
        currency: 'USD',
        method: 'card',
        status: 'failed',
        error_code: 'card_declined',
        error_message: 'The card was declined.',
      },
      { kind: 'payout', merchant_id: M2.id, reference_id: 'seed-payout', amount: '99.99', currency: 'EUR' },
    ],
  };

  it('creates the documented transactions at start, once, also over a restored state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-seed-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(seed));
    const args = ['--port', String(await freePort()), '--seed', seedFile, '--state', join(dir, 'state.json'), ...merchants];
    let sandbox = await started(args);
    try {
      const check = async () => {
        const transactions = (await adminCall(sandbox, 'GET', '/transactions')).body as {
          reference_id: string;
          status: string;
          merchant_id: string;
          error_code: string | null;
          payment: { amount: number };
        }[];
        expect(transactions.map((t) => [t.reference_id, t.status, t.merchant_id]).sort()).toEqual([
          ['seed-declined', 'failed', M1.id],
          ['seed-paid', 'executed', M1.id],
          ['seed-payout', 'new', M2.id],
        ]);
        expect(transactions.find((t) => t.reference_id === 'seed-declined')!.error_code).toBe('card_declined');
        expect((await get(`${sandbox.url}/v2/merchants/payins/?reference_id=seed-paid`)).body).toMatchObject({
          status: 'executed',
          payment: { amount: 10.5, currency: 'EUR' },
          fee: { amount: 0.26 },
        });
      };
      await check();
      await stop(sandbox.process);
      sandbox = await started(args);
      await check(); // loaded from the state file; the seed added nothing twice
    } finally {
      await stop(sandbox.process, 'SIGKILL');
    }
  });

  it.each([
    [{ transactions: [{ kind: 'refund', amount: 1, currency: 'EUR' }] }, /transactions\.0\.kind/],
    [{ transactions: [{ kind: 'payin', amount: -1, currency: 'EUR' }] }, /transactions\.0\.amount/],
    [{ transactions: [{ kind: 'payin', amount: 0.001, currency: 'EUR' }] }, /transactions\.0\.amount EUR has 2 decimals; got 3/],
    [{ transactions: [{ kind: 'payout', amount: 1, currency: 'ABC' }] }, /transactions\.0\.currency must be an ISO 4217 currency code/],
    [{ transactions: [{ kind: 'payin', amount: 1, currency: 'EUR', merchant_id: 'm_nobody' }] }, /merchant_id/],
    [{ transactions: [{ kind: 'payin', amount: 1, currency: 'EUR', webhook_url: 'http://shop.example/hooks' }] }, /webhook_url/],
    [{ transactions: 'all' }, /transactions/],
    [
      { transactions: [{ kind: 'payin', amount: 1, currency: 'EUR', redirect_urls: { success: 'javascript:alert(1)' } }] },
      /transactions\.0\.redirect_urls\.success/,
    ],
    [
      {
        transactions: [{ kind: 'payin', amount: 1, currency: 'EUR', redirect_urls: { fail: `https://shop.example/${'a'.repeat(3000)}` } }],
      },
      /transactions\.0\.redirect_urls\.fail/,
    ],
    [
      { transactions: [{ kind: 'payin', amount: 1, currency: 'EUR', webhook_url: `https://shop.example/${'a'.repeat(3000)}` }] },
      /transactions\.0\.webhook_url/,
    ],
  ])('refuses a seed (case %#), naming the field', async (bad, problem) => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sandbox-seed-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(bad));
    const p = await refused(['--port', '0', '--seed', seedFile, ...merchants]);
    expect(p.code).toBe(1);
    expect(p.output).not.toContain('Usage:');
    expect(p.output).toMatch(problem);
    expect(p.output).not.toContain(M1.secret);
  });
});

describe('a refused file, the process and the command line run in this process', () => {
  it.each([
    ['a state file that is not JSON', '--state', '{"customer": Jane Doe <jane.secret@shop.example>}'],
    ['a seed of an unknown kind', '--seed', JSON.stringify({ transactions: [{ kind: 'refund', amount: 1, currency: 'EUR' }] })],
  ])('%s: the same exit code (1) and output both ways', async (_what, option, content) => {
    const file = join(mkdtempSync(join(tmpdir(), 'pay-sandbox-refused-')), 'file.json');
    writeFileSync(file, content);
    const line = ['--port', '0', option, file, ...merchants];
    const spawned = await runToEnd(line);
    expect(spawned.code).toBe(1);
    expect(await runInProcess(line)).toEqual(spawned);
    expect(spawned.stderr).toMatch(/^pay-sandbox: /);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });
});
