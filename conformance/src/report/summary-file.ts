// The JSON summary of a report directory (`--report DIR`, summary.json): who was judged, in which
// mode, by which runner, the counts per verdict overall and per case group, and every case with its
// verdict, the mistake named and the evidence. It is what `pay-conformance report` merges, so its
// shape is versioned (`schema`) and every count in it is derived here from the per-case list: a
// summary never says more than its cases show. It holds no time, duration or address of its own:
// two runs that judge alike write alike, apart from what the implementation answered.
import type { CaseResult, CaseStatus, RunResult } from '../types.js';

/** The summary's name in a report directory. */
export const SUMMARY_FILE = 'summary.json';

/** The schema of the summary: its name and version. A reader refuses another version by name. */
export const SUMMARY_SCHEMA = 'pay-conformance-summary/1';

/** Every verdict a case can get, in the order reports list them. */
export const VERDICTS = ['pass', 'fail', 'skip', 'error', 'timeout', 'crash', 'not_run'] as const satisfies readonly CaseStatus[];

/** How many cases got each verdict (every verdict present, zeros included). */
export type VerdictCounts = Record<CaseStatus, number>;

/** Where the implementation's name came from. */
type NameSource = 'hello' | 'option' | 'command';

/** The implementation judged. */
interface SummaryImplementation {
  name: string;
  name_from: NameSource;
  /** what it said of itself in hello (null in the HTTP modes, which have none) */
  version: string | null;
  language: string | null;
  /** the command line, or the address tested */
  command: string;
}

/** One case group (a vector category, an HTTP mode's category): its total and the counts per verdict. */
export interface SummaryGroup {
  id: string;
  total: number;
  counts: VerdictCounts;
}

/** One case: its verdict, the mistake named (null when none is), and what shows it. */
export interface SummaryCase {
  id: string;
  group: string;
  verdict: CaseStatus;
  mistake: string | null;
  evidence: Record<string, unknown>;
}

/** summary.json. */
export interface SummaryFile {
  schema: typeof SUMMARY_SCHEMA;
  implementation: SummaryImplementation;
  mode: NonNullable<RunResult['mode']>;
  toolkit: { name: string; version: string };
  suite: string;
  suite_version: string;
  /** the run's exit code: 0 every required case passed, 1 otherwise */
  exit_code: number;
  /** what a reader must know besides the cases: the child did not start, the run stopped early… */
  notes: string[];
  total: number;
  counts: VerdictCounts;
  groups: SummaryGroup[];
  cases: SummaryCase[];
}

/** What the command knows that the run result does not. */
export interface SummaryContext {
  /** `--name`, when given: the implementation's name when it gave none in hello */
  name?: string | undefined;
  toolkit: { name: string; version: string };
  exit_code: number;
}

/** The counts per verdict of some verdicts. */
export function countVerdicts(verdicts: Iterable<CaseStatus>): VerdictCounts {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;
  for (const v of verdicts) counts[v]++;
  return counts;
}

/** Everything a case's verdict rests on, besides the verdict: none of the timing. */
function evidenceOf(c: CaseResult): Record<string, unknown> {
  return {
    description: c.description,
    expected: c.expected,
    got: c.got,
    diagnosis: c.diagnosis ?? null,
    ...(c.mistake_candidates ? { mistake_candidates: c.mistake_candidates } : {}),
    ...(c.first_difference ? { first_difference: c.first_difference } : {}),
    ...(c.reason_mismatch ? { reason_mismatch: c.reason_mismatch } : {}),
    ...(c.chosen_verdict ? { chosen_verdict: c.chosen_verdict } : {}),
    ...(c.child_exited_after ? { child_exited_after: c.child_exited_after } : {}),
    ...(c.stderr ? { stderr: c.stderr } : {}),
  };
}

/** The implementation's name: what it said in hello, else --name, else its command line or address. */
function implementationOf(result: RunResult, name: string | undefined): SummaryImplementation {
  const { hello, command } = result.implementation;
  const [chosen, from]: [string, NameSource] = hello?.name ? [hello.name, 'hello'] : name ? [name, 'option'] : [command, 'command'];
  return { name: chosen, name_from: from, version: hello?.version ?? null, language: hello?.language ?? null, command };
}

/** The summary of a finished run, unmasked: the caller masks it before it leaves the process. */
export function toSummaryFile(result: RunResult, context: SummaryContext): SummaryFile {
  const cases: SummaryCase[] = result.cases.map((c) => ({
    id: c.id,
    group: c.category,
    verdict: c.status,
    mistake: c.mistake ?? null,
    evidence: evidenceOf(c),
  }));
  // The run's categories fix the groups and their order (a suite's category none of whose cases
  // ran still shows, with 0); a group only the cases name follows them.
  const ids = [...new Set([...result.categories.map((c) => c.category), ...cases.map((c) => c.group)])];
  const groups = ids.map((id) => {
    const mine = cases.filter((c) => c.group === id);
    return { id, total: mine.length, counts: countVerdicts(mine.map((c) => c.verdict)) };
  });
  const notes = [
    ...(result.implementation.hello_error ? [`the implementation did not start: ${result.implementation.hello_error}`] : []),
    ...(result.stopped_early ? [`stopped early: ${result.stopped_early}`] : []),
    ...(result.restarts ? [`the child was restarted ${result.restarts} time(s)`] : []),
    ...(result.child_hint ? [`hint: ${result.child_hint}`] : []),
  ];
  return {
    schema: SUMMARY_SCHEMA,
    implementation: implementationOf(result, context.name),
    mode: result.mode ?? 'run',
    toolkit: context.toolkit,
    suite: result.suite,
    suite_version: result.suite_version,
    exit_code: context.exit_code,
    notes,
    total: cases.length,
    counts: countVerdicts(cases.map((c) => c.verdict)),
    groups,
    cases,
  };
}
