// The machine-readable report: suite, implementation, one entry per case.
import type { RunResult } from '../types.js';

/** What the JSON report says that the run result does not: who ran it, and the exit code. */
export interface JsonReportExtra {
  runner: { name: string; version: string };
  exit_code: number;
}

/** The JSON report of a run (report_version 1). */
export function toJsonReport(result: RunResult, extra: JsonReportExtra): string {
  const passed = result.cases.filter((c) => c.status === 'pass').length;
  const skipped = result.cases.filter((c) => c.status === 'skip').length;
  const byStatus: Record<string, number> = {};
  for (const c of result.cases) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
  const report = {
    report: 'pay-conformance',
    report_version: 1,
    mode: result.mode ?? 'run',
    runner: extra.runner,
    suite: result.suite,
    suite_version: result.suite_version,
    protocol: result.protocol,
    vectors_dir: result.vectors_dir,
    implementation: {
      command: result.implementation.command,
      ...(result.implementation.hello ?? {}),
      ...(result.implementation.hello_error ? { hello_error: result.implementation.hello_error } : {}),
    },
    started_at: result.started_at,
    duration_ms: result.duration_ms,
    restarts: result.restarts,
    ...(result.stopped_early ? { stopped_early: result.stopped_early } : {}),
    ...(result.child_hint ? { child_hint: result.child_hint } : {}),
    exit_code: extra.exit_code,
    summary: {
      total: result.cases.length,
      passed,
      failed: result.cases.length - passed - skipped,
      skipped,
      reason_mismatches: result.cases.filter((c) => c.reason_mismatch).length,
      by_status: byStatus,
    },
    categories: result.categories,
    cases: result.cases,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
