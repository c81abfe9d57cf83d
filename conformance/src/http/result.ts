// A finished HTTP-mode run in the shape every report takes (RunResult), with the one summariser.
import { summarise } from '../report/summary.js';
import type { CaseResult, RunResult } from '../types.js';

/** The result of a server or webhook-endpoint run against `target`, started at `started` (ms). */
export function httpResult(
  mode: 'server' | 'webhook-endpoint',
  target: string,
  version: string,
  started: number,
  cases: CaseResult[],
): RunResult {
  return {
    mode,
    suite: `pay-conformance ${mode}`,
    suite_version: version,
    protocol: 1,
    vectors_dir: '',
    implementation: { command: target, hello: null },
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    cases,
    categories: summarise(cases),
    restarts: 0,
  };
}
