// What the runner says when a request got no answer (a timeout, an exit, bad output) or an answer
// for another case, and what a silent child's output tells about it. Shared by hello and the cases.
import type { Child, Outcome } from './child.js';
import type { Judgement } from './judgement.js';

/** Everything a request can come back with but an answer. */
export type NoAnswer = Exclude<Outcome, { kind: 'answer' }>;

/** How a process exited, as words: " with code 1", " on signal SIGKILL", or nothing. */
export const exitText = (e: { code: number | null; signal: string | null }): string =>
  `${e.code !== null ? ` with code ${e.code}` : ''}${e.signal ? ` on signal ${e.signal}` : ''}`;

/** What happened instead of an answer, in a few words. */
export function describeOutcome(o: NoAnswer): string {
  switch (o.kind) {
    case 'timeout':
      return `no answer within ${o.ms} ms`;
    case 'crash':
      return `the child exited${exitText(o)}`;
    case 'bad_output':
      return `bad output (${o.why}): ${JSON.stringify(o.line.length > 200 ? `${o.line.slice(0, 200)}…` : o.line)}`;
  }
}

/**
 * A case that got no answer: timed out, crashed or errored, with what happened, why it was sent
 * again (`retried`) and what the child's behaviour suggests (`hint`).
 */
export function judgeNoAnswer(o: NoAnswer, retried: string, hint: string): Judgement {
  return {
    status: o.kind === 'timeout' ? 'timeout' : o.kind === 'crash' ? 'crash' : 'error',
    got: o.kind === 'bad_output' ? { output: o.line.slice(0, 1000) } : null,
    diagnosis: `${describeOutcome(o)}${retried}${hint ? `; ${hint}` : ''}`,
  };
}

/**
 * An answer for another case than `id`: the stream is out of step. `previous` is the case the
 * child answered before, when it answered that one again (a second line after an answer).
 */
export function judgeOutOfStep(answer: Record<string, unknown>, id: string, previous: string | null): Judgement {
  const again = previous !== null && answer['case'] === previous;
  return {
    status: 'error',
    got: answer,
    diagnosis: again
      ? `the answer is for the previous case ${JSON.stringify(previous)} again, not ${JSON.stringify(id)}: a second line after an answer puts the child out of step; it was restarted`
      : `the answer is for case ${JSON.stringify(answer['case'])}, not ${JSON.stringify(id)} (out of step); the child was restarted`,
  };
}

/**
 * What a child that timed out tells by what it wrote: its answer arriving only once stdin closed
 * (it buffers stdout), or nothing on stdout at all. `late` is what came out after stdin closed.
 */
export function silenceHint(child: Child, late: string[]): string {
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
