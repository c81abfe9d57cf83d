// The summary.json of a report directory: every count recomputed here, with plain loops, from the
// per-case list it carries, for runs of every mix of verdicts; where the implementation's name
// comes from; and nothing in it that changes from run to run but what the implementation answered.
import { describe, expect, it } from 'vitest';
import { SUMMARY_SCHEMA, toSummaryFile } from '../src/report/summary-file.js';
import type { CaseStatus } from '../src/types.js';
import { aCase, aRun, helloOf } from './report-runs.js';

const ALL: CaseStatus[] = ['pass', 'fail', 'skip', 'error', 'timeout', 'crash', 'not_run'];
const context = { toolkit: { name: '@pay/conformance', version: '9.9.9' }, exit_code: 1 };

/** A small deterministic generator (a linear congruential one), so every run of the test sees the same runs. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('summary counts', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('equal the ones recounted from the per-case list (seed %i)', (seed) => {
    const next = generator(seed);
    const groups = ['g_one', 'g_two', 'g_three'].slice(0, 1 + Math.floor(next() * 3));
    const cases = Array.from({ length: Math.floor(next() * 40) }, (_, i) =>
      aCase(`${groups[Math.floor(next() * groups.length)]}/c${i}`, ALL[Math.floor(next() * ALL.length)]!),
    );
    const s = toSummaryFile(aRun(cases), context);
    // The oracle: the cases the summary lists, counted one by one.
    const overall: Record<string, number> = Object.fromEntries(ALL.map((v) => [v, 0]));
    const perGroup = new Map<string, Record<string, number>>();
    for (const c of s.cases) {
      overall[c.verdict]! += 1;
      const g = perGroup.get(c.group) ?? Object.fromEntries(ALL.map((v) => [v, 0]));
      g[c.verdict]! += 1;
      perGroup.set(c.group, g);
    }
    expect(s.cases.map((c) => [c.id, c.verdict])).toEqual(cases.map((c) => [c.id, c.status]));
    expect(s.total).toBe(cases.length);
    expect(s.counts).toEqual(overall);
    for (const g of s.groups) {
      expect(g.counts, g.id).toEqual(perGroup.get(g.id) ?? Object.fromEntries(ALL.map((v) => [v, 0])));
      expect(g.total, g.id).toBe(s.cases.filter((c) => c.group === g.id).length);
    }
    expect(s.groups.reduce((n, g) => n + g.total, 0)).toBe(s.total);
  });

  it('lists a group of the run none of whose cases ran, with 0, in the run order', () => {
    const run = aRun([aCase('b_group/x', 'pass')]);
    run.categories = [{ category: 'a_group', command: 'sign_request', total: 0, passed: 0, failed: 0, skipped: 0 }, ...run.categories];
    const s = toSummaryFile(run, context);
    expect(s.groups.map((g) => [g.id, g.total, g.counts.pass])).toEqual([
      ['a_group', 0, 0],
      ['b_group', 1, 1],
    ]);
  });
});

describe('summary fields', () => {
  it('carries the schema, mode, toolkit, each case with its mistake and evidence, and no time', () => {
    const failing = aCase('client_bytes/create', 'fail', { mistake: 'amount_digits_changed', stderr: 'trace\n' });
    const s = toSummaryFile(aRun([aCase('client_bytes/get', 'pass'), failing]), context);
    expect(s.schema).toBe(SUMMARY_SCHEMA);
    expect(s.schema).toMatch(/\/1$/);
    expect([s.mode, s.toolkit.version, s.exit_code]).toEqual(['client', '9.9.9', 1]);
    expect(s.cases[0]).toEqual({
      id: 'client_bytes/get',
      group: 'client_bytes',
      verdict: 'pass',
      mistake: null,
      evidence: { description: 'case client_bytes/get', expected: { outcome: 'ok' }, got: { outcome: 'ok' }, diagnosis: null },
    });
    expect(s.cases[1]!.mistake).toBe('amount_digits_changed');
    expect(s.cases[1]!.evidence).toMatchObject({ diagnosis: 'client_bytes/create went wrong', stderr: 'trace\n' });
    // The run's start and duration, and each case's, stay in --json: two runs that judge alike
    // write alike.
    const text = JSON.stringify(s);
    expect(text).not.toMatch(/2026-01-02|12345|duration|started/);
  });

  it.each([
    ['hello', helloOf('pay-go'), undefined, 'pay-go', 'hello'],
    ['hello, over --name', helloOf('pay-go'), 'my name', 'pay-go', 'hello'],
    ['--name, without hello', null, 'staging service', 'staging service', 'option'],
    ['the command, without either', null, undefined, 'https://staging.example/pay', 'command'],
  ] as const)('names the implementation from %s', (_what, hello, name, expected, from) => {
    const run = aRun([aCase('server_accepts/x', 'pass')], { hello, command: 'https://staging.example/pay', mode: 'server' });
    const s = toSummaryFile(run, { ...context, name });
    expect([s.implementation.name, s.implementation.name_from]).toEqual([expected, from]);
    expect(s.implementation.version).toBe(hello ? '1.2.3' : null);
  });

  it('notes a child that never started, a run stopped early and restarts', () => {
    const run = aRun([aCase('g/x', 'not_run')], { hello: null });
    run.implementation.hello_error = 'no answer to hello within 30000 ms';
    run.stopped_early = 'the restart budget (10) is spent';
    run.restarts = 10;
    expect(toSummaryFile(run, context).notes).toEqual([
      'the implementation did not start: no answer to hello within 30000 ms',
      'stopped early: the restart budget (10) is spent',
      'the child was restarted 10 time(s)',
    ]);
  });
});
