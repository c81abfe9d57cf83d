// Client mode over real HTTP on loopback: the reference adapter (@pay/client) and the Python
// adapter's standard-library SDK pass every case (SDKs that make one mistake each are in
// client-broken.test.ts), and results/ is what scripts/results.mjs writes from those same two
// runs; a version 1 adapter without the client commands is skipped, never failed or passed.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, COMMAND_LIMIT_MS } from '../src/http/client/cases.js';
import { CLIENT_COMMANDS, COMMANDS } from '../src/types.js';
import { broken, brokenClient, brokenClientJs, brokenPython, pkgDir, python, runCli, runCommand, tmp, type JsonReport } from './helpers.js';
import { expectNothingSecret, idOf, RUN_LIMIT_MS, report } from './client-runs.js';

const dir = tmp();
/** The runs' report directories, as scripts/results.mjs names them (its --runs). */
const runs = join(dir, 'runs');
const json = join(dir, 'ref.json');
const junit = join(dir, 'ref.xml');
const pythonJson = join(dir, 'python.json');
/** The two runs of the SDKs that are right, each made once: their tests and results/ share them. */
const reference = runCli(['client', '--json', json, '--junit', junit, '--tap', '--report', join(runs, 'reference-client')], {
  timeoutMs: RUN_LIMIT_MS,
});
const pythonRun = runCli(['client', '--impl', python, '--json', pythonJson, '--report', join(runs, 'python-client')], {
  timeoutMs: RUN_LIMIT_MS,
});
// Awaited by the tests below; a failure is theirs (this keeps it from being an unhandled rejection first).
for (const run of [reference, pythonRun]) run.catch(() => {});

// A client run is waiting, mostly (about 15 s, under 1 s of it CPU: the exactly-once cases wait
// out tolerance and settle windows), so every describe here is concurrent: the runs go side by side.
describe.concurrent('pay-conformance client against SDKs that are right', () => {
  it(
    'passes the reference adapter on @pay/client, with JSON, JUnit and TAP reports',
    async () => {
      const run = await reference;
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
      const run = await pythonRun;
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const r = report(pythonJson);
      expect(r.summary.passed).toBe(CLIENT_CASES.length);
      // The faults were really there: the lost creates were looked up, not answered from nowhere.
      const requests = (id: string) => (r.cases.find((c) => c.id === id)!.got as { requests: number }).requests;
      expect(requests('client_exactly_once/lost-after-commit')).toBeGreaterThan(1);
      expect(requests('client_exactly_once/dropped-before-commit')).toBeGreaterThan(2);
      expectNothingSecret(run.stdout + readFileSync(pythonJson, 'utf8'), 'python');
    },
    RUN_LIMIT_MS,
  );

  it(
    'passes the JavaScript SDK on node:http (test/fixtures/broken-client.mjs without a mistake)',
    async () => {
      const json = join(dir, 'javascript.json');
      const run = await runCli(['client', '--impl', brokenClientJs('none'), '--json', json], { timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(report(json).summary.passed).toBe(CLIENT_CASES.length);
    },
    RUN_LIMIT_MS,
  );
});

describe.concurrent('pay-conformance client runs two copies of the child side by side', () => {
  const copies = (file: string) => new Set(readFileSync(file, 'utf8').trim().split('\n')).size;
  const ids = ['--id', 'client_bytes/*,client_answers/*'];

  it(
    'each against a service of its own, every case passed',
    async () => {
      const [json, file] = [join(dir, 'two-copies.json'), join(dir, 'two-copies.pids')];
      const run = await runCli(['client', '--impl', `${brokenClientJs('none')} --copies ${file}`, ...ids, '--json', json], {
        timeoutMs: RUN_LIMIT_MS,
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(copies(file)).toBe(2);
      expect(report(json).summary.failed).toBe(0);
      expect(report(json).cases.map((c) => c.id)).toEqual(
        CLIENT_CASES.filter((c) => c.category === 'client_bytes' || c.category === 'client_answers').map(idOf),
      );
    },
    RUN_LIMIT_MS,
  );

  it(
    'and every case in the one copy that started when a second cannot start beside it, no restart spent',
    async () => {
      const [json, file, lock] = [join(dir, 'one-copy.json'), join(dir, 'one-copy.pids'), join(dir, 'one-copy.lock')];
      const impl = `${brokenClientJs('none')} --copies ${file} --one-copy ${lock}`;
      const run = await runCli(['client', '--impl', impl, ...ids, '--json', json], { timeoutMs: RUN_LIMIT_MS });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(copies(file)).toBe(2); // the second copy started, found the lock, and left
      const r = report(json) as JsonReport & { restarts: number };
      expect(r.summary.failed).toBe(0);
      expect(r.summary.passed).toBe(r.cases.length);
      expect(r.restarts).toBe(0);
    },
    RUN_LIMIT_MS,
  );
});

/** A broken SDK, the cases it must fail (and only those), and the names its failures may carry. */
describe.concurrent('an SDK whose clock is hours off', () => {
  it.each(['JavaScript', 'Python'] as const)(
    "%s: ends every case within the case's own limit when the SDK's x-timestamp is hours ahead, and names the time zone",
    async (language) => {
      // The cases that hold a request or time a rule from its x-timestamp, in the order they run:
      // held until that time plus the tolerance, settle-window would last 3 h 30 min.
      const ids = [
        'client_exactly_once/late-commit',
        'client_exactly_once/settle-window',
        'client_exactly_once/html-404-after-lost-answer',
      ];
      const json = join(dir, `skewed-${language}.json`);
      const impl = language === 'JavaScript' ? brokenClientJs('timestamp_time_zone') : brokenClient('timestamp_time_zone');
      const run = await runCli(['client', '--impl', impl, ...ids.flatMap((id) => ['--id', id]), '--json', json], {
        timeoutMs: RUN_LIMIT_MS,
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const r = report(json);
      expect(r.cases.map((c) => [c.id, c.status, c.mistake])).toEqual(ids.map((id) => [id, 'fail', 'timestamp_time_zone']));
      // A bound for a hang, not a speed claim: no case outlives the limit its command has.
      for (const c of r.cases) expect(c.duration_ms, c.id).toBeLessThan(COMMAND_LIMIT_MS);
    },
    RUN_LIMIT_MS,
  );
});

describe.concurrent('version 1 adapters without the client commands', () => {
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

// results/ is the repository's own conformance table (the reference adapter and the Python example
// SDK in client mode and in run mode), written by scripts/results.mjs and never by hand. This runs
// the script again into a directory of its own, with the two client-mode runs above (its --runs),
// and requires the committed copy to be the same, file for file and byte for byte: a change that
// moves a verdict, the table's layout or a badge fails here until `pnpm conformance-results` is run
// and its output committed.
describe.concurrent('results/', () => {
  const committed = join(pkgDir, 'results');
  /** Every file under `at`, as paths relative to it, sorted. */
  const filesUnder = (at: string): string[] =>
    readdirSync(at, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(at, join(e.parentPath, e.name)))
      .sort();

  it('is what scripts/results.mjs writes today (run `pnpm conformance-results` and commit it when this fails)', async () => {
    for (const run of await Promise.all([reference, pythonRun])) expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = join(dir, 'results');
    const run = await promisify(execFile)(process.execPath, [join(pkgDir, 'scripts', 'results.mjs'), '--out', out, '--runs', runs], {
      cwd: pkgDir,
      timeout: 170_000,
    });
    for (const name of ['reference-client', 'python-client', 'reference-run', 'python-run']) {
      expect(run.stderr).toMatch(new RegExp(`${name}: every case passed`));
    }
    expect(filesUnder(out)).toEqual(['README.md', 'badges/pay-python-example.svg', 'badges/pay-sign-pay-client.svg', 'index.html']);
    expect(filesUnder(committed)).toEqual(filesUnder(out));
    for (const file of filesUnder(out)) {
      expect(readFileSync(join(committed, file), 'utf8'), `results/${file} is out of date`).toBe(readFileSync(join(out, file), 'utf8'));
    }
    // Nothing in it that changes from run to run, or from machine to machine.
    const all = filesUnder(out)
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n');
    expect(all).not.toMatch(
      /127\.0\.0\.1|localhost|\/tmp\/|pay-conformance-results-|\d{4}-\d\d-\d\dT|\b\d+ ms\b|Python 3|Node\.js|0\.0\.0/,
    );
  }, 180_000);
});
