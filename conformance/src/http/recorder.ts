// The one case recorder of the HTTP modes: it gives a case its identity in the reports, times it,
// turns a request that fails into an error of that case, and keeps the results in order.
import type { CaseResult, CaseStatus } from '../types.js';

/** What a case must get: a 2xx (accepted) or anything else (refused). */
export type Expect = '2xx' | 'non-2xx';

/** Who a case is in the reports. */
export interface CaseHead {
  category: string;
  /** the case's name within its category; its id is `<category>/<name>` */
  name: string;
  description: string;
  expect: Expect;
}

/** What a case concluded. */
export interface Verdict {
  status: CaseStatus;
  /** what the report shows as got (the HTTP status); null when absent */
  got?: unknown;
  diagnosis?: string;
}

/** What a case has got so far, shown as got when a later request of it fails. */
export interface SoFar {
  got: unknown;
}

/** Records the cases of one HTTP-mode run. */
export class CaseRecorder {
  /** every case recorded, in order */
  readonly cases: CaseResult[] = [];

  /**
   * Runs one case and records its verdict. A request that throws (no connection, no answer in
   * time, a TLS failure) makes the case an error, with what it had got so far.
   */
  async record(head: CaseHead, run: (soFar: SoFar) => Promise<Verdict>): Promise<Verdict> {
    const t0 = performance.now();
    const soFar: SoFar = { got: null };
    let verdict: Verdict;
    try {
      verdict = await run(soFar);
    } catch (e) {
      verdict = { status: 'error', got: soFar.got, diagnosis: `the request failed: ${(e as Error).message}` };
    }
    this.add(head, verdict, t0);
    return verdict;
  }

  /** Records a case that could not run, because what it needs could not be set up. */
  notRun(head: CaseHead, why: string): void {
    this.add(head, { status: 'not_run', diagnosis: `not run: ${why}` }, performance.now());
  }

  private add(head: CaseHead, v: Verdict, t0: number): void {
    this.cases.push({
      id: `${head.category}/${head.name}`,
      category: head.category,
      command: 'http',
      description: head.description,
      flags: [],
      expected: head.expect,
      got: v.got ?? null,
      duration_ms: Math.round(performance.now() - t0),
      status: v.status,
      ...(v.diagnosis !== undefined ? { diagnosis: v.diagnosis } : {}),
    });
  }
}
