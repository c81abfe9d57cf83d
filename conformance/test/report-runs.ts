// Made-up run results for the report-directory tests: cases with the verdicts, groups, mistakes
// and evidence a test asks for, in the shape every mode hands its reports.
import type { CaseResult, CaseStatus, Hello, RunResult } from '../src/types.js';

/** A case of `group` with `verdict`; anything else overridden by `extra`. */
export function aCase(id: string, verdict: CaseStatus, extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    category: id.split('/')[0]!,
    command: 'sign_request',
    status: verdict,
    description: `case ${id}`,
    flags: [],
    expected: { outcome: 'ok' },
    got: verdict === 'pass' ? { outcome: 'ok' } : { outcome: 'error' },
    duration_ms: 17,
    ...(verdict === 'pass' || verdict === 'skip' ? {} : { diagnosis: `${id} went wrong` }),
    ...extra,
  };
}

/** A hello answer naming `name`. */
export const helloOf = (name: string, version = '1.2.3'): Hello => ({
  protocol: 1,
  name,
  version,
  language: 'Go 1.22',
  capabilities: ['client_create_payin'],
});

/** A finished run of `cases`, in `mode`, with `hello` (null: an HTTP mode, or a child that never said it). */
export function aRun(cases: CaseResult[], o: { mode?: RunResult['mode']; hello?: Hello | null; command?: string } = {}): RunResult {
  const categories = [...new Set(cases.map((c) => c.category))].map((category) => ({
    category,
    command: 'sign_request',
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
  }));
  return {
    mode: o.mode ?? 'client',
    suite: `pay-conformance ${o.mode ?? 'client'}`,
    suite_version: '0.0.0',
    protocol: 1,
    vectors_dir: '',
    implementation: { command: o.command ?? 'python3 /tmp/x/adapter.py', hello: o.hello === undefined ? helloOf('sdk') : o.hello },
    started_at: '2026-01-02T03:04:05.678Z',
    duration_ms: 12_345,
    cases,
    categories,
    restarts: 0,
  };
}
