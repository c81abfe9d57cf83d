// Replays a suite against one implementation: one long-lived child, restarted when it hangs,
// crashes, prints something that is not an answer, or answers the wrong case.
import { Child, type Outcome } from './child.js';
import { judgeAcrossCases } from './across-cases.js';
import { judgeSign, judgeVerify, type Judgement } from './judge.js';
import {
  FAILED_STATUSES,
  PROTOCOL_VERSION,
  type CaseResult,
  type CategorySummary,
  type Hello,
  type RunResult,
  type Suite,
  type Vector,
} from '../types.js';

/** The protocol's default per-request limit; also the least a child gets to start and say hello. */
export const DEFAULT_TIMEOUT_MS = 5000;
/** Restarts allowed over a whole run, unless --max-restarts says otherwise. */
export const DEFAULT_MAX_RESTARTS = 10;
/** How long a child that timed out gets to exit once its stdin is closed (see Child.probeBuffered). */
const PROBE_MS = 1000;

export class HarnessError extends Error {
  override name = 'HarnessError';
}

export interface RunOptions {
  suite: Suite;
  argv: string[];
  /** the command line as given, for reports */
  command: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  failFast?: boolean;
  /** restarts allowed over the whole run; once spent, the remaining cases are not run (0: none) */
  maxRestarts?: number;
  onCase?: (result: CaseResult, done: number, total: number) => void;
}

const STDERR_MAX = 4096;

function describeOutcome(o: Exclude<Outcome, { kind: 'answer' }>): string {
  switch (o.kind) {
    case 'timeout':
      return `no answer within ${o.ms} ms`;
    case 'crash':
      return `the child exited${exitText(o)}`;
    case 'bad_output':
      return `bad output (${o.why}): ${JSON.stringify(o.line.length > 200 ? `${o.line.slice(0, 200)}…` : o.line)}`;
  }
}

const exitText = (e: { code: number | null; signal: string | null }) =>
  `${e.code !== null ? ` with code ${e.code}` : ''}${e.signal ? ` on signal ${e.signal}` : ''}`;

/** Checks a hello answer; returns the reason it is unusable, or the hello. */
export function parseHello(o: Outcome): Hello | string {
  if (o.kind !== 'answer') return describeOutcome(o);
  const v = o.value;
  if (v['protocol'] !== PROTOCOL_VERSION) {
    return `the hello answer names protocol ${JSON.stringify(v['protocol'])}; this runner speaks ${PROTOCOL_VERSION}`;
  }
  const caps = v['capabilities'];
  if (!Array.isArray(caps) || !caps.every((c) => typeof c === 'string')) {
    return 'the hello answer has no "capabilities" array of strings';
  }
  const text = (k: string): string => (typeof v[k] === 'string' ? (v[k] as string) : '?');
  return { ...v, protocol: PROTOCOL_VERSION, name: text('name'), version: text('version'), language: text('language'), capabilities: caps as string[] };
}

/**
 * What a child that timed out tells by what it wrote: its answer arriving only once stdin closed
 * (it buffers stdout), or nothing on stdout at all.
 */
function silenceHint(child: Child, late: string[]): string {
  if (late.length) {
    return (
      'its answer came out only when its stdin was closed: the child buffers stdout. Flush after every line ' +
      '(Python: print(..., flush=True) or sys.stdout.flush(); C: fflush(stdout); Java: System.out.flush(); ' +
      'Go: Flush() the bufio.Writer; Rust: io::stdout().flush(); Ruby: $stdout.sync = true)'
    );
  }
  const { stdout, stderr } = child.written;
  if (stdout > 0) return '';
  return (
    `the child wrote nothing to stdout${stderr ? ` (it wrote ${stderr} bytes to stderr)` : ''}: does it read requests ` +
    'line by line from stdin and flush stdout after each answer? Most languages buffer stdout when it is a pipe'
  );
}

type Start = { child: Child } | { why: string; stderr: string };

export async function runSuite(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const maxRestarts = opts.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const plan = opts.suite.categories.flatMap((c) => c.vectors.map((v) => ({ c, v })));
  const cases: CaseResult[] = [];
  const result: RunResult = {
    suite: opts.suite.suite,
    suite_version: opts.suite.suite_version,
    protocol: PROTOCOL_VERSION,
    vectors_dir: opts.suite.dir,
    implementation: { command: opts.command, hello: null },
    started_at: new Date(started).toISOString(),
    duration_ms: 0,
    cases,
    categories: [],
    restarts: 0,
  };

  let child: Child | null = null;
  /** the case the current child answered last (null: only hello) */
  let lastAnswered: CaseResult | null = null;
  let exitsAfterAnswer = 0;

  /** Starts a child and says hello; hello also covers start-up, so it gets at least the default limit. */
  const start = async (first: boolean): Promise<Start> => {
    const c = new Child({ argv: opts.argv, ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.env ? { env: opts.env } : {}) });
    try {
      await c.start();
    } catch (e) {
      if (first) throw new HarnessError((e as Error).message);
      return { why: (e as Error).message, stderr: '' };
    }
    const mark = c.stderrMark();
    const out = await c.request({ cmd: 'hello', protocol: PROTOCOL_VERSION }, Math.max(opts.timeoutMs, DEFAULT_TIMEOUT_MS));
    const hello = parseHello(out);
    if (typeof hello === 'string') {
      const hint = out.kind === 'timeout' ? silenceHint(c, await c.probeBuffered(PROBE_MS)) : '';
      c.kill();
      return { why: `hello failed: ${hello}${hint ? `; ${hint}` : ''}`, stderr: c.stderrSince(mark, STDERR_MAX) };
    }
    if (!result.implementation.hello) result.implementation.hello = hello;
    child = c;
    lastAnswered = null;
    return { child: c };
  };

  /** A fresh child for the next case, within the restart budget; the reason when there is none. */
  const restart = async (): Promise<Start> => {
    (child as Child | null)?.kill();
    if (result.restarts >= maxRestarts) {
      return { why: `the child was restarted ${result.restarts} time(s), the whole run's budget (--max-restarts ${maxRestarts})`, stderr: '' };
    }
    result.restarts++;
    const s = await start(false);
    return 'why' in s ? { why: `could not restart the implementation: ${s.why}`, stderr: s.stderr } : s;
  };

  const base = (c: (typeof plan)[number]['c'], v: Vector) => ({
    id: v.id,
    category: c.category,
    command: c.command,
    description: v.description,
    flags: v.flags,
    expected: v.expected,
  });

  const push = (r: CaseResult): void => {
    cases.push(r);
    opts.onCase?.(r, cases.length, plan.length);
  };

  const notRun = (from: number, why: string, stderr = '') => {
    for (const { c, v } of plan.slice(from)) {
      push({ ...base(c, v), status: 'not_run', got: null, diagnosis: `not run: ${why}`, ...(stderr ? { stderr } : {}), duration_ms: 0 });
    }
  };

  /** Sends one case; on a timeout, probes the child for buffered output before it is killed. */
  const send = async (ch: Child, c: (typeof plan)[number]['c'], v: Vector): Promise<{ out: Outcome; hint: string }> => {
    const out = await ch.request({ cmd: c.command, case: v.id, ...v.input }, opts.timeoutMs);
    if (out.kind === 'timeout') return { out, hint: silenceHint(ch, await ch.probeBuffered(PROBE_MS)) };
    if (out.kind !== 'answer') ch.kill();
    return { out, hint: '' };
  };

  const first = await start(true);
  if ('why' in first) {
    result.implementation.hello_error = first.why;
    notRun(0, `the implementation did not start (${first.why})`, first.stderr);
  } else {
    const capabilities = new Set(result.implementation.hello?.capabilities ?? []);
    for (let i = 0; i < plan.length; i++) {
      const { c, v } = plan[i]!;
      if (!capabilities.has(c.command)) {
        push({ ...base(c, v), status: 'skip', got: null, diagnosis: `the implementation does not declare the ${c.command} capability`, duration_ms: 0 });
        continue;
      }
      const t0 = performance.now();
      let ch = child as Child | null;
      if (!ch || ch.dead) {
        // The child exited after its last answer, with no case in flight: that answer's case is
        // where it happened, not the next one.
        if (ch?.exitedOnItsOwn && lastAnswered) {
          (lastAnswered as CaseResult).child_exited_after = ch.exitedOnItsOwn;
          exitsAfterAnswer++;
        }
        const s = await restart();
        if ('why' in s) {
          result.stopped_early = s.why;
          notRun(i, s.why, s.stderr);
          break;
        }
        ch = s.child;
      }
      let mark = ch.stderrMark();
      let { out, hint } = await send(ch, c, v);
      let retried = '';
      if (out.kind === 'crash') {
        // The child died with this case sent. It may have exited on its own right after its last
        // answer, before it ever read this case: run the case once more on a fresh child. If that
        // child answers it, the exit belongs to the previous answer; if it dies again, to this case.
        const previous: CaseResult | null = lastAnswered;
        const exit = { code: out.code, signal: out.signal };
        const s = await restart();
        if ('why' in s) {
          hint = s.why;
        } else {
          ch = s.child;
          mark = ch.stderrMark();
          ({ out, hint } = await send(ch, c, v));
          if (out.kind === 'answer') {
            if (previous) {
              previous.child_exited_after = exit;
              exitsAfterAnswer++;
            } else {
              result.child_hint = `the child exited${exitText(exit)} right after answering hello, before the first case`;
            }
          } else if (out.kind === 'crash') {
            retried = ' (it did again on a fresh child, so this case is the one that makes it exit)';
          }
        }
      }
      const duration = performance.now() - t0;
      let j: Judgement;
      if (out.kind !== 'answer') {
        const status = out.kind === 'timeout' ? 'timeout' : out.kind === 'crash' ? 'crash' : 'error';
        j = {
          status,
          got: out.kind === 'bad_output' ? { output: out.line.slice(0, 1000) } : null,
          diagnosis: `${describeOutcome(out)}${retried}${hint ? `; ${hint}` : ''}`,
        };
      } else if (out.value['case'] !== v.id) {
        ch.kill();
        const again = lastAnswered !== null && out.value['case'] === (lastAnswered as CaseResult).id;
        j = {
          status: 'error',
          got: out.value,
          diagnosis: again
            ? `the answer is for the previous case ${JSON.stringify((lastAnswered as CaseResult).id)} again, not ${JSON.stringify(v.id)}: a second line after an answer puts the child out of step; it was restarted`
            : `the answer is for case ${JSON.stringify(out.value['case'])}, not ${JSON.stringify(v.id)} (out of step); the child was restarted`,
        };
      } else {
        j = v.kind === 'sign' ? judgeSign(v, out.value) : judgeVerify(v, out.value);
      }
      const r: CaseResult = { ...base(c, v), ...j, duration_ms: Math.round(duration * 1000) / 1000 };
      if (FAILED_STATUSES.has(r.status)) {
        const stderr = ch.stderrSince(mark, STDERR_MAX);
        if (stderr) r.stderr = stderr;
      }
      push(r);
      lastAnswered = out.kind === 'answer' && out.value['case'] === v.id ? r : null;
      if (opts.failFast && FAILED_STATUSES.has(r.status)) {
        result.stopped_early = `--fail-fast: stopped after ${r.id}`;
        break;
      }
    }
  }
  const last = child as Child | null;
  if (last) await last.close(500);
  judgeAcrossCases(opts.suite, cases);
  if (exitsAfterAnswer > 1 && !result.child_hint) {
    result.child_hint = `the child exited right after answering ${exitsAfterAnswer} cases: it must keep reading requests until bye or the end of its input`;
  }
  result.categories = summarise(opts.suite, cases);
  result.duration_ms = Date.now() - started;
  return result;
}

export function summarise(suite: Suite, cases: CaseResult[]): CategorySummary[] {
  return suite.categories.map((c) => {
    const mine = cases.filter((r) => r.category === c.category);
    return {
      category: c.category,
      command: c.command,
      total: mine.length,
      passed: mine.filter((r) => r.status === 'pass').length,
      failed: mine.filter((r) => FAILED_STATUSES.has(r.status)).length,
      skipped: mine.filter((r) => r.status === 'skip').length,
    };
  });
}

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
