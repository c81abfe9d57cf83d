// Proof that the suite catches broken implementations: one mistake per variant of a correct
// adapter (test/fixtures/broken-adapter.mjs, node:crypto only), and children that misbehave.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { broken, fixtureVectors, goldenVectors, pool, runCli, tmp, type CliRun, type JsonReport } from './helpers.js';

interface Variant {
  mistake: string;
  /** the category that must fail */
  category: string;
  /** the diagnosis must name this mistake (signing variants) */
  named?: string;
  /** some failing case id must contain this (verification variants) */
  caughtBy?: string;
}

// Keep in step with the table in README.md.
export const VARIANTS: Variant[] = [
  { mistake: 'url_trailing_slash_dropped', category: 'sign_request_get', named: 'url_trailing_slash_dropped' },
  { mistake: 'url_trailing_slash_added', category: 'sign_request_get', named: 'url_trailing_slash_added' },
  { mistake: 'url_path_only', category: 'sign_request_get', named: 'url_path_only' },
  { mistake: 'url_query_dropped', category: 'sign_request_get', named: 'url_query_dropped' },
  { mistake: 'body_reserialised', category: 'sign_request_post', named: 'body_reserialised' },
  { mistake: 'body_signed_for_get', category: 'sign_request_get', named: 'body_signed_for_get' },
  { mistake: 'uppercase_hex', category: 'sign_request_get', named: 'uppercase_hex' },
  { mistake: 'method_lowercased', category: 'sign_request_get', named: 'method_lowercased' },
  { mistake: 'secret_latin1', category: 'sign_request_post', named: 'secret_latin1' },
  { mistake: 'body_latin1', category: 'sign_request_post', named: 'body_latin1' },
  { mistake: 'simplified_method_included', category: 'sign_simplified', named: 'simplified_method_included' },
  { mistake: 'simplified_fields_reordered', category: 'sign_simplified', named: 'simplified_fields_reordered' },
  { mistake: 'accepts_everything', category: 'verify_webhook', caughtBy: 'tampered-body' },
  { mistake: 'never_expires', category: 'verify_webhook', caughtBy: 'expired-61s-past' },
  { mistake: 'only_checks_past', category: 'verify_webhook', caughtBy: 'expired-61s-future' },
  { mistake: 'off_by_one_at_60', category: 'verify_webhook', caughtBy: 'tolerance-60s-past' },
  { mistake: 'ignores_merchant', category: 'verify_webhook', caughtBy: 'merchant-mismatch' },
  { mistake: 'compares_prefix', category: 'verify_webhook', caughtBy: 'bad-signature-last-digit' },
  { mistake: 'ignores_url', category: 'verify_webhook', caughtBy: 'url-trailing-slash-dropped' },
  { mistake: 'accepts_fractional_timestamp', category: 'verify_webhook', caughtBy: 'malformed-timestamp-fraction' },
];

const dir = tmp();

describe('broken variants of the reference adapter', () => {
  const runs = new Map<string, { run: CliRun; report: JsonReport }>();

  beforeAll(async () => {
    await pool(VARIANTS, 4, async (v) => {
      const json = join(dir, `${v.mistake}.json`);
      const run = await runCli(['run', '--vectors', goldenVectors, '--impl', broken(`--mistake ${v.mistake}`), '--json', json]);
      runs.set(v.mistake, { run, report: JSON.parse(readFileSync(json, 'utf8')) as JsonReport });
    });
  }, 60_000);

  it('the unbroken adapter passes everything (the variants differ from it by one mistake)', async () => {
    const runs2 = await Promise.all([
      runCli(['run', '--vectors', fixtureVectors, '--impl', broken('')]),
      runCli(['run', '--vectors', goldenVectors, '--impl', broken('')]),
    ]);
    for (const r of runs2) expect(r.code, r.stdout).toBe(0);
  });

  it('reports a right verdict with the wrong reason as a reason mismatch, apart from wrong verdicts', () => {
    const { report, run } = runs.get('never_expires')!;
    const mismatched = report.cases.filter((c) => c.reason_mismatch);
    expect(mismatched.length).toBeGreaterThan(0);
    expect(mismatched.every((c) => c.status === 'fail' && /reason mismatch/.test(c.diagnosis ?? ''))).toBe(true);
    expect(report.cases.some((c) => c.status === 'fail' && !c.reason_mismatch)).toBe(true);
    expect(run.stdout).toMatch(/\d+ reason mismatch\(es\)/);
  });

  it.each(VARIANTS)('catches $mistake in $category', (v) => {
    const got = runs.get(v.mistake)!;
    expect(got.run.code, got.run.stdout + got.run.stderr).toBe(1);
    expect(got.report.exit_code).toBe(1);
    const cat = got.report.categories.find((c) => c.category === v.category)!;
    expect(cat.failed, `${v.category} should fail`).toBeGreaterThan(0);
    const failing = got.report.cases.filter((c) => c.category === v.category && c.status === 'fail');
    if (v.named) {
      expect(failing.some((c) => c.mistake === v.named)).toBe(true);
      expect(got.run.stdout).toContain(v.named === 'uppercase_hex' ? 'uppercase hex' : `mistake "${v.named}"`);
    }
    if (v.caughtBy) {
      expect(failing.map((c) => c.id).some((id) => id.includes(v.caughtBy!))).toBe(true);
      // A wrong verdict is explained with the vector's description and flags.
      const c = failing.find((f) => f.id.includes(v.caughtBy!))!;
      expect(c.diagnosis).toMatch(/\[flags: /);
    }
  });
});

describe('children that misbehave', () => {
  const fake = (fault: string, extra: string[] = []) =>
    // runCli kills a run still going after 30 s and reports no exit code: that is the bound.
    runCli(['run', '--vectors', fixtureVectors, '--timeout-ms', '300', '--impl', broken(`--fault ${fault}`), ...extra], { timeoutMs: 30_000 });

  const FAULTS = ['crash', 'hang', 'garbage', 'wrong_case', 'two_lines', 'exit_at_hello', 'hang_at_hello'];
  const results = new Map<string, { run: CliRun; report: JsonReport }>();

  beforeAll(async () => {
    await pool(FAULTS, 4, async (f) => {
      const json = join(dir, `fault-${f}.json`);
      const run = await fake(f, ['--json', json]);
      results.set(f, { run, report: JSON.parse(readFileSync(json, 'utf8')) as JsonReport });
    });
  }, 90_000);

  it.each(FAULTS)('%s: reported, exit non-zero, within a bounded time', (f) => {
    const { run, report } = results.get(f)!;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(report.summary.passed).toBeLessThan(report.summary.total);
    const expectStatus: Record<string, string> = {
      crash: 'crash',
      hang: 'timeout',
      garbage: 'error',
      wrong_case: 'error',
      two_lines: 'error',
      exit_at_hello: 'error',
      hang_at_hello: 'error',
    };
    expect(report.cases.some((c) => c.status === expectStatus[f])).toBe(true);
  });

  it('says what happened to the case in flight and shows the child stderr', () => {
    const crash = results.get('crash')!.report.cases[0]!;
    expect(crash.diagnosis).toMatch(/exited with code 9/);
    expect(crash.stderr).toContain(`crashing on ${crash.id}`);
    const hang = results.get('hang')!.report.cases[0]!;
    expect(hang.diagnosis).toMatch(/no answer within 300 ms/);
    expect(hang.stderr).toContain('hanging on');
    expect(results.get('garbage')!.report.cases[0]!.diagnosis).toMatch(/bad output \(not JSON\)/);
    expect(results.get('wrong_case')!.report.cases[0]!.diagnosis).toMatch(/out of step/);
    expect(results.get('two_lines')!.report.cases.find((c) => c.status === 'error')!.diagnosis).toMatch(/no request was waiting|previous case/);
    const hello = results.get('exit_at_hello')!.report;
    expect(hello.implementation.hello_error).toMatch(/exited with code 7/);
    expect(results.get('exit_at_hello')!.run.stdout).toContain('giving up at hello');
  });

  it('restarts a child that crashes on one case and carries on with the others', async () => {
    const json = join(dir, 'crash-on.json');
    const one = await runCli(
      ['run', '--vectors', fixtureVectors, '--impl', broken('--fault crash --on verify_webhook/valid'), '--json', json],
      { timeoutMs: 20_000 },
    );
    expect(one.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.restarts).toBe(1);
    expect(report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}:${c.status}`)).toEqual(['verify_webhook/valid:crash']);
  });

  it('stops at the first failure with --fail-fast', async () => {
    const json = join(dir, 'ff.json');
    const run = await runCli(['run', '--vectors', fixtureVectors, '--fail-fast', '--impl', broken('--mistake never_expires'), '--json', json]);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.cases.at(-1)!.status).toBe('fail');
    expect(report.cases.filter((c) => c.status === 'fail')).toHaveLength(1);
  });
});

describe('capabilities', () => {
  it('reports the categories of commands an implementation lacks as skipped, never passed', async () => {
    const json = join(dir, 'caps.json');
    const run = await runCli(['run', '--vectors', fixtureVectors, '--impl', broken('--caps sign_request,sign_simplified'), '--json', json]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    const verify = report.categories.filter((c) => c.category.startsWith('verify_'));
    expect(verify.every((c) => c.skipped === c.total && c.passed === 0)).toBe(true);
    expect(report.cases.filter((c) => c.category.startsWith('verify_')).every((c) => c.status === 'skip')).toBe(true);
    const strict = await runCli(['run', '--vectors', fixtureVectors, '--strict', '--impl', broken('--caps sign_request,sign_simplified')]);
    expect(strict.code).toBe(1);
  });
});
