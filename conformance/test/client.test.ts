// Client mode over real HTTP on loopback: the reference adapter (@pay/client) and the Python
// adapter's standard-library SDK pass every case; SDKs that make one mistake each
// (test/fixtures/broken_client.py) fail exactly the cases that reveal it, with the mistake named;
// a version 1 adapter without the client commands is skipped, never failed or passed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CASES, type ClientCase } from '../src/http/client/cases.js';
import { CLIENT_COMMANDS, COMMANDS } from '../src/types.js';
import {
  broken,
  brokenClient,
  brokenPython,
  pkgDir,
  pool,
  python,
  runCli,
  runCommand,
  tmp,
  type CliRun,
  type JsonReport,
} from './helpers.js';

const dir = tmp();
const report = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport & { mode: string };
const idOf = (c: ClientCase) => `${c.category}/${c.name}`;
/** Generous bounds for hangs, not performance claims: a busy two-core machine runs these in parallel. */
const RUN_LIMIT_MS = 170_000;

/** What the runner prints or writes must never show the run's secret or the card pushed. */
function expectNothingSecret(text: string, name: string): void {
  expect(text.length, name).toBeGreaterThan(100);
  expect(text, name).not.toMatch(/sk_test_[0-9a-f]{8}/);
  expect(text, name).not.toContain('4242424242424242');
}

describe('pay-conformance client against SDKs that are right', () => {
  it(
    'passes the reference adapter on @pay/client, with JSON, JUnit and TAP reports',
    async () => {
      const json = join(dir, 'ref.json');
      const junit = join(dir, 'ref.xml');
      const run = await runCli(['client', '--json', json, '--junit', junit, '--tap'], { timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const r = report(json);
      expect(r.mode).toBe('client');
      expect(r.summary).toMatchObject({ total: CLIENT_CASES.length, passed: CLIENT_CASES.length, failed: 0, skipped: 0 });
      expect(r.categories.map((c) => c.category)).toEqual(['client_bytes', 'client_answers', 'client_errors', 'client_exactly_once']);
      expect(r.implementation.name).toContain('@pay/client');
      expect(run.stdout).toMatch(new RegExp(`^1\\.\\.${CLIENT_CASES.length}$`, 'm'));
      expect(readFileSync(junit, 'utf8')).toContain('<testsuite name="client_exactly_once"');
      for (const [name, text] of Object.entries({
        json: readFileSync(json, 'utf8'),
        junit: readFileSync(junit, 'utf8'),
        tap: run.stdout,
        human: run.stderr,
      })) {
        expectNothingSecret(text, name);
      }
    },
    RUN_LIMIT_MS,
  );

  it(
    "passes the Python adapter's standard-library SDK",
    async () => {
      const json = join(dir, 'python.json');
      const run = await runCli(['client', '--impl', python, '--json', json], { timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const r = report(json);
      expect(r.summary.passed).toBe(CLIENT_CASES.length);
      // The faults were really there: the lost creates were looked up, not answered from nowhere.
      const requests = (id: string) => (r.cases.find((c) => c.id === id)!.got as { requests: number }).requests;
      expect(requests('client_exactly_once/lost-after-commit')).toBeGreaterThan(1);
      expect(requests('client_exactly_once/dropped-before-commit')).toBeGreaterThan(2);
      expectNothingSecret(run.stdout + readFileSync(json, 'utf8'), 'python');
    },
    RUN_LIMIT_MS,
  );
});

/** A broken SDK, the cases it must fail (and only those), and the names its failures may carry. */
interface Variant {
  mistake: string;
  fails: (c: ClientCase) => boolean;
  named: string[];
  /** The SDK also logs every request it is given to stderr (`--log-requests`). */
  logs?: boolean;
}

const exactlyOnce = (c: ClientCase) => c.category === 'client_exactly_once';
const isCreate = (c: ClientCase) => c.command.startsWith('client_create_');
const byId = (c: ClientCase) => c.command === 'client_get_payin' || c.command === 'client_get_payout';

const VARIANTS: Variant[] = [
  // After a lost answer it sends again at once. The 409 case gets no lost answer.
  { mistake: 'blind_resend', fails: (c) => exactlyOnce(c) && c.name !== 'reference-in-use', named: ['blind_resend'] },
  // After a lost answer it reports the error as the create's failure.
  {
    mistake: 'error_as_not_created',
    fails: (c) => exactlyOnce(c) && c.name !== 'reference-in-use',
    named: ['reported_failed_but_exists', 'failed_without_proof'],
  },
  // Signs json.dumps(json.loads(body)), sends the bytes it serialised first: every create.
  { mistake: 'body_reserialised', fails: isCreate, named: ['body_reserialised'] },
  // Strips the trailing slash after signing: every URL that has one (creates, lookups by reference,
  // the push). It also logs every request to stderr, secret and card included (see below).
  { mistake: 'slash_dropped_on_wire', fails: (c) => !byId(c), named: ['slash_dropped_on_wire'], logs: true },
  // Signs the reference unencoded: every lookup by reference, the reconciliations' included.
  {
    mistake: 'query_not_encoded_as_signed',
    fails: (c) => c.command.endsWith('_by_reference') || exactlyOnce(c),
    named: ['query_not_encoded_as_signed'],
  },
  // urllib.request follows a GET's redirect (a POST's 307 it refuses on its own).
  { mistake: 'redirect_followed', fails: (c) => c.name === 'redirect-lookup', named: ['redirect_followed'] },
];

describe('pay-conformance client against broken SDKs: each caught, exactly where, with the mistake named', () => {
  const runs = new Map<string, { run: CliRun; report: JsonReport }>();

  beforeAll(async () => {
    await pool(VARIANTS, 3, async (v) => {
      const json = join(dir, `client-${v.mistake}.json`);
      const impl = v.logs ? `${brokenClient(v.mistake)} --log-requests` : brokenClient(v.mistake);
      const run = await runCli(['client', '--impl', impl, '--json', json], { timeoutMs: RUN_LIMIT_MS });
      runs.set(v.mistake, { run, report: report(json) });
    });
  }, 3 * RUN_LIMIT_MS);

  it.each(VARIANTS)('catches $mistake', (v) => {
    const { run, report: r } = runs.get(v.mistake)!;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const failing = r.cases.filter((c) => c.status !== 'pass').map((c) => c.id);
    expect(failing).toEqual(CLIENT_CASES.filter(v.fails).map(idOf));
    const misnamed = r.cases.filter((c) => c.status !== 'pass' && !v.named.includes(c.mistake ?? ''));
    expect(misnamed.map((c) => `${c.id}: ${c.status} ${c.mistake}: ${c.diagnosis}`)).toEqual([]);
    expect(run.stdout).toContain(v.named[0]);
  });

  it('shows what a failing SDK wrote to stderr, without the secret or the card it logged', () => {
    const { run, report: r } = runs.get('slash_dropped_on_wire')!;
    const shown = r.cases.filter((c) => c.stderr).map((c) => c.stderr!);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.join('\n')).toContain('request: {'); // the SDK's log is there...
    expect(shown.join('\n')).toContain('‹secret›'); // ...with what it logged of the secret masked
    expect(shown.join('\n')).toContain('‹card›');
    expectNothingSecret(run.stdout + run.stderr + JSON.stringify(r), 'a logging SDK');
  });

  it("says what happened in the SDK author's terms", () => {
    const said = (mistake: string, id: string) => runs.get(mistake)!.report.cases.find((c) => c.id === id)!.diagnosis ?? '';
    expect(said('blind_resend', 'client_exactly_once/lost-after-commit')).toMatch(/^re-sent a create blindly after a lost answer/);
    expect(said('body_reserialised', 'client_bytes/create-payin-v2')).toMatch(
      /^signed a different body than it sent: .*Python's json\.dumps/,
    );
    expect(said('slash_dropped_on_wire', 'client_bytes/create-payin-v2')).toMatch(/^dropped the trailing slash on the wire/);
    expect(said('query_not_encoded_as_signed', 'client_bytes/get-payin-by-reference')).toMatch(
      /^the query on the wire is not encoded as signed/,
    );
    expect(said('redirect_followed', 'client_errors/redirect-lookup')).toMatch(/^followed a redirect/);
    expect(said('error_as_not_created', 'client_exactly_once/lost-after-commit')).toMatch(
      /^reported a create as failed .* although it exists/,
    );
  });
});

describe('version 1 adapters without the client commands', () => {
  it.each([
    ['JavaScript', broken('')],
    ['Python', brokenPython('')],
  ])('%s: every client case is skipped, never passed; --strict fails the run', async (_name, impl) => {
    const json = join(dir, `v1-${_name}.json`);
    const run = await runCli(['client', '--impl', impl, '--json', json], { timeoutMs: RUN_LIMIT_MS });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const r = report(json);
    expect(r.summary).toMatchObject({ total: CLIENT_CASES.length, skipped: CLIENT_CASES.length, passed: 0 });
    expect(r.cases[0]!.diagnosis).toMatch(/does not declare the client_create_payin capability/);
    const strict = await runCli(['client', '--impl', impl, '--strict'], { timeoutMs: RUN_LIMIT_MS });
    expect(strict.code).toBe(1);
  });

  it('the Python adapter still answers hello with protocol 1: the client commands are capabilities added to it', async () => {
    const run = await runCommand('python3', [join(pkgDir, 'adapters', 'python', 'adapter.py')], {
      input: '{"cmd":"hello","protocol":1}\n{"cmd":"bye"}\n',
    });
    const hello = JSON.parse(run.stdout.split('\n')[0]!) as { protocol: number; capabilities: string[] };
    expect(hello.protocol).toBe(1);
    expect(hello.capabilities).toEqual([...COMMANDS, ...CLIENT_COMMANDS]);
  });
});
