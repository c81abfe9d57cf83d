// Client mode over real HTTP on loopback: the reference adapter (@pay/client) and the Python
// adapter's standard-library SDK pass every case (SDKs that make one mistake each are in
// client-broken.test.ts); a version 1 adapter without the client commands is skipped, never
// failed or passed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, COMMAND_LIMIT_MS } from '../src/http/client/cases.js';
import { CLIENT_COMMANDS, COMMANDS } from '../src/types.js';
import { broken, brokenClient, brokenClientJs, brokenPython, pkgDir, python, runCli, runCommand, tmp, type JsonReport } from './helpers.js';
import { expectNothingSecret, idOf, RUN_LIMIT_MS, report } from './client-runs.js';

const dir = tmp();

// A client run is waiting, mostly (about 15 s, under 1 s of it CPU: the exactly-once cases wait
// out tolerance and settle windows), so the runs here go side by side.
describe.concurrent('pay-conformance client against SDKs that are right', () => {
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

describe('pay-conformance client runs two copies of the child side by side', () => {
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
describe('an SDK whose clock is hours off', () => {
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
