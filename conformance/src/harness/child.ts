// The implementation under test as one long-lived child process speaking JSON lines on stdio.
// Spawned without a shell (from the words of command-line.ts), answers framed by "\n", one time
// limit per request, stderr kept in a bounded buffer, and the whole process group killed when
// the child misbehaves so that a wrapper (pnpm, sh) cannot leave the real child behind.
import { spawn, type ChildProcess } from 'node:child_process';

/** What one request came back with: an answer, no answer in time, the child's exit, or a line that is not an answer. */
export type Outcome =
  | { kind: 'answer'; value: Record<string, unknown>; line: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'crash'; code: number | null; signal: string | null }
  | { kind: 'bad_output'; line: string; why: string };

/** How the child is started and how much of its output is kept. */
export interface ChildOptions {
  argv: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** bytes of stderr kept (the most recent) */
  stderrLimit?: number;
  /** longest stdout line accepted, in bytes */
  maxLineBytes?: number;
}

const DEFAULT_STDERR_LIMIT = 64 * 1024;
const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const GROUP_KILL = process.platform !== 'win32';

interface Pending {
  resolve: (o: Outcome) => void;
  timer: NodeJS.Timeout;
}

/** One child process: started once, asked one request at a time, killed with its process group. */
export class Child {
  readonly argv: string[];
  private proc: ChildProcess | null = null;
  private pending: Pending | null = null;
  private queued: Outcome[] = [];
  private buf: Buffer[] = [];
  private bufLen = 0;
  private stderrChunks: Buffer[] = [];
  private stderrKept = 0;
  /** total stderr bytes ever received */
  private stderrTotal = 0;
  /** total stdout bytes ever received */
  private stdoutTotal = 0;
  private exitInfo: { code: number | null; signal: string | null } | null = null;
  private readonly stderrLimit: number;
  private readonly maxLine: number;
  private readonly opts: ChildOptions;
  dead = false;
  private killedByRunner = false;

  constructor(opts: ChildOptions) {
    this.opts = opts;
    this.argv = opts.argv;
    this.stderrLimit = opts.stderrLimit ?? DEFAULT_STDERR_LIMIT;
    this.maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE;
  }

  /** Resolves once the process is running; rejects when it cannot be started at all (e.g. ENOENT). */
  start(): Promise<void> {
    const [cmd, ...args] = this.argv;
    return new Promise((resolve, reject) => {
      const proc = spawn(cmd!, args, {
        cwd: this.opts.cwd,
        env: this.opts.env ?? process.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: GROUP_KILL,
        windowsHide: true,
      });
      this.proc = proc;
      let started = false;
      proc.once('spawn', () => {
        started = true;
        resolve();
      });
      proc.once('error', (err) => {
        this.dead = true;
        if (!started) reject(new Error(`cannot start ${JSON.stringify(cmd)}: ${err.message}`));
        else this.settle({ kind: 'crash', code: null, signal: null });
      });
      proc.stdin!.on('error', () => {
        /* EPIPE when the child is gone: the exit handler reports it */
      });
      proc.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
      proc.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
      proc.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.dead = true;
        // Call the case a crash once the last stdout/stderr bytes are in ('close': the pipes are
        // drained), or after a second if a grandchild keeps them open.
        const crash = () => this.settle({ kind: 'crash', code, signal });
        const grace = setTimeout(crash, 1000);
        grace.unref();
        proc.once('close', () => {
          clearTimeout(grace);
          crash();
        });
      });
    });
  }

  get exited(): { code: number | null; signal: string | null } | null {
    return this.exitInfo;
  }

  /** How the child exited when it did so by itself (not killed by the runner); null otherwise. */
  get exitedOnItsOwn(): { code: number | null; signal: string | null } | null {
    return this.killedByRunner ? null : this.exitInfo;
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutTotal += chunk.length;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      const part = chunk.subarray(start, nl);
      const line = this.bufLen ? Buffer.concat([...this.buf, part]) : part;
      this.buf = [];
      this.bufLen = 0;
      this.onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.buf.push(rest);
      this.bufLen += rest.length;
      if (this.bufLen > this.maxLine) {
        const head = Buffer.concat(this.buf).subarray(0, 200).toString('utf8');
        this.buf = [];
        this.bufLen = 0;
        this.deliver({ kind: 'bad_output', line: head, why: `a line longer than ${this.maxLine} bytes` });
      }
    }
  }

  private onLine(bytes: Buffer): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--; // tolerate CRLF
    const line = bytes.subarray(0, end).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.deliver({ kind: 'bad_output', line, why: 'not JSON' });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.deliver({ kind: 'bad_output', line, why: 'not a JSON object' });
      return;
    }
    this.deliver({ kind: 'answer', value: value as Record<string, unknown>, line });
  }

  private onStderr(chunk: Buffer): void {
    this.stderrTotal += chunk.length;
    this.stderrChunks.push(chunk);
    this.stderrKept += chunk.length;
    while (this.stderrKept > this.stderrLimit && this.stderrChunks.length > 1) {
      this.stderrKept -= this.stderrChunks.shift()!.length;
    }
  }

  private deliver(o: Outcome): void {
    if (this.pending) this.settle(o);
    else this.queued.push(o);
  }

  private settle(o: Outcome): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(o);
  }

  /** A mark for stderrSince(). */
  stderrMark(): number {
    return this.stderrTotal;
  }

  /** Bytes written to stdout and stderr so far. */
  get written(): { stdout: number; stderr: number } {
    return { stdout: this.stdoutTotal, stderr: this.stderrTotal };
  }

  /** stderr received since the mark, at most `max` bytes (the most recent). */
  stderrSince(mark: number, max = 4096): string {
    const all = Buffer.concat(this.stderrChunks);
    const firstKept = this.stderrTotal - all.length;
    const from = Math.max(0, mark - firstKept);
    let out = all.subarray(from);
    let prefix = '';
    if (out.length > max) {
      out = out.subarray(out.length - max);
      prefix = '…';
    }
    return prefix + out.toString('utf8');
  }

  /** Sends one request and waits for its one answer line. */
  request(message: unknown, timeoutMs: number): Promise<Outcome> {
    if (this.pending) throw new Error('a request is already in flight');
    const queued = this.queued.shift();
    // A line the child printed before being asked is an answer to nothing: the stream is out of step.
    if (queued) {
      this.queued = [];
      const line = queued.kind === 'answer' || queued.kind === 'bad_output' ? queued.line : '';
      return Promise.resolve({
        kind: 'bad_output',
        line,
        why: 'a line printed while no request was waiting (an extra answer to the previous request?)',
      });
    }
    if (this.dead || !this.proc) {
      return Promise.resolve({ kind: 'crash', code: this.exitInfo?.code ?? null, signal: this.exitInfo?.signal ?? null });
    }
    return new Promise((resolve) => {
      // The child is left running on a timeout: the caller may probe it (probeBuffered) first.
      const timer = setTimeout(() => this.settle({ kind: 'timeout', ms: timeoutMs }), timeoutMs);
      this.pending = { resolve, timer };
      this.proc!.stdin!.write(`${JSON.stringify(message)}\n`);
    });
  }

  /**
   * After a request timed out: closes the child's stdin and waits, at most `graceMs`, for it to
   * exit. A child that buffers its stdout writes its pending answers when it exits at the end of
   * its input, which tells "never flushes" apart from "never answers". Returns the lines that came
   * out, then kills whatever is left.
   */
  async probeBuffered(graceMs: number): Promise<string[]> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.stdin?.end();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, graceMs);
        proc.once('close', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    this.kill();
    const late = this.queued.map((o) => (o.kind === 'answer' || o.kind === 'bad_output' ? o.line : '')).filter(Boolean);
    this.queued = [];
    return late;
  }

  kill(): void {
    const proc = this.proc;
    this.dead = true;
    if (!proc) return;
    if (proc.exitCode === null && proc.signalCode === null) this.killedByRunner = true;
    // The group too, even after the leader exited: a wrapper's children may still hold on.
    if (GROUP_KILL && proc.pid !== undefined) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        /* no such group: nothing left */
      }
    }
    if (proc.exitCode === null && proc.signalCode === null) {
      try {
        proc.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  /** Says bye, closes stdin and waits a little for a clean exit; kills the child otherwise. */
  async close(graceMs = 1000): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    if (!this.dead && !this.pending) {
      const bye = this.request({ cmd: 'bye' }, graceMs).catch(() => undefined);
      await bye;
    }
    proc.stdin?.end();
    if (proc.exitCode === null && proc.signalCode === null) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.kill();
          resolve();
        }, graceMs);
        t.unref();
        proc.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    // Reap anything the child left in its process group.
    this.kill();
    proc.stdout?.destroy();
    proc.stderr?.destroy();
  }
}
