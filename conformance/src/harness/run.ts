// Replays a suite against one implementation: one long-lived child, restarted when it hangs,
// crashes, prints something that is not an answer, or answers the wrong case. runSuite reads as
// the order of the steps; each step is a method of Replay below.
import type { Child, Outcome } from './child.js';
import { Children, PROBE_MS, STDERR_MAX } from './children.js';
import { judgeAcrossCases } from './across-cases.js';
import { judgeSign } from './judge-sign.js';
import { judgeVerify } from './judge-verify.js';
import type { Judgement } from './judgement.js';
import { exitText, judgeNoAnswer, judgeOutOfStep, silenceHint } from './outcome.js';
import { summarise } from '../report/summary.js';
import {
  DEFAULT_START_TIMEOUT_MS,
  FAILED_STATUSES,
  PROTOCOL_VERSION,
  type CaseResult,
  type CategoryFile,
  type RunResult,
  type Suite,
  type Vector,
} from '../types.js';

/** Restarts allowed over a whole run, unless --max-restarts says otherwise. */
export const DEFAULT_MAX_RESTARTS = 10;

/** What to replay, against what, and how. */
export interface RunOptions {
  suite: Suite;
  argv: string[];
  /** the command line as given, for reports */
  command: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** the limit for each child to start and answer hello (default DEFAULT_START_TIMEOUT_MS) */
  startTimeoutMs?: number;
  failFast?: boolean;
  /** restarts allowed over the whole run; once spent, the remaining cases are not run (0: none) */
  maxRestarts?: number;
  onCase?: (result: CaseResult, done: number, total: number) => void;
}

/** Replays the suite's cases in order on one child at a time, and judges them. */
export async function runSuite(opts: RunOptions): Promise<RunResult> {
  const replay = new Replay(opts);
  const first = await replay.children.start(true);
  if ('why' in first) replay.noneRun(first);
  else await replay.everyCase();
  return replay.finish();
}

/** One case of the plan: a vector and the category file it comes from. */
interface Planned {
  c: CategoryFile;
  v: Vector;
}

/** A case as it came back: the outcome, the child that gave it, and what to say about it. */
interface Sent {
  out: Outcome;
  child: Child;
  /** the child's stderr mark from when the case was (last) sent */
  mark: number;
  /** what the child's behaviour suggests, when it gave no answer */
  hint: string;
  /** why the case was sent a second time, when it made two children exit */
  retried: string;
}

/** The fields of a case result that come from its vector. */
const identity = ({ c, v }: Planned) => ({
  id: v.id,
  category: c.category,
  command: c.command,
  description: v.description,
  flags: v.flags,
  expected: v.expected,
});

/** The state of one run, and its steps. */
class Replay {
  readonly started = Date.now();
  readonly plan: Planned[];
  readonly cases: CaseResult[] = [];
  readonly children: Children;
  private helloError: string | undefined;
  private stoppedEarly: string | undefined;
  private childHint: string | undefined;

  constructor(private readonly opts: RunOptions) {
    this.plan = opts.suite.categories.flatMap((c) => c.vectors.map((v) => ({ c, v })));
    this.children = new Children({
      argv: opts.argv,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.env ? { env: opts.env } : {}),
      timeoutMs: opts.timeoutMs,
      startTimeoutMs: opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      maxRestarts: opts.maxRestarts ?? DEFAULT_MAX_RESTARTS,
    });
  }

  /** Step: the first child did not start or say hello, so no case runs. */
  noneRun(failed: { why: string; stderr: string }): void {
    this.helloError = failed.why;
    this.notRun(0, `the implementation did not start (${failed.why})`, failed.stderr);
  }

  /** Step: every case in turn, until the plan ends, the restart budget is spent, or --fail-fast stops. */
  async everyCase(): Promise<void> {
    const declared = new Set(this.children.hello?.capabilities ?? []);
    for (let i = 0; i < this.plan.length; i++) {
      const planned = this.plan[i]!;
      if (!declared.has(planned.c.command)) {
        this.skip(planned);
        continue;
      }
      if (!(await this.replayCase(i))) break;
    }
  }

  /** Step: bye to the last child, the judgements that need every answer, hints and counts. */
  async finish(): Promise<RunResult> {
    await this.children.close();
    judgeAcrossCases(this.opts.suite, this.cases);
    const exits = this.children.exitsAfterAnswer;
    if (exits > 1 && !this.childHint) {
      this.childHint = `the child exited right after answering ${exits} cases: it must keep reading requests until bye or the end of its input`;
    }
    const { suite } = this.opts;
    return {
      suite: suite.suite,
      suite_version: suite.suite_version,
      protocol: PROTOCOL_VERSION,
      vectors_dir: suite.dir,
      implementation: {
        command: this.opts.command,
        hello: this.children.hello,
        ...(this.helloError ? { hello_error: this.helloError } : {}),
      },
      started_at: new Date(this.started).toISOString(),
      duration_ms: Date.now() - this.started,
      cases: this.cases,
      categories: summarise(this.cases, suite.categories),
      restarts: this.children.restarts,
      ...(this.stoppedEarly ? { stopped_early: this.stoppedEarly } : {}),
      ...(this.childHint ? { child_hint: this.childHint } : {}),
    };
  }

  /** One declared case on a ready child: sent, judged, recorded. Returns false to stop the run. */
  private async replayCase(i: number): Promise<boolean> {
    const planned = this.plan[i]!;
    const t0 = performance.now();
    const ready = await this.children.ready();
    if ('why' in ready) {
      this.stoppedEarly = ready.why;
      this.notRun(i, ready.why, ready.stderr);
      return false;
    }
    const sent = await this.sendCase(ready.child, planned);
    const duration = performance.now() - t0;
    const r: CaseResult = { ...identity(planned), ...this.judge(sent, planned.v), duration_ms: Math.round(duration * 1000) / 1000 };
    if (FAILED_STATUSES.has(r.status)) {
      const stderr = sent.child.stderrSince(sent.mark, STDERR_MAX);
      if (stderr) r.stderr = stderr;
    }
    this.push(r);
    this.children.lastAnswered = sent.out.kind === 'answer' && sent.out.value['case'] === planned.v.id ? r : null;
    if (this.opts.failFast && FAILED_STATUSES.has(r.status)) {
      this.stoppedEarly = `--fail-fast: stopped after ${r.id}`;
      return false;
    }
    return true;
  }

  /**
   * Sends the case. When the child dies with it, it may have exited on its own right after its
   * last answer, before it ever read this case: the case is sent once more to a fresh child. If
   * that child answers it, the exit belongs to the previous answer; if it dies again, to this case.
   */
  private async sendCase(first: Child, planned: Planned): Promise<Sent> {
    let child = first;
    let mark = child.stderrMark();
    let { out, hint } = await this.send(child, planned);
    let retried = '';
    if (out.kind === 'crash') {
      const previous = this.children.lastAnswered;
      const exit = { code: out.code, signal: out.signal };
      const s = await this.children.restart();
      if ('why' in s) {
        hint = s.why;
      } else {
        child = s.child;
        mark = child.stderrMark();
        ({ out, hint } = await this.send(child, planned));
        if (out.kind === 'answer') {
          if (previous) this.children.exitedAfter(previous, exit);
          else this.childHint = `the child exited${exitText(exit)} right after answering hello, before the first case`;
        } else if (out.kind === 'crash') {
          retried = ' (it did again on a fresh child, so this case is the one that makes it exit)';
        }
      }
    }
    return { out, child, mark, hint, retried };
  }

  /** Sends one case; on a timeout, probes the child for buffered output before it is killed. */
  private async send(child: Child, { c, v }: Planned): Promise<{ out: Outcome; hint: string }> {
    const out = await child.request({ cmd: c.command, case: v.id, ...v.input }, this.opts.timeoutMs);
    if (out.kind === 'timeout') return { out, hint: silenceHint(child, await child.probeBuffered(PROBE_MS)) };
    if (out.kind !== 'answer') child.kill();
    return { out, hint: '' };
  }

  /** The judgement of what came back: no answer, an answer for another case (the child is restarted), or the answer judged against its vector. */
  private judge({ out, child, hint, retried }: Sent, v: Vector): Judgement {
    if (out.kind !== 'answer') return judgeNoAnswer(out, retried, hint);
    if (out.value['case'] !== v.id) {
      child.kill();
      return judgeOutOfStep(out.value, v.id, this.children.lastAnswered?.id ?? null);
    }
    return v.kind === 'sign' ? judgeSign(v, out.value) : judgeVerify(v, out.value);
  }

  /** A case whose command the implementation does not declare. */
  private skip(planned: Planned): void {
    this.push({
      ...identity(planned),
      status: 'skip',
      got: null,
      diagnosis: `the implementation does not declare the ${planned.c.command} capability`,
      duration_ms: 0,
    });
  }

  /** The cases from `from` on, reported as not run, and why. */
  private notRun(from: number, why: string, stderr = ''): void {
    for (const planned of this.plan.slice(from)) {
      this.push({
        ...identity(planned),
        status: 'not_run',
        got: null,
        diagnosis: `not run: ${why}`,
        ...(stderr ? { stderr } : {}),
        duration_ms: 0,
      });
    }
  }

  private push(r: CaseResult): void {
    this.cases.push(r);
    this.opts.onCase?.(r, this.cases.length, this.plan.length);
  }
}
