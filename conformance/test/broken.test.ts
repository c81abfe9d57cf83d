// Proof that the suite catches broken implementations and names their mistakes: one mistake per
// variant of a correct adapter, in JavaScript (test/fixtures/broken-adapter.mjs, node:crypto
// only) and in Python (test/fixtures/broken_adapter.py, standard library only), and children that
// misbehave as processes. The variants run in this process (runInProcess), each adapter a real
// child; the children that misbehave run under the real CLI, which must end whatever they do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { broken, brokenPython, fixtureVectors, goldenVectors, pkgDir, pool, runCli, tmp, type CliRun, type JsonReport } from './helpers.js';
import { runInProcess, type InProcessRun } from './in-process.js';

const dir = tmp();
const report = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport;

interface Variant {
  /** the fixture's --mistake */
  mistake: string;
  /** the name the runner must give it */
  named: string;
  /** extra arguments for the fixture */
  args?: string;
  /** other names it may get on some cases (a variant that makes several mistakes) */
  also?: string[];
}

/** The rows of the table between <!-- name --> markers in README.md: first column → second. */
function readmeTable(name: string): Map<string, string> {
  const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf(`<!-- ${name} -->`), readme.indexOf(`<!-- /${name} -->`));
  const rows = [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((m) => [m[1]!, m[2]!.trim()]));
}

/** JavaScript variants, one per named mistake; README.md's table lists each with the categories it fails. */
const JS: Variant[] = [
  ...[
    'url_trailing_slash_dropped',
    'url_trailing_slash_added',
    'url_path_only',
    'url_query_dropped',
    'body_reserialised',
    'body_signed_for_get',
    'uppercase_hex',
    'method_lowercased',
    'secret_latin1',
    'body_latin1',
    'simplified_method_included',
    'simplified_fields_reordered',
    'skips_verification',
    'ignores_expiry',
    'only_checks_past',
    'tolerance_exclusive',
    'ignores_merchant',
    'compares_prefix',
    'timestamp_fraction_accepted',
  ].map((m) => ({ mistake: m, named: m })),
  // Accepts any form of the URL: on the slash cases, a verifier that ignores the trailing slash.
  { mistake: 'ignores_url', named: 'url_slash_insensitive', also: ['url_query_insensitive', 'url_scheme_insensitive'] },
];

describe('broken JavaScript adapters: each mistake caught and named', () => {
  const runs = new Map<string, InProcessRun>();
  const table = readmeTable('broken-variants');

  beforeAll(async () => {
    // Four runs at a time on a two-core machine that runs every package's tests at once (about a
    // second each when idle); all of them get 300 s.
    await pool(JS, 4, async (v) => {
      runs.set(v.mistake, await runInProcess(['run', '--vectors', goldenVectors, '--impl', broken(`--mistake ${v.mistake}`)]));
    });
  }, 300_000);

  it('the unbroken adapter passes everything (the variants differ from it by one mistake)', async () => {
    const both = await Promise.all([
      runInProcess(['run', '--vectors', fixtureVectors, '--impl', broken('')]),
      runInProcess(['run', '--vectors', goldenVectors, '--impl', broken('')]),
    ]);
    for (const { run } of both) expect(run.code, run.stdout).toBe(0);
  });

  it('README.md lists every variant, with the categories it fails', () => {
    expect([...table.keys()].sort()).toEqual(JS.map((v) => v.mistake).sort());
    for (const v of JS) {
      const failing = runs
        .get(v.mistake)!
        .report.categories.filter((c) => c.failed > 0)
        .map((c) => c.category)
        .sort();
      expect(table.get(v.mistake)!.split(/,\s*/).sort(), v.mistake).toEqual(failing);
    }
  });

  it.each(JS)('catches $mistake and names it "$named"', (v) => {
    const { run, report: r } = runs.get(v.mistake)!;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(r.exit_code).toBe(1);
    const failing = r.cases.filter((c) => c.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.some((c) => c.mistake === v.named)).toBe(true);
    // Only the right name, when there is one; never a wrong one.
    const names = [v.named, ...(v.also ?? [])];
    const misnamed = failing.filter(
      (c) =>
        (c.mistake !== undefined && !names.includes(c.mistake)) ||
        (c.mistake_candidates && !c.mistake_candidates.some((n) => names.includes(n))),
    );
    expect(misnamed.map((c) => `${c.id}: ${c.mistake ?? c.mistake_candidates}`)).toEqual([]);
    expect(run.stdout).toContain(v.named === 'uppercase_hex' ? 'uppercase hex' : `mistake "${v.named}"`);
    // A verification case keeps the vector's description and flags beside the name.
    const verify = failing.find((c) => c.category.startsWith('verify_') && c.mistake === v.named);
    if (verify) expect(verify.diagnosis).toMatch(/\[flags: /);
  });

  it('reports a right verdict with the wrong reason as a reason mismatch, apart from wrong verdicts', () => {
    const { report: r, run } = runs.get('ignores_expiry')!;
    const mismatched = r.cases.filter((c) => c.reason_mismatch);
    expect(mismatched.length).toBeGreaterThan(0);
    expect(mismatched.every((c) => c.status === 'fail' && /reason mismatch/.test(c.diagnosis ?? ''))).toBe(true);
    expect(r.cases.some((c) => c.status === 'fail' && !c.reason_mismatch)).toBe(true);
    expect(run.stdout).toMatch(/\d+ reason mismatch\(es\)/);
  });

  it('does not credit an acceptable verdict the other answers show was not chosen', () => {
    // Accepting everything also accepts the uppercase signature: no credit for it.
    const everything = runs.get('skips_verification')!.report.cases.find((c) => c.id === 'verify_webhook/uppercase-signature')!;
    expect(everything.status).toBe('fail');
    expect(everything.diagnosis).toMatch(/not a deliberate one.*bad-signature-last-digit/);
    // A verifier that compares a prefix accepts it too, but fails the one-digit-off case.
    expect(runs.get('compares_prefix')!.report.cases.find((c) => c.id === 'verify_webhook/uppercase-signature')!.status).toBe('fail');
    // A verifier whose only mistake is about timestamps chose deliberately.
    const deliberate = runs.get('ignores_expiry')!.report.cases.find((c) => c.id === 'verify_webhook/uppercase-signature')!;
    expect(deliberate.status).toBe('pass');
    expect(deliberate.chosen_verdict).toBe('valid');
  });
});

/** Python variants: the mistakes as a Python implementation makes them. */
const PY: (Variant & { category: string; says?: RegExp })[] = [
  // json.dumps(json.loads(body)): the bytes differ, the value does not. Named from the string to
  // sign, and without it from the signature alone.
  {
    mistake: 'body_json_dumps',
    named: 'body_reserialised',
    category: 'sign_request_post',
    says: /written as Python's json\.dumps defaults.*the same JSON value as the \d+ bytes sent/,
  },
  {
    mistake: 'body_json_dumps',
    args: '--no-sts',
    named: 'body_reserialised',
    category: 'sign_request_post',
    says: /signature is the one for the body written as Python's json\.dumps/,
  },
  { mistake: 'url_rstrip_slash', named: 'url_trailing_slash_dropped', category: 'sign_request_get' },
  {
    mistake: 'verify_url_rstrip_slash',
    named: 'url_trailing_slash_dropped',
    category: 'verify_webhook',
    says: /your verifier drops the trailing slash/,
  },
  { mistake: 'verify_query_dropped', named: 'url_query_dropped', category: 'verify_webhook' },
  { mistake: 'verify_no_merchant', named: 'ignores_merchant', category: 'verify_webhook' },
  { mistake: 'verify_no_expiry', named: 'ignores_expiry', category: 'verify_webhook' },
  { mistake: 'verify_past_only', named: 'only_checks_past', category: 'verify_webhook' },
  { mistake: 'verify_prefix', named: 'compares_prefix', category: 'verify_webhook' },
  { mistake: 'verify_int_timestamp', named: 'timestamp_parsed_as_int', category: 'verify_webhook', says: /Python int\(\)/ },
  {
    mistake: 'verify_json_dumps_body',
    named: 'body_reserialised',
    category: 'verify_request',
    says: /writes it again \(as Python's json\.dumps defaults/,
  },
];

describe("broken Python adapters: mistakes named in the implementer's terms", () => {
  const runs = new Map<string, JsonReport>();
  const key = (v: Variant) => `${v.mistake}${v.args ?? ''}`;

  beforeAll(async () => {
    // Two at a time: on two cores shared with the other suites, four at once once took one past 30 s.
    await pool(PY, 2, async (v) => {
      const { run, report: r } = await runInProcess(['run', '--impl', brokenPython(`--mistake ${v.mistake} ${v.args ?? ''}`)]);
      expect(run.code, run.stdout).toBe(1);
      // A child that never got going fails every case for a reason that is not the mistake.
      expect(r.implementation.hello_error, key(v)).toBeUndefined();
      runs.set(key(v), r);
    });
  }, 300_000);

  it.each(PY)('$mistake $args: named "$named" in $category', (v) => {
    const r = runs.get(key(v))!;
    const failing = r.cases.filter((c) => c.status === 'fail');
    const named = failing.filter((c) => c.category === v.category && c.mistake === v.named);
    expect(named.length, JSON.stringify(failing.map((c) => [c.id, c.mistake, c.mistake_candidates]))).toBeGreaterThan(0);
    if (v.says) expect(named[0]!.diagnosis).toMatch(v.says);
    const misnamed = failing.filter((c) => c.mistake !== undefined && c.mistake !== v.named);
    expect(misnamed.map((c) => `${c.id}: ${c.mistake}`)).toEqual([]);
  });

  it('the unbroken Python adapter passes everything', async () => {
    const { run } = await runInProcess(['run', '--impl', brokenPython('')]);
    expect(run.code, run.stdout).toBe(0);
  });

  it('refusing the uppercase signature for a reason it does not explain fails the acceptable case; refusing it as malformed passes', async () => {
    const [wrong, right] = await Promise.all([
      runInProcess(['run', '-c', 'verify_*', '--impl', brokenPython('--mistake uppercase_wrong_reason')]),
      runInProcess(['run', '-c', 'verify_*', '--impl', brokenPython('--mistake uppercase_refused')]),
    ]);
    for (const id of ['verify_webhook/uppercase-signature', 'verify_request/uppercase-signature']) {
      const bad = wrong.report.cases.find((c) => c.id === id)!;
      expect(bad.status).toBe('fail');
      expect(bad.diagnosis).toMatch(/refused for "missing_header", which the open question does not explain/);
      const good = right.report.cases.find((c) => c.id === id)!;
      expect(good).toMatchObject({ status: 'pass', chosen_verdict: 'invalid' });
    }
    expect(right.report.exit_code).toBe(0);
  });

  it('an acceptable vector chosen with --id brings the cases its verdict depends on', async () => {
    const { report: r } = await runInProcess(['run', '--id', 'verify_webhook/uppercase-signature', '--impl', brokenPython('')]);
    const ids = r.cases.map((c) => c.id);
    expect(ids).toContain('verify_webhook/uppercase-signature');
    expect(ids).toContain('verify_webhook/bad-signature-last-digit');
    expect(r.cases.every((c) => c.status === 'pass')).toBe(true);
  });
});

// Side by side: most of these wait (a hello held back, a child that never flushes, hangs).
describe.concurrent('children that misbehave', () => {
  const fake = (fault: string, extra: string[] = []) =>
    // runCli kills a run still going after 120 s and reports no exit code: that is the bound. Only
    // where a hang is the fault is the limit short (a child hanging on every case times out on each
    // until the restarts are spent, 300 ms each; one hanging at hello is given up after 2 s); every
    // child that answers gets the default limits, room for a loaded machine.
    runCli(
      [
        'run',
        '--vectors',
        fixtureVectors,
        ...(fault === 'hang' ? ['--timeout-ms', '300'] : []),
        ...(fault === 'hang_at_hello' ? ['--start-timeout-ms', '2000'] : []),
        '--impl',
        broken(`--fault ${fault}`),
        ...extra,
      ],
      { timeoutMs: 120_000 },
    );

  const FAULTS = ['crash', 'hang', 'garbage', 'wrong_case', 'two_lines', 'exit_at_hello', 'hang_at_hello'];
  const results = new Map<string, { run: CliRun; report: JsonReport }>();

  beforeAll(async () => {
    await pool(FAULTS, 4, async (f) => {
      const json = join(dir, `fault-${f}.json`);
      const run = await fake(f, ['--json', json]);
      results.set(f, { run, report: report(json) });
    });
  }, 300_000);

  it.each(FAULTS)('%s: reported, exit non-zero, within a bounded time', (f) => {
    const { run, report: r } = results.get(f)!;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(r.summary.passed).toBeLessThan(r.summary.total);
    const expectStatus: Record<string, string> = {
      crash: 'crash',
      hang: 'timeout',
      garbage: 'error',
      wrong_case: 'error',
      two_lines: 'error',
      exit_at_hello: 'not_run',
      hang_at_hello: 'not_run',
    };
    expect(r.cases.some((c) => c.status === expectStatus[f])).toBe(true);
  });

  it('says what happened to the case in flight and shows the child stderr', () => {
    const crash = results.get('crash')!.report.cases[0]!;
    expect(crash.diagnosis).toMatch(/exited with code 9 .*did again on a fresh child/);
    expect(crash.stderr).toContain(`crashing on ${crash.id}`);
    const hang = results.get('hang')!.report.cases[0]!;
    expect(hang.diagnosis).toMatch(/no answer within 300 ms/);
    expect(hang.stderr).toContain('hanging on');
    expect(results.get('garbage')!.report.cases[0]!.diagnosis).toMatch(/bad output \(not JSON\)/);
    expect(results.get('wrong_case')!.report.cases[0]!.diagnosis).toMatch(/out of step/);
    expect(results.get('two_lines')!.report.cases.find((c) => c.status === 'error')!.diagnosis).toMatch(
      /no request was waiting|previous case/,
    );
    const hello = results.get('exit_at_hello')!.report;
    expect(hello.implementation.hello_error).toMatch(/exited with code 7/);
    expect(results.get('exit_at_hello')!.run.stdout).toContain('giving up at hello');
  });

  it('tries hello once: a child that cannot say hello is not started again', async () => {
    await Promise.all(
      ['exit_at_hello', 'hang_at_hello'].map(async (fault) => {
        const starts = join(dir, `starts-${fault}`);
        const run = await runCli([
          'run',
          '--vectors',
          fixtureVectors,
          '--start-timeout-ms',
          '2000',
          '--impl',
          broken(`--fault ${fault} --starts ${starts}`),
        ]);
        expect(run.code).toBe(1);
        expect(readFileSync(starts, 'utf8')).toBe('started\n');
      }),
    );
  });

  it('gives hello the start-up limit, not the per-request one: a slow start passes, one slower than the limit is named', async () => {
    // The child says hello after 4 s; every other answer is immediate, and 3 s leaves it room.
    const args = ['run', '--vectors', fixtureVectors, '--timeout-ms', '3000', '--impl', broken('--fault slow_hello')];
    const [slow, late] = await Promise.all([runCli(args), runCli([...args, '--start-timeout-ms', '500'])]);
    expect(slow.code, slow.stdout + slow.stderr).toBe(0);
    expect(late.code).toBe(1);
    expect(late.stdout).toMatch(/hello failed: no answer within 500 ms/);
  });

  it('restarts a child that crashes on one case, runs that case again on a fresh child, and carries on', async () => {
    const json = join(dir, 'crash-on.json');
    const one = await runCli(
      ['run', '--vectors', fixtureVectors, '--impl', broken('--fault crash --on verify_webhook/valid'), '--json', json],
      { timeoutMs: 20_000 },
    );
    expect(one.code).toBe(1);
    const r = report(json);
    expect(r.restarts).toBe(2); // the retry, and the start for the case after it
    expect(r.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}:${c.status}`)).toEqual([
      'verify_webhook/valid:crash',
    ]);
  });

  it('stops at the first failure with --fail-fast', async () => {
    const { run, report: r } = await runInProcess([
      'run',
      '--vectors',
      fixtureVectors,
      '--fail-fast',
      '--impl',
      broken('--mistake ignores_expiry'),
    ]);
    expect(run.code).toBe(1);
    expect(r.cases.at(-1)!.status).toBe('fail');
    expect(r.cases.filter((c) => c.status === 'fail')).toHaveLength(1);
  });
});

describe.concurrent('children that misbehave, in Python', () => {
  it('a child that never flushes stdout is told to flush', async () => {
    const json = join(dir, 'py-no-flush.json');
    const run = await runCli([
      'run',
      '--vectors',
      fixtureVectors,
      '--start-timeout-ms',
      '5000',
      '--impl',
      brokenPython('--fault no_flush'),
      '--json',
      json,
    ]);
    expect(run.code).toBe(1);
    const r = report(json);
    expect(r.implementation.hello_error).toMatch(
      /no answer within 5000 ms; its answer came out only when its stdin was closed: the child buffers stdout\. Flush after every line \(Python: print\(\.\.\., flush=True\)/,
    );
    expect(r.cases.every((c) => c.status === 'not_run')).toBe(true);
    expect(run.stdout).toContain('buffers stdout');
  });

  it('an exit right after an answer is put on that answer, not on the next case', async () => {
    const json = join(dir, 'py-exit-after.json');
    const first = 'sign_request_get/payin-by-id';
    const run = await runCli([
      'run',
      '--vectors',
      fixtureVectors,
      '--impl',
      brokenPython(`--fault exit_after_answer --on ${first}`),
      '--json',
      json,
    ]);
    expect(run.code).toBe(1); // the child had to be restarted
    const r = report(json);
    expect(r.cases.every((c) => c.status === 'pass')).toBe(true);
    const exited = r.cases.filter((c) => c.child_exited_after);
    expect(exited.map((c) => [c.id, c.child_exited_after])).toEqual([[first, { code: 0, signal: null }]]);
    expect(run.stdout).toContain(`the child exited right after answering ${first} (code 0)`);
  });

  // Six Python starts and five 1 s hangs, about 10 s when idle; one loaded clean-clone CI run took
  // over 30 s, so each run gets 90 s.
  it('a child that exits after every answer, or hangs on the third case of each life, ends in bounded time', {
    timeout: 120_000,
  }, async () => {
    const every = join(dir, 'py-exit-every.json');
    const third = join(dir, 'py-third.json');
    const [a, b] = await Promise.all([
      runCli(['run', '--max-restarts', '5', '--impl', brokenPython('--fault exit_after_answer'), '--json', every], { timeoutMs: 90_000 }),
      runCli(['run', '--max-restarts', '5', '--timeout-ms', '1000', '--impl', brokenPython('--fault hang_every_third'), '--json', third], {
        timeoutMs: 90_000,
      }),
    ]);
    for (const [run, file] of [
      [a, every],
      [b, third],
    ] as const) {
      expect(run.code).toBe(1);
      const r = report(file);
      expect(r.restarts).toBe(5); // the budget, then the rest is not run
      expect(r.cases.filter((c) => c.status === 'not_run').length).toBeGreaterThan(100);
      expect(run.stdout).toMatch(/case\(s\) not run/);
    }
    expect(report(every).child_hint).toMatch(/exited right after answering \d+ cases: it must keep reading requests/);
    expect(report(third).cases.filter((c) => c.status === 'timeout').length).toBeLessThanOrEqual(6);
  });
});

describe('capabilities', () => {
  it('reports the categories of commands an implementation lacks as skipped, never passed', async () => {
    const { run, report: r } = await runInProcess([
      'run',
      '--vectors',
      fixtureVectors,
      '--impl',
      broken('--caps sign_request,sign_simplified'),
    ]);
    expect(run.code).toBe(0);
    const verify = r.categories.filter((c) => c.category.startsWith('verify_'));
    expect(verify.every((c) => c.skipped === c.total && c.passed === 0)).toBe(true);
    expect(r.cases.filter((c) => c.category.startsWith('verify_')).every((c) => c.status === 'skip')).toBe(true);
    const { run: strict } = await runInProcess([
      'run',
      '--vectors',
      fixtureVectors,
      '--strict',
      '--impl',
      broken('--caps sign_request,sign_simplified'),
    ]);
    expect(strict.code).toBe(1);
  });
});
