// The children of one run: the first one started with its hello, the ones that replace it within
// the run's restart budget, and what the current one answered last, so that an exit is put on the
// case it belongs to.
import { Child } from './child.js';
import { HELLO, parseHello } from './hello.js';
import { silenceHint } from './outcome.js';
import { HarnessError } from '../errors.js';
import type { CaseResult, Hello } from '../types.js';

/** How long a child that timed out gets to exit once its stdin is closed (see Child.probeBuffered). */
export const PROBE_MS = 1000;
/** Bytes of a child's stderr kept on a failed case. */
export const STDERR_MAX = 4096;

/** A child ready for a case, or why there is none and what the one that failed wrote on stderr. */
export type Ready = { child: Child } | { why: string; stderr: string };

/** How children are started, and how often they may be. */
export interface ChildrenOptions {
  argv: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** the per-request limit */
  timeoutMs: number;
  /** the limit for a child to start and answer hello */
  startTimeoutMs: number;
  /** restarts allowed over the whole run */
  maxRestarts: number;
  /**
   * The restarts spent over the whole run, shared by every Children of it (client mode runs two
   * copies of the child side by side, and the budget is the run's, not each copy's)
   */
  spent?: { restarts: number };
}

/** The child processes of one run, one at a time. */
export class Children {
  /** the last child started (killed, once it has been replaced or could not be) */
  private current: Child | null = null;
  /** the first hello answered */
  hello: Hello | null = null;
  restarts = 0;
  /** the case the current child answered last (null: only hello) */
  lastAnswered: CaseResult | null = null;
  /** how many cases a child exited right after answering */
  exitsAfterAnswer = 0;

  constructor(private readonly opts: ChildrenOptions) {}

  /**
   * Starts a child and says hello. A first child that cannot be started at all is the harness's
   * failure (HarnessError); any other failure is returned as the reason.
   */
  async start(first: boolean): Promise<Ready> {
    const o = this.opts;
    const c = new Child({ argv: o.argv, ...(o.cwd ? { cwd: o.cwd } : {}), ...(o.env ? { env: o.env } : {}) });
    try {
      await c.start();
    } catch (e) {
      if (first) throw new HarnessError((e as Error).message);
      return { why: (e as Error).message, stderr: '' };
    }
    const mark = c.stderrMark();
    const out = await c.request(HELLO, o.startTimeoutMs);
    const hello = parseHello(out);
    if (typeof hello === 'string') {
      const hint = out.kind === 'timeout' ? silenceHint(c, await c.probeBuffered(PROBE_MS)) : '';
      c.kill();
      return { why: `hello failed: ${hello}${hint ? `; ${hint}` : ''}`, stderr: c.stderrSince(mark, STDERR_MAX) };
    }
    this.hello ??= hello;
    this.current = c;
    this.lastAnswered = null;
    return { child: c };
  }

  /** A fresh child in place of the current one, within the restart budget; the reason when there is none. */
  async restart(): Promise<Ready> {
    this.current?.kill();
    const spent = this.opts.spent ?? this;
    if (spent.restarts >= this.opts.maxRestarts) {
      return {
        why: `the child was restarted ${spent.restarts} time(s), the whole run's budget (--max-restarts ${this.opts.maxRestarts})`,
        stderr: '',
      };
    }
    if (this.opts.spent) this.opts.spent.restarts++;
    this.restarts++;
    const s = await this.start(false);
    return 'why' in s ? { why: `could not restart the implementation: ${s.why}`, stderr: s.stderr } : s;
  }

  /**
   * The child for the next case: the current one, or a fresh one when it is gone. A child that
   * exited after its last answer, with no case in flight, exited after that answer's case, not
   * before the next one: the exit is put on it.
   */
  async ready(): Promise<Ready> {
    const c = this.current;
    if (c && !c.dead) return { child: c };
    if (c?.exitedOnItsOwn && this.lastAnswered) this.exitedAfter(this.lastAnswered, c.exitedOnItsOwn);
    return this.restart();
  }

  /** Records that a child exited right after answering the case `r`. */
  exitedAfter(r: CaseResult, exit: { code: number | null; signal: string | null }): void {
    r.child_exited_after = exit;
    this.exitsAfterAnswer++;
  }

  /** Says bye to the last child and lets it exit (kills it otherwise). */
  async close(): Promise<void> {
    await this.current?.close(500);
  }
}
