// Replays a suite against one implementation: one long-lived child, restarted when it hangs,
// crashes, prints something that is not an answer, or answers the wrong case.
import { Child, type Outcome } from './child.js';
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
} from './types.js';

/** The protocol's default per-request limit; also the least a child gets to start and say hello. */
export const DEFAULT_TIMEOUT_MS = 5000;

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
  /** stop restarting after this many cases in a row lost to the child (0: never give up) */
  giveUpAfter?: number;
  onCase?: (result: CaseResult, done: number, total: number) => void;
}

const STDERR_MAX = 4096;

function describeOutcome(o: Exclude<Outcome, { kind: 'answer' }>): string {
  switch (o.kind) {
    case 'timeout':
      return `no answer within ${o.ms} ms`;
    case 'crash':
      return `the child exited${o.code !== null ? ` with code ${o.code}` : ''}${o.signal ? ` on signal ${o.signal}` : ''}`;
    case 'bad_output':
      return `bad output (${o.why}): ${JSON.stringify(o.line.length > 200 ? `${o.line.slice(0, 200)}…` : o.line)}`;
  }
}

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

function expectedOf(v: Vector): unknown {
  return v.expected;
}

export async function runSuite(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const giveUpAfter = opts.giveUpAfter ?? 5;
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
  let firstStart = true;

  /** A running child that has answered hello, or the reason there is none. */
  const ensureChild = async (): Promise<{ child: Child } | { why: string; stderr: string }> => {
    if (child && !child.dead) return { child };
    if (child) {
      child.kill();
      result.restarts++;
    }
    const c = new Child({ argv: opts.argv, ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.env ? { env: opts.env } : {}) });
    child = c;
    try {
      await c.start();
    } catch (e) {
      if (firstStart) throw new HarnessError((e as Error).message);
      return { why: (e as Error).message, stderr: '' };
    }
    firstStart = false;
    const mark = c.stderrMark();
    // hello also covers the child's start-up (a runtime loading on a busy machine), so it gets at
    // least the protocol's default limit even when cases are given less.
    const helloMs = Math.max(opts.timeoutMs, DEFAULT_TIMEOUT_MS);
    const hello = parseHello(await c.request({ cmd: 'hello', protocol: PROTOCOL_VERSION }, helloMs));
    if (typeof hello === 'string') {
      c.kill();
      return { why: `hello failed: ${hello}`, stderr: c.stderrSince(mark, STDERR_MAX) };
    }
    if (!result.implementation.hello) result.implementation.hello = hello;
    return { child: c };
  };

  const base = (c: (typeof plan)[number]['c'], v: Vector) => ({
    id: v.id,
    category: c.category,
    command: c.command,
    description: v.description,
    flags: v.flags,
    expected: expectedOf(v),
  });

  const push = (r: CaseResult): void => {
    cases.push(r);
    opts.onCase?.(r, cases.length, plan.length);
  };

  // The first start: an implementation that cannot say hello runs no case.
  let first = await ensureChild();
  if ('why' in first) {
    first = await ensureChild(); // one more try
  }
  let capabilities = new Set<string>();
  if ('why' in first) {
    result.implementation.hello_error = first.why;
    for (const { c, v } of plan) {
      push({
        ...base(c, v),
        status: 'error',
        got: null,
        diagnosis: `not run: the implementation did not start (${first.why})`,
        ...(first.stderr ? { stderr: first.stderr } : {}),
        duration_ms: 0,
      });
    }
  } else {
    capabilities = new Set(result.implementation.hello?.capabilities ?? []);
    let lostInARow = 0;
    let previousId: string | null = null;
    for (let i = 0; i < plan.length; i++) {
      const { c, v } = plan[i]!;
      if (!capabilities.has(c.command)) {
        push({ ...base(c, v), status: 'skip', got: null, diagnosis: `the implementation does not declare the ${c.command} capability`, duration_ms: 0 });
        continue;
      }
      if (giveUpAfter > 0 && lostInARow >= giveUpAfter) {
        result.stopped_early = `gave up after ${lostInARow} cases in a row lost to the child (timeouts, crashes or bad output)`;
        for (const rest of plan.slice(i)) {
          push({ ...base(rest.c, rest.v), status: 'error', got: null, diagnosis: `not run: ${result.stopped_early}`, duration_ms: 0 });
        }
        break;
      }
      const t0 = performance.now();
      const ready = await ensureChild();
      if ('why' in ready) {
        lostInARow++;
        push({
          ...base(c, v),
          status: 'error',
          got: null,
          diagnosis: `could not restart the implementation: ${ready.why}`,
          ...(ready.stderr ? { stderr: ready.stderr } : {}),
          duration_ms: performance.now() - t0,
        });
        if (opts.failFast) break;
        continue;
      }
      const ch = ready.child;
      const mark = ch.stderrMark();
      const out = await ch.request({ cmd: c.command, case: v.id, ...v.input }, opts.timeoutMs);
      const duration = performance.now() - t0;
      let j: Judgement;
      if (out.kind !== 'answer') {
        lostInARow++;
        ch.kill();
        const status = out.kind === 'timeout' ? 'timeout' : out.kind === 'crash' ? 'crash' : 'error';
        j = { status, got: out.kind === 'bad_output' ? { output: out.line.slice(0, 1000) } : null, diagnosis: `${describeOutcome(out)}; the child was restarted` };
      } else if (out.value['case'] !== v.id) {
        lostInARow++;
        ch.kill();
        const again = previousId !== null && out.value['case'] === previousId;
        j = {
          status: 'error',
          got: out.value,
          diagnosis: again
            ? `the answer is for the previous case ${JSON.stringify(previousId)} again, not ${JSON.stringify(v.id)}: a second line after an answer puts the child out of step; it was restarted`
            : `the answer is for case ${JSON.stringify(out.value['case'])}, not ${JSON.stringify(v.id)} (out of step); the child was restarted`,
        };
      } else {
        lostInARow = 0;
        j = v.kind === 'sign' ? judgeSign(v, out.value) : judgeVerify(v, out.value);
      }
      previousId = v.id;
      const r: CaseResult = { ...base(c, v), ...j, duration_ms: Math.round(duration * 1000) / 1000 };
      if (FAILED_STATUSES.has(r.status)) {
        const stderr = ch.stderrSince(mark, STDERR_MAX);
        if (stderr) r.stderr = stderr;
      }
      push(r);
      if (opts.failFast && FAILED_STATUSES.has(r.status)) {
        result.stopped_early = `--fail-fast: stopped after ${r.id}`;
        break;
      }
    }
  }
  const last = child as Child | null;
  if (last) await last.close(500);
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
