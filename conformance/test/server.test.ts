// Server mode against services on loopback: a correct one (test/fixtures/service.mjs) passes every
// case; the same service with one mistake each fails the case that reveals it, and only cases it
// can explain.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript fixture
import { MISTAKES, startService } from './fixtures/service.mjs';
import { startEmbeddedSandbox } from '../src/http/embedded-sandbox.js';
import { pool, runCli, tmp, type JsonReport } from './helpers.js';
import { runInProcess } from './in-process.js';

const MERCHANT = 'm_server';
const SECRET = 'sk_test_server_secret';
const dir = tmp();

interface Service {
  baseUrl: string;
  cardProxyUrl: string;
  close(): Promise<void>;
}
const started: Service[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

async function service(mistake: string): Promise<Service> {
  const s = (await startService({ merchantId: MERCHANT, secret: SECRET, mistake })) as Service;
  started.push(s);
  return s;
}

/** `server` against service `s`, as every test here runs it (`extra` after). */
const serverArgs = (s: Service, extra: string[] = []) => [
  'server',
  '--base-url',
  s.baseUrl,
  '--card-proxy-url',
  s.cardProxyUrl,
  '--merchant-id',
  MERCHANT,
  '--secret',
  SECRET,
  '--timeout-ms',
  '10000',
  ...extra,
];
const server = (s: Service, extra: string[] = []) => runCli(serverArgs(s, extra));

/**
 * Exactly the cases each mistake fails (a refused call accepted, a refusal that stored something, a
 * correct call refused): the mistake is caught, and nothing it does not explain is blamed on it.
 */
const ALL_REFUSED_CREATES = [
  'forged-signature',
  'wrong-secret',
  'tampered-body',
  'body-reserialised',
  'expired',
  'future-dated',
  'fractional-timestamp',
  'missing-signature',
  'slash-toggled',
  'other-host',
  'other-scheme',
  'wrong-merchant',
  'method-confused',
  'payout-forged',
  'legacy-expired',
];
const ALL_REFUSED_LOOKUPS = [
  'lookup-forged',
  'lookup-query-dropped',
  'lookup-slash-toggled',
  'lookup-method-confused',
  'lookup-wrong-merchant',
  'lookup-expired',
];
const refuses = (ids: string[]) => ids.map((id) => `server_refuses/${id}`);
const CAUGHT: Record<string, string[]> = {
  skips_verification: refuses([...ALL_REFUSED_CREATES, ...ALL_REFUSED_LOOKUPS]),
  checks_format_only: refuses([
    'forged-signature',
    'wrong-secret',
    'tampered-body',
    'body-reserialised',
    'slash-toggled',
    'other-host',
    'other-scheme',
    'method-confused',
    'payout-forged',
    'lookup-forged',
    'lookup-query-dropped',
    'lookup-slash-toggled',
    'lookup-method-confused',
  ]),
  ignores_expiry: refuses(['expired', 'future-dated', 'legacy-expired', 'lookup-expired']),
  only_checks_past: refuses(['future-dated']),
  ignores_trailing_slash: refuses(['slash-toggled', 'lookup-slash-toggled']),
  ignores_query: refuses(['lookup-query-dropped']),
  ignores_merchant: refuses(['wrong-merchant', 'lookup-wrong-merchant']),
  method_insensitive: refuses(['method-confused', 'lookup-method-confused']),
  stores_before_verifying: refuses(ALL_REFUSED_CREATES),
  reserialises_body: ['server_accepts/create-payin-v2-pretty', 'server_accepts/create-payout-v2'],
  decodes_query: ['server_accepts/get-payin-by-reference', 'server_accepts/get-payout-by-reference'],
  lookup_unsigned: refuses(ALL_REFUSED_LOOKUPS),
  card_push_unchecked: refuses([
    'card-push-forged',
    'card-push-other-payin',
    'card-push-expired',
    'card-push-method-included',
    'card-push-full-signature',
  ]),
  simplified_includes_method: ['server_accepts/card-push', 'server_refuses/card-push-method-included'],
  datetimes_with_a_space: [
    'create-payin-v2-minified',
    'create-payin-v2-pretty',
    'create-payin-v1-legacy',
    'create-payout-v2',
    'get-payin-by-id',
    'get-payin-by-reference',
    'get-payout-by-id',
    'get-payout-by-reference',
  ].map((id) => `server_accepts/${id}`),
};

describe('server mode', () => {
  it('passes a correct service, and reports in every format', async () => {
    const s = await service('none');
    const json = join(dir, 'ok.json');
    const junit = join(dir, 'ok.xml');
    const run = await server(s, ['--json', json, '--junit', junit, '--tap']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport & { mode: string };
    expect(report.mode).toBe('server');
    expect(report.summary.failed).toBe(0);
    const ids = report.cases.map((c) => c.id);
    for (const id of [
      'server_accepts/create-payin-v2-minified',
      'server_accepts/create-payin-v2-pretty',
      'server_accepts/create-payin-v1-legacy',
      'server_accepts/create-payout-v2',
      'server_accepts/get-payin-by-id',
      'server_accepts/get-payin-by-reference',
      'server_accepts/get-payout-by-id',
      'server_accepts/get-payout-by-reference',
      'server_accepts/card-push',
      ...new Set(Object.values(CAUGHT).flat()),
      'server_refuses/other-host',
      'server_refuses/other-scheme',
    ])
      expect(ids).toContain(id);
    expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
    // The secret never appears in any report.
    expect(readFileSync(json, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite name="server_refuses"');
    expect(readFileSync(junit, 'utf8')).not.toContain(SECRET);
    expect(run.stdout.split('\n')[0]).toBe('TAP version 13');
    expect(run.stdout).toMatch(new RegExp(`^1\\.\\.${report.summary.total}$`, 'm'));
    expect(run.stderr).toMatch(/^PASS \d+ passed, 0 failed/m);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain('4242424242424242');
  });

  it('passes the real @pay/sandbox, every case', async () => {
    const sandbox = await startEmbeddedSandbox();
    try {
      const json = join(dir, 'sandbox.json');
      const run = await runCli(
        [
          'server',
          '--base-url',
          sandbox.baseUrl,
          '--card-proxy-url',
          sandbox.cardProxyUrl,
          '--merchant-id',
          sandbox.merchantId,
          '--json',
          json,
        ],
        {
          env: { ...process.env, PAY_SECRET: sandbox.secret },
        },
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
      expect(report.cases.length).toBeGreaterThan(30);
      expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
      // The sandbox refuses with the statuses its design gives (401 for signatures and time).
      const refusals = report.cases
        .filter((c) => c.category === 'server_refuses')
        .map((c) => (c.got as { http_status: number }).http_status);
      expect(new Set(refusals)).toEqual(new Set([401]));
      expect(readFileSync(json, 'utf8')).not.toContain(sandbox.secret);
    } finally {
      await sandbox.close();
    }
  });

  it('lists a broken service for every mistake in its fixture', () => {
    expect(Object.keys(CAUGHT).sort()).toEqual([...MISTAKES].sort());
  });

  const results = new Map<string, JsonReport>();
  beforeAll(async () => {
    // In this process (runInProcess), each broken service a real server on loopback; the tests
    // around these run the CLI itself.
    await pool(Object.keys(CAUGHT), 4, async (mistake) => {
      const s = await service(mistake);
      const { run, report } = await runInProcess(serverArgs(s));
      expect(run.code, `${mistake}: ${run.stdout}`).toBe(1);
      results.set(mistake, report);
    });
  }, 120_000);

  it.each(Object.entries(CAUGHT))('catches a service that %s, and only where it shows', (mistake, ids) => {
    const report = results.get(mistake)!;
    const failing = report.cases.filter((c) => c.status === 'fail');
    expect(failing.map((c) => c.id).sort()).toEqual([...ids].sort());
    for (const c of failing)
      expect(c.diagnosis).toMatch(/must (refuse it|be accepted)|refused call must change nothing|not the body the interface describes/);
  });

  it('names each field of an answer that is not the body the interface describes', () => {
    const c = results.get('datetimes_with_a_space')!.cases.find((x) => x.id === 'server_accepts/get-payin-by-id')!;
    expect(c.diagnosis).toMatch(/^accepted with HTTP 200, but the answer is not the body the interface describes: /);
    for (const field of ['created_at', 'updated_at', 'expires_at']) expect(c.diagnosis).toContain(`${field} must be an ISO 8601 datetime`);
  });

  it('cannot check what a refused create left behind when lookups by reference do not work, and says so', () => {
    const report = results.get('decodes_query')!;
    const c = report.cases.find((x) => x.id === 'server_refuses/forged-signature')!;
    expect(c.status).toBe('error');
    expect(c.diagnosis).toMatch(/could not be checked: the lookup by reference_id does not work/);
  });

  it('says so when a refused create was stored anyway', () => {
    const c = results.get('stores_before_verifying')!.cases.find((x) => x.id === 'server_refuses/forged-signature')!;
    expect(c.diagnosis).toMatch(
      /^refused with HTTP 401, but a lookup by its reference_id finds it \(HTTP 200\): the refused create was stored/,
    );
  });

  it('says so when a refused card push changed the payin', () => {
    const c = results.get('card_push_unchecked')!.cases.find((x) => x.id === 'server_refuses/card-push-forged')!;
    expect(c.diagnosis).toMatch(/accepted it with HTTP 200/);
  });

  it('reports a service that does not answer as errors, and refuses bad arguments with exit 2', async () => {
    const run = await runCli([
      'server',
      '--base-url',
      'http://127.0.0.1:9',
      '--card-proxy-url',
      'http://127.0.0.1:9/card-proxy',
      '--merchant-id',
      'm',
      '--secret',
      's',
      '--timeout-ms',
      '500',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/the request failed/);
    expect(
      (await runCli(['server', '--base-url', 'ftp://x', '--card-proxy-url', 'http://x/', '--merchant-id', 'm', '--secret', 's'])).code,
    ).toBe(2);
    expect((await runCli(['server', '--base-url', 'http://x'])).code).toBe(2);
  });

  it('never repeats the secret or the card number, even when a service echoes them', async () => {
    // A service that refuses every call and puts the secret and the last card number it saw in its error.
    const { createServer } = await import('node:http');
    let pan = '';
    const echo = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        pan = /"pan":"(\d+)"/.exec(body)?.[1] ?? pan;
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'nope', message: `secret ${SECRET} card ${pan || '4242424242424242'}` } }));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
      const json = join(dir, 'echo.json');
      const run = await runCli([
        'server',
        '--base-url',
        base,
        '--card-proxy-url',
        `${base}/card-proxy`,
        '--merchant-id',
        MERCHANT,
        '--secret',
        SECRET,
        '--json',
        json,
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('‹secret›');
      for (const text of [run.stdout, run.stderr, readFileSync(json, 'utf8')]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('4242424242424242');
      }
    } finally {
      echo.closeAllConnections();
      await new Promise((r) => echo.close(r));
    }
  });

  it('takes the secret from PAY_SECRET', async () => {
    const s = await service('none');
    const run = await runCli(['server', '--base-url', s.baseUrl, '--card-proxy-url', s.cardProxyUrl, '--merchant-id', MERCHANT], {
      env: { ...process.env, PAY_SECRET: SECRET },
    });
    expect(run.code, run.stdout).toBe(0);
  });
});
