// The exit code of a finished run, whatever its mode: 0 when every required case passed, 1
// otherwise (2, the harness itself failing, is the CLI's own).
import { FAILED_STATUSES, type RunResult } from '../types.js';

/** What else counts as a failure. */
export interface ExitPolicy {
  /** count skipped cases as failures */
  strict?: boolean;
}

/** 0 when every required case passed, 1 otherwise. */
export function exitCodeOf(result: RunResult, policy: ExitPolicy = {}): 0 | 1 {
  if (result.implementation.hello_error) return 1;
  if (result.stopped_early && !result.stopped_early.startsWith('--fail-fast')) return 1;
  for (const r of result.cases) {
    if (FAILED_STATUSES.has(r.status)) return 1;
    if (policy.strict && r.status === 'skip') return 1;
  }
  if (result.restarts > 0) return 1;
  return 0;
}
