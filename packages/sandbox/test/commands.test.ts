// The `pay-sandbox` commands against a real sandbox started here: each command's effect is checked
// on the sandbox itself (through its admin API), with the exit codes, what is printed for people,
// --json, --help, and that no secret is ever printed. Most cases run the command line in this
// process (runInProcess: the function the CLI's process runs, with the same environment); the
// first describe block spawns the built CLI on a table of command lines, one per way a command
// ends, and requires the same exit code and output both ways. A sandbox started by the CLI is
// always a real process.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index.js';
import { CARD, M1, M2, payinBody, payoutBody, post, push, receiver, sandboxForFile, until, type Started } from './helpers.js';
import { field, run, runInProcess, runToEnd, type Finished } from './process.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const SECRETS = [M1.secret, M2.secret];

/**
 * Runs a command against the sandbox (`--url` added unless `url` is false) and checks that nothing
 * it printed holds a merchant secret, or any of `secrets`.
 */
async function cli(
  args: string[],
  options: { env?: Record<string, string>; url?: boolean; secrets?: string[]; spawn?: boolean } = {},
): Promise<Finished> {
  const line = options.url === false ? args : [...args, '--url', sb.url];
  const done = await (options.spawn ? runToEnd : runInProcess)(line, options.env);
  for (const secret of [...SECRETS, ...(options.secrets ?? [])]) {
    expect(done.stdout, `stdout of ${args.join(' ')}`).not.toContain(secret);
    expect(done.stderr, `stderr of ${args.join(' ')}`).not.toContain(secret);
  }
  expect(done.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  return done;
}

const M1_SPEC = `${M1.id}:${M1.secret}`;
const idIn = (out: string) => /\b(p[io]_[0-9a-z]{20})\b/.exec(out)![1]!;
/** A usage error as printed: exit 2, nothing on stdout, one line on stderr naming the --help to read (never the whole usage). */
function usageError(done: Finished, command: string): string {
  expect(done.code).toBe(2);
  expect(done.stdout).toBe('');
  expect(done.stderr).not.toContain('Usage:');
  expect(done.stderr.endsWith(` (see ${command} --help)\n`), done.stderr).toBe(true);
  expect(done.stderr.trimEnd().split('\n')).toHaveLength(1);
  return done.stderr;
}
/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the CLI process and the command line run in this process', () => {
  // One command line per way a command ends: its help (0), done (0, --json), a usage error (2), a
  // refusal by the sandbox (1, with its hint), a body the sandbox refuses (1, field errors), no
  // sandbox there (1). Each is run both ways and must print the same, byte for byte, and exit the
  // same: what the cases below check in this process holds for the process a user starts.
  const lines: { args: string[]; closed?: boolean; code: number }[] = [
    { args: ['payin', 'create', '--help'], code: 0 },
    { args: ['transactions', '--json'], code: 0 },
    // What masking.test.ts, secrets-outside-bodies.test.ts and status-typos.test.ts run in this process.
    { args: ['requests', '--json', '--limit', '1'], code: 0 },
    { args: ['requests', '--limit', '1'], code: 0 },
    { args: ['status', 'payin', 'pi_x', 'execute'], code: 2 },
    { args: ['help', 'nope'], code: 2 },
    { args: ['payin', 'create', '--merchant', 'nocolon'], code: 2 },
    { args: ['payin', 'create'], code: 1 },
    { args: ['payin', 'create', '--merchant', M1_SPEC, '--amount', '-3'], code: 1 },
    { args: ['reset'], closed: true, code: 1 },
  ];
  it.each(lines)('$args: the same exit code ($code) and output both ways', async ({ args, closed, code }) => {
    const line = closed ? [...args, '--url', `http://127.0.0.1:${await closedPort()}`] : args;
    const spawned = await cli(line, { spawn: true, url: !closed });
    const inProcess = await cli(line, { url: !closed });
    expect(spawned.code).toBe(code);
    expect(inProcess).toEqual(spawned);
    expect(`${spawned.stdout}${spawned.stderr}`).not.toBe('');
  });
});

describe('pay-sandbox payin create', () => {
  it('creates the payin it is told to, signed so that the sandbox accepts it', async () => {
    const done = await cli([
      'payin',
      'create',
      '--merchant',
      M1_SPEC,
      '--amount',
      '12.34',
      '--set',
      'customer.first_name=Zoë',
      '--reference',
      'cli-zoe',
    ]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const id = idIn(done.stdout);
    expect(done.stdout).toBe(
      [
        `payin ${id} created, status new`,
        '  amount       12.34 EUR',
        '  reference    cli-zoe',
        '  merchant     m_1',
        `  next action  redirect ${sb.url}/_sandbox/pay/${id}`,
        '',
      ].join('\n'),
    );
    // On the sandbox: the payin, with that amount, reference and customer; the signature accepted.
    const [tx] = await sb.admin.transactions();
    expect(tx).toMatchObject({
      id,
      kind: 'payin',
      merchant_id: 'm_1',
      reference_id: 'cli-zoe',
      status: 'new',
      payment: { amount: 12.34, currency: 'EUR' },
    });
    expect((await sb.admin.snapshot()).transactions[0]!.customer).toBe('Zoë Doe <jane@shop.example>');
    const [logged] = await sb.admin.requests();
    expect(logged).toMatchObject({
      method: 'POST',
      path: '/v2/merchants/payins/',
      status: 200,
      code: null,
      merchant_id: 'm_1',
      transaction_id: id,
    });
    const sent = JSON.parse(logged!.body!);
    expect(sent.payment).toEqual({ amount: 12.34, currency: 'EUR' });
    expect(sent.customer.first_name).toBe('Zoë');
  });

  it('signs as the demo merchant by default, as PAY_SANDBOX_MERCHANT says, or as --merchant says', async () => {
    const demo: RunningSandbox = await startSandbox();
    try {
      const done = await cli(['payin', 'create', '--url', demo.url], { url: false });
      expect(done.code).toBe(0);
      expect((await demo.admin.transactions()).map((t) => t.merchant_id)).toEqual(['m_demo']);
    } finally {
      await demo.close();
    }
    const env = { PAY_SANDBOX_MERCHANT: `${M2.id}:${M2.secret}` };
    expect((await cli(['payin', 'create'], { env })).code).toBe(0);
    expect((await cli(['payin', 'create', '--merchant', M1_SPEC], { env })).code).toBe(0);
    expect((await sb.admin.transactions()).map((t) => t.merchant_id)).toEqual(['m_2', 'm_1']);
  });

  it('--set-json, --unset, --method card: the body as told; the card push address printed works', async () => {
    const done = await cli([
      'payin',
      'create',
      '--merchant',
      M1_SPEC,
      '--method',
      'card',
      '--json',
      '--set-json',
      'payment.amount=7.25',
      '--set-json',
      'customer.address={"addr_line_1":"1 Rue de Rivoli","city":"Paris","zip":"75001","country":"FR"}',
      '--unset',
      'redirect_urls.fail',
      '--set',
      'redirect_urls.fail=https://shop.example/sorry',
    ]);
    expect(done.code).toBe(0);
    const record = JSON.parse(done.stdout);
    expect(record).toMatchObject({
      status: 'new',
      method: 'card',
      payment: { amount: 7.25, currency: 'EUR' },
      next_action: { type: 'card_push' },
    });
    const sent = JSON.parse((await sb.admin.requests())[0]!.body!);
    expect(sent.customer.address).toEqual({ addr_line_1: '1 Rue de Rivoli', city: 'Paris', zip: '75001', country: 'FR' });
    expect(sent.redirect_urls).toEqual({ success: 'https://shop.example/ok', fail: 'https://shop.example/sorry' });
    const pushed = await push(record.next_action.url, record.id, CARD);
    expect(pushed.body.status).toBe('executed');
  });

  it('--amount: a JSON number when one holds it exactly, else the digits as a string', async () => {
    const short = await cli(['payin', 'create', '--amount', '10.50', '--dry-run']);
    expect(short.code).toBe(0);
    expect(JSON.parse(short.stdout).payment.amount).toBe(10.5);
    const long = await cli(['payin', 'create', '--merchant', M1_SPEC, '--amount', '12345678901234567.89']);
    expect(long.code).toBe(0);
    expect((await sb.admin.snapshot()).transactions[0]!.amountDigits).toBe('12345678901234567.89');
  });

  it('--dry-run prints the valid default body and sends nothing', async () => {
    const done = await cli(['payin', 'create', '--dry-run', '--reference', 'dry']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({
      ...payinBody({ reference_id: 'dry', webhook_url: 'http://127.0.0.1:9/webhooks' }),
      customer: expect.objectContaining({ first_name: 'Jane' }),
      browser_data: expect.any(Object),
    });
    expect(await sb.admin.requests()).toEqual([]);
  });

  it.each([
    [['--amount', '-3'], -3],
    [['--amount=-3'], -3],
    [['--amount', '-0.5'], -0.5],
  ])('%j is the amount, and the sandbox refuses it at payment.amount (exit 1)', async (args, sent) => {
    const dry = await cli(['payin', 'create', '--dry-run', ...args]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).payment.amount).toBe(sent);
    const done = await cli(['payin', 'create', '--merchant', M1_SPEC, ...args]);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain('\n  payment.amount: must be greater than 0\n');
    expect(await sb.admin.transactions()).toEqual([]);
  });

  it.each([
    ['10.5', 'EUR', '10.50 EUR'],
    ['1000', 'JPY', '1000 JPY'],
    ['1.5', 'KWD', '1.500 KWD'],
  ])('--amount %s --currency %s is printed as %s', async (amount, currency, shown) => {
    const done = await cli(['payin', 'create', '--merchant', M1_SPEC, '--amount', amount, '--currency', currency]);
    expect(done.code).toBe(0);
    expect(done.stdout.split('\n')[1]).toBe(`  amount       ${shown}`);
    const listed = await cli(['transactions']);
    expect(listed.stdout.split('\n')[1]!.split(/ {2,}/)[3]).toBe(shown);
  });

  it('signing as the demo merchant by default, against a sandbox of other merchants: the 401 says to pass --merchant', async () => {
    // This sandbox was started with m_1 and m_2 (as `serve --merchant` does); nobody said who signs.
    const done = await cli(['payin', 'create']);
    expect(done.code).toBe(1);
    const lines = done.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^pay-sandbox: the sandbox refused: 401 /);
    expect(lines.at(-1)).toBe(
      '  hint: this command signed as the demo merchant m_demo, as no --merchant was given; a sandbox started with --merchant takes only its own merchants: pass --merchant ID:SECRET (or set PAY_SANDBOX_MERCHANT)',
    );
    // A merchant named, on the command line or in the environment: no such hint (it was not the default).
    for (const named of [
      await cli(['payin', 'create', '--merchant', 'm_1:wrong-secret'], { secrets: ['wrong-secret'] }),
      await cli(['payin', 'create'], { env: { PAY_SANDBOX_MERCHANT: 'm_1:wrong-secret' }, secrets: ['wrong-secret'] }),
    ]) {
      expect(named.code).toBe(1);
      expect(named.stderr).not.toContain('signed as the demo merchant');
    }
  });

  it('a refused signature: exit 1, the status, code, message and the sandbox hint, never the secret', async () => {
    // m_1 signing with m_2's secret: the sandbox recognises the mistake and says so in error.hint.
    const done = await cli(['payin', 'create', '--merchant', `${M1.id}:${M2.secret}`]);
    expect(done.code).toBe(1);
    expect(done.stdout).toBe('');
    const [logged] = await sb.admin.requests();
    expect(logged).toMatchObject({ status: 401, code: 'bad_signature' });
    expect(logged!.hint).toContain('the secret of merchant m_2');
    expect(done.stderr).toBe(`pay-sandbox: the sandbox refused: 401 bad_signature: ${logged!.message}\n  hint: ${logged!.hint}\n`);
    expect(await sb.admin.transactions()).toEqual([]);
  });

  it('a wrong secret, an unknown merchant: 401 as the sandbox says it, exit 1', async () => {
    const wrong = await cli(['payin', 'create', '--merchant', 'm_1:wrong-secret'], { secrets: ['wrong-secret'] });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^pay-sandbox: the sandbox refused: 401 bad_signature: header x-signature does not match/);
    // A plain wrong secret: no mistake of the catalogue matches, so the hint says the secret is likeliest.
    expect(wrong.stderr).toContain(
      "  hint: no common signing mistake matches (URL, method, body and secret variants were tried): the secret is most likely not merchant m_1's",
    );
    expect(wrong.stderr).not.toContain('wrong-secret');
    const unknown = await cli(['payin', 'create', '--merchant', 'm_9:sk_other'], { secrets: ['sk_other'] });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('401 merchant_mismatch');
    expect(unknown.stderr).toContain('  hint: x-merchant-id names no merchant of this sandbox; its merchants are m_1, m_2');
  });

  it('a body the sandbox refuses: exit 1 and every field error', async () => {
    const done = await cli([
      'payin',
      'create',
      '--merchant',
      M1_SPEC,
      '--set',
      'customer.email=nope',
      '--unset',
      'browser_data',
      '--amount',
      'ten',
    ]);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(
      /^pay-sandbox: the sandbox refused: 400 invalid_request: the body does not match the create-payin \(v2\) schema: \d+ errors\n/,
    );
    for (const path of ['customer.email', 'browser_data', 'payment.amount']) expect(done.stderr).toContain(`\n  ${path}: `);
    expect(await sb.admin.transactions()).toEqual([]);
  });

  it('--json prints a refusal as it came, exit 1', async () => {
    const done = await cli(['payin', 'create', '--merchant', M1_SPEC, '--reference', 'twice', '--json']);
    expect(done.code).toBe(0);
    const again = await cli(['payin', 'create', '--merchant', M1_SPEC, '--reference', 'twice', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: { code: 'duplicate_reference_id', message: expect.any(String), id: JSON.parse(done.stdout).id },
    });
  });

  it.each([
    [['--merchant', 'nocolon'], '--merchant must be ID:SECRET'],
    [['--merchant', 'm_1:'], '--merchant must be ID:SECRET'],
    [['--merchant', 'm 1:sk_spaced'], '--merchant: the merchant id must be'],
    [['--set', 'customer.email.x=1'], '--set: customer.email is a string, so customer.email.x cannot be set'],
    [['--set', 'no-equals'], '--set takes PATH=VALUE'],
    [['--set', 'customer..email=x'], '--set: path customer..email has an empty segment'],
    [['--set-json', 'payment.amount=ten'], '--set-json: the value is not JSON'],
    [['--unset', 'customer.nickname'], '--unset: the body has no field customer.nickname to remove'],
    [['--bogus'], 'unknown option: --bogus'],
    [['m_1:sk_positional'], 'unexpected argument: this command takes options only'],
    [['--url', 'ftp://127.0.0.1:4010'], '--url must be an http or https URL'],
    [['--url', 'http://admin:hunter2@127.0.0.1:4010'], '--url must not carry credentials'],
  ])('payin create %j: a usage error (exit 2) naming what is wrong, echoing no secret', async (args, message) => {
    const done = await cli(['payin', 'create', ...args], { url: false, secrets: ['sk_spaced', 'sk_positional', 'hunter2'] });
    expect(usageError(done, 'pay-sandbox payin create')).toContain(`pay-sandbox: ${message}`);
    expect(await sb.admin.requests()).toEqual([]);
  });

  it('PAY_SANDBOX_MERCHANT that is not ID:SECRET is a usage error naming the variable', async () => {
    const done = await cli(['payin', 'create'], { env: { PAY_SANDBOX_MERCHANT: 'sk_only_a_secret' }, secrets: ['sk_only_a_secret'] });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('pay-sandbox: PAY_SANDBOX_MERCHANT must be ID:SECRET');
  });
});

describe('pay-sandbox payout create', () => {
  it('creates the payout it is told to', async () => {
    const done = await cli([
      'payout',
      'create',
      '--merchant',
      M1_SPEC,
      '--amount',
      '5',
      '--currency',
      'USD',
      '--reference',
      'po-cli',
      '--set',
      'customer.last_name=Müller',
    ]);
    expect(done.code).toBe(0);
    const id = idIn(done.stdout);
    expect(done.stdout).toContain(`payout ${id} created, status new\n  amount       5.00 USD\n  reference    po-cli\n`);
    expect(await sb.admin.transactions()).toEqual([
      expect.objectContaining({ id, kind: 'payout', merchant_id: 'm_1', reference_id: 'po-cli', payment: { amount: 5, currency: 'USD' } }),
    ]);
    expect((await sb.admin.snapshot()).transactions[0]!.customer).toBe('Jane Müller <jane@shop.example>');
  });

  it('takes no --method (usage error)', async () => {
    const done = await cli(['payout', 'create', '--method', 'card']);
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('--method applies to payins only');
  });
});

describe('pay-sandbox status', () => {
  it('moves a transaction (one webhook), printing its new status', async () => {
    const hooks = await receiver();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      const id = created.body.id as string;
      const done = await cli([
        'status',
        'payin',
        id,
        'failed',
        '--error-code',
        'insufficient_funds',
        '--error-message',
        'Not enough money.',
      ]);
      expect(done.code).toBe(0);
      expect(done.stdout).toBe(`payin ${id} is now failed (insufficient_funds: Not enough money.)\n`);
      expect(await sb.admin.transactions()).toEqual([
        expect.objectContaining({ id, status: 'failed', error_code: 'insufficient_funds', error_message: 'Not enough money.' }),
      ]);
      expect(JSON.parse((await hooks.next(id)).body).status).toBe('new');
      expect(JSON.parse((await hooks.next(id)).body).status).toBe('failed');
    } finally {
      await hooks.close();
    }
  });

  it('--json prints the record', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ payment: { amount: 3, currency: 'EUR' } }));
    const done = await cli(['status', 'payout', created.body.id, 'executed', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: created.body.id, status: 'executed', fee: { amount: 0.08, currency: 'EUR' } });
  });

  it('the sandbox refusing: exit 1 with its status, code and field errors', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const unknown = await cli(['status', 'payin', 'pi_nope', 'executed']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('pay-sandbox: the sandbox refused: 404 not_found: no payin with this id\n');
    const badError = await cli(['status', 'payin', created.body.id, 'executed', '--error-code', 'x']);
    expect(badError.code).toBe(1);
    expect(badError.stderr).toMatch(/400 invalid_request: .*\n {2}error_code: is only given with status failed/);
    // The field error is listed once, under the sandbox's sentence (not repeated in it).
    expect(badError.stderr.match(/error_code: is only/g)).toHaveLength(1);
    const hostile = await cli(['status', 'payin', '../../reset', 'executed']);
    expect(hostile.code).toBe(1);
    expect(hostile.stderr).toContain('404 not_found');
    expect((await sb.admin.transactions()).map((t) => t.status)).toEqual(['new']);
  });

  it.each([[['payin']], [['payin', 'pi_1']], [['refund', 'pi_1', 'executed']], [['payin', 'pi_1', 'executed', 'extra']]])(
    'status %j is a usage error',
    async (args) => {
      usageError(await cli(['status', ...args]), 'pay-sandbox status');
    },
  );
});

describe('pay-sandbox advance', () => {
  it('moves the clock and runs what falls due: a payout executed after 1m1s', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ payment: { amount: 3, currency: 'EUR' } }));
    const before = Date.now();
    const done = await cli(['advance', '1m1s']);
    expect(done.code).toBe(0);
    const now = /^clock advanced 61 s; now (\S+)\n$/.exec(done.stdout)![1]!;
    expect(Date.parse(`${now}Z`)).toBeGreaterThanOrEqual(before + 61_000);
    expect((await sb.admin.transactions()).map((t) => [t.id, t.status])).toEqual([[created.body.id, 'executed']]);
  });

  it.each([
    ['90', 90],
    ['15m', 900],
    ['1h', 3600],
    ['1.5h', 5400],
    ['2d', 172_800],
  ])('advance %s moves the clock %i s', async (duration, seconds) => {
    const before = Date.parse(`${(await sb.admin.clock()).now}Z`);
    const done = await cli(['advance', duration, '--json']);
    expect(done.code).toBe(0);
    const after = Date.parse(`${JSON.parse(done.stdout).now}Z`);
    expect(after - before).toBeGreaterThanOrEqual(seconds * 1000);
    expect(after - before).toBeLessThan(seconds * 1000 + 30_000);
  });

  it('a duration past what the sandbox takes: exit 1 with its field error; no duration: exit 2', async () => {
    const far = await cli(['advance', '4000d']);
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('\n  seconds: must be a number of seconds from 0 to');
    for (const args of [['advance'], ['advance', 'soon'], ['advance', '-5'], ['advance', '1h', '2h']]) {
      usageError(await cli(args), 'pay-sandbox advance');
    }
  });
});

describe('pay-sandbox transactions, deliveries, requests, reset', () => {
  it('transactions: a table, or the JSON', async () => {
    expect((await cli(['transactions'])).stdout).toBe('(no transactions)\n');
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'tbl-a' }));
    await sb.admin.setStatus('payin', a.body.id, 'failed', { code: 'card_declined' });
    const done = await cli(['transactions']);
    expect(done.code).toBe(0);
    const [header, row, end] = done.stdout.split('\n');
    expect(header).toMatch(/^ID +KIND +STATUS +AMOUNT +MERCHANT +REFERENCE +CREATED +ERROR$/);
    // The amount as the interface's decimal text with the currency's digits: 10.50, not 10.5.
    expect(row!.split(/ {2,}/)).toEqual([a.body.id, 'payin', 'failed', '10.50 EUR', 'm_1', 'tbl-a', a.body.created_at, 'card_declined']);
    expect(end).toBe('');
    const json = await cli(['transactions', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(await sb.admin.transactions());
  });

  it('a reference id with terminal control codes is printed harmless', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'evil\u001b[2J\u0007' }));
    const done = await cli(['transactions']);
    expect(done.stdout).not.toMatch(/[\u0000-\u0008\u001b]/);
    expect(done.stdout).toContain('evil\\x1b[2J\\x07');
  });

  it("deliveries: every attempt, or one transaction's, with the answer", async () => {
    const hooks = await receiver((n) => (n === 1 ? 500 : 200));
    try {
      const done = await cli(['payin', 'create', '--merchant', M1_SPEC, '--webhook-url', hooks.url()]);
      const id = idIn(done.stdout);
      await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ payment: { amount: 3, currency: 'EUR' } }));
      // Attempt 1 answered 500, attempt 2 (at once) 200: wait until the sandbox has logged both answers.
      await until(
        async () => (await sb.admin.deliveries(id)).filter((d) => d.response_status !== null).length === 2,
        'two answered attempts',
        sb,
      );
      const one = await cli(['deliveries', '--transaction', id]);
      expect(one.code).toBe(0);
      const lines = one.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^TRANSACTION +STATUS +ATTEMPT +DUE +SENT +ANSWER +URL$/);
      expect(lines.slice(1).map((l) => l.split(/ {2,}/).filter((_, i) => [0, 1, 2, 5, 6].includes(i)))).toEqual([
        [id, 'new', '1', '500', hooks.url()],
        [id, 'new', '2', '200', hooks.url()],
      ]);
      const all = await cli(['deliveries', '--json']);
      expect(JSON.parse(all.stdout)).toEqual(await sb.admin.deliveries());
      expect(new Set(JSON.parse(all.stdout).map((d: { transaction_id: string }) => d.transaction_id)).size).toBe(2);
      expect((await cli(['deliveries', '--transaction', 'pi_none'])).stdout).toBe('(no webhook attempts)\n');
    } finally {
      await hooks.close();
    }
  });

  it('requests: newest first, each refusal with its hint under it; --limit; --json', async () => {
    await cli(['payin', 'create', '--merchant', `${M1.id}:${M2.secret}`]);
    const ok = await cli(['payin', 'create', '--merchant', M1_SPEC]);
    const id = idIn(ok.stdout);
    const logged = await sb.admin.requests();
    const done = await cli(['requests']);
    expect(done.code).toBe(0);
    const lines = done.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SEQ +AT +MERCHANT +METHOD +PATH +STATUS +CODE +TRANSACTION$/);
    expect(lines[1]!.split(/ {2,}/)).toEqual(['2', logged[0]!.at, 'm_1', 'POST', '/v2/merchants/payins/', '200', '-', id]);
    expect(lines[2]!.split(/ {2,}/)).toEqual(['1', logged[1]!.at, 'm_1', 'POST', '/v2/merchants/payins/', '401', 'bad_signature', '-']);
    expect(lines[3]).toBe(`    hint: ${logged[1]!.hint}`);
    expect(lines).toHaveLength(4);
    const limited = await cli(['requests', '--limit', '1', '--json']);
    expect(JSON.parse(limited.stdout)).toEqual([logged[0]]);
    const tooMany = await cli(['requests', '--limit', '5000']);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('\n  limit: must be a whole number from 1 to 1000');
    const notNumber = await cli(['requests', '--limit', 'all']);
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain('--limit must be a whole number, 1 or more');
  });

  it("requests: a 400's field errors under its row, before the hint", async () => {
    const refused = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ payment: { amount: '1.234', currency: 'EUR' }, extra: 1 }));
    expect(refused.status).toBe(400);
    const done = await cli(['requests', '--limit', '1']);
    expect(done.code).toBe(0);
    const lines = done.stdout.trimEnd().split('\n');
    expect(lines[1]!.split(/ {2,}/).slice(4, 7)).toEqual(['/v2/merchants/payins/', '400', 'invalid_request']);
    expect(lines.slice(2)).toEqual(
      (refused.body.error.errors as { path: string; message: string }[]).map((e) => `    ${e.path}: ${e.message}`),
    );
    expect(lines.slice(2)).toContain('    payment.amount: EUR has 2 decimals; got 3');
  });

  it('reset forgets everything', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    await sb.admin.addFault({ method: 'GET', path_prefix: '/', kind: 'delay', count: 1, ms: 1 });
    const done = await cli(['reset']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('sandbox reset');
    expect(await sb.admin.transactions()).toEqual([]);
    expect(await sb.admin.faults()).toEqual([]);
    expect(await sb.admin.requests()).toEqual([]);
  });

  it('PAY_SANDBOX_URL names the sandbox when --url does not', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'via-env' }));
    const done = await cli(['transactions'], { url: false, env: { PAY_SANDBOX_URL: sb.url } });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('via-env');
  });
});

describe('pay-sandbox with no sandbox there', () => {
  it.each([
    [['transactions'], 'GET /_sandbox/transactions'],
    [['reset'], 'POST /_sandbox/reset'],
    [['status', 'payin', 'pi_1', 'executed'], 'POST /_sandbox/payins/pi_1/status'],
    [['payin', 'create'], 'POST /v2/merchants/payins/'],
  ])('%j: one line naming the URL, exit 1, at once', async (args, call) => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    const done = await cli([...args, '--url', url], { url: false });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(done.code).toBe(1);
    expect(done.stdout).toBe('');
    expect(done.stderr).toBe(`pay-sandbox: ${call}: cannot reach the sandbox at ${url} (connection refused)\n`);
  });
});

describe('pay-sandbox help and usage errors', () => {
  it.each([
    [['--help'], 'Usage: pay-sandbox [serve]'],
    [['help'], 'Usage: pay-sandbox [serve]'],
    [['serve', '--help'], 'Usage: pay-sandbox [serve]'],
    [['payin', 'create', '--help'], 'Usage: pay-sandbox payin create [options]'],
    [['payin', '--help'], 'Usage: pay-sandbox payin create [options]'],
    [['help', 'payin'], 'Usage: pay-sandbox payin create [options]'],
    [['payout', 'create', '-h'], 'Usage: pay-sandbox payout create [options]'],
    [['help', 'payout', 'create'], 'Usage: pay-sandbox payout create [options]'],
    [['status', '--help'], 'Usage: pay-sandbox status KIND ID STATUS'],
    [['advance', '--help'], 'Usage: pay-sandbox advance DURATION'],
    [['transactions', '--help'], 'Usage: pay-sandbox transactions'],
    [['deliveries', '--help'], 'Usage: pay-sandbox deliveries [--transaction ID]'],
    [['help', 'requests'], 'Usage: pay-sandbox requests [--limit N]'],
    [['reset', '--help'], 'Usage: pay-sandbox reset'],
  ])('%j prints its help (exit 0)', async (args, usage) => {
    const done = await cli(args, { url: false });
    expect(done.code).toBe(0);
    expect(done.stderr).toBe('');
    expect(done.stdout.startsWith(usage)).toBe(true);
    expect(done.stdout).toContain('--help');
  });

  it('the overall help lists every command and the server options', async () => {
    const { stdout } = await cli(['--help'], { url: false });
    for (const command of [
      'payin create',
      'payout create',
      'status KIND ID STATUS',
      'advance DURATION',
      'transactions',
      'deliveries',
      'requests',
      'reset',
      'help [COMMAND]',
    ]) {
      expect(stdout).toMatch(new RegExp(`\\n  ${command.replace(/[[\]]/g, '\\$&')} +\\S`));
    }
    expect(stdout).toContain('--merchant SPEC');
    expect(stdout).toContain('PAY_SANDBOX_URL');
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      'Exit codes: 0 done, 1 the sandbox refused or could not be reached, or could not start (its port in use, a state or seed file it cannot use), 2 a usage error.',
    );
  });

  it.each([
    [['frobnicate'], 'pay-sandbox: unknown command frobnicate', 'pay-sandbox'],
    [['m_1:sk_misplaced'], 'pay-sandbox: unknown command (', 'pay-sandbox'],
    [['payin'], 'pay-sandbox: payin needs a command: create', 'pay-sandbox payin create'],
    [['payout', 'delete'], 'pay-sandbox: unknown command: payout delete', 'pay-sandbox payout create'],
    [['help', 'nope'], 'pay-sandbox: no command nope', 'pay-sandbox'],
    [['transactions', '--bogus'], 'pay-sandbox: unknown option: --bogus', 'pay-sandbox transactions'],
    [['transactions', 'extra'], 'pay-sandbox: unexpected argument', 'pay-sandbox transactions'],
    [['reset', '--json'], 'pay-sandbox: unknown option: --json', 'pay-sandbox reset'],
    [['--port', 'eighty'], 'pay-sandbox: --port must be a number from 0 to 65535', 'pay-sandbox'],
    // A newcomer's typos: the nearest option or command is suggested.
    [['payin', 'create', '--amont', '3'], 'pay-sandbox: unknown option: --amont (did you mean --amount?) (see', 'pay-sandbox payin create'],
    [['--prot', '4011'], 'pay-sandbox: unknown option: --prot (did you mean --port?) (see', 'pay-sandbox'],
    [['transaction'], 'pay-sandbox: unknown command transaction (did you mean transactions?) (see', 'pay-sandbox'],
    [['deliveries', '--transactoin', 'pi_1'], 'unknown option: --transactoin (did you mean --transaction?)', 'pay-sandbox deliveries'],
    // A negative duration says why, rather than "unknown option: -5".
    [
      ['advance', '-5m'],
      'pay-sandbox: DURATION cannot be negative: time does not go backwards in the sandbox (pay-sandbox reset puts the clock back on wall time) (see',
      'pay-sandbox advance',
    ],
    [['advance', '--json', '-90'], 'pay-sandbox: DURATION cannot be negative', 'pay-sandbox advance'],
  ])('%j: exit 2, one line saying what is wrong and which --help to read', async (args, message, command) => {
    const done = await cli(args, { url: false, secrets: ['sk_misplaced'] });
    expect(usageError(done, command)).toContain(message);
  });
});

describe('pay-sandbox serve', () => {
  let server: ReturnType<typeof run> | undefined;
  afterAll(() => void server?.child.kill('SIGKILL'));

  it('on a port other than 4010, the banner prints the --url (and PAY_SANDBOX_URL) the commands need, and the --merchant to sign with', async () => {
    const started = run(['--port', '0', '--quiet', '--merchant', M1_SPEC], { PAY_SANDBOX_MERCHANTS: '' });
    try {
      const banner = await started.waitFor('Press Ctrl-C');
      const url = field(banner, 'base URL');
      expect(banner).toContain(`\n  commands        pay-sandbox COMMAND --url ${url}  (or export PAY_SANDBOX_URL=${url})\n`);
      expect(banner).toContain(
        `\n                  pay-sandbox payin create --merchant ${M1.id}:SECRET  (or PAY_SANDBOX_MERCHANT=${M1.id}:SECRET)\n`,
      );
      expect(banner).not.toContain(M1.secret);
      // Done as the banner says: the commands reach this sandbox and sign for it.
      const env = { PAY_SANDBOX_URL: url, PAY_SANDBOX_MERCHANT: M1_SPEC };
      const created = await cli(['payin', 'create', '--reference', 'from-banner'], { url: false, env });
      expect(created.code).toBe(0);
      const listed = await cli(['transactions'], { url: false, env: { PAY_SANDBOX_URL: url } });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('from-banner');
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  });

  it('is the server start; the commands drive the sandbox it started', async () => {
    server = run(['serve', '--port', '0', '--quiet'], { PAY_SANDBOX_MERCHANTS: '' });
    const url = field(await server.waitFor('Press Ctrl-C'), 'base URL');
    const created = await cli(['payin', 'create', '--url', url, '--reference', 'served'], { url: false });
    expect(created.code).toBe(0);
    const listed = await cli(['transactions', '--url', url], { url: false });
    expect(listed.stdout).toContain('served');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
