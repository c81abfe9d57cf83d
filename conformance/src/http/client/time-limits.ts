// The SDK's time limits, judged by the runner's own clock and log rather than by what the SDK
// answered: an attempt ends at timeout_ms, its body included, and a whole call (retries and
// reconciliation included) at total_timeout_ms. answer.ts judges the answer itself.
import type { Exchange } from './proxy.js';

/** A finding about a time limit: a mistake name and what happened. */
export interface TimeFinding {
  mistake: string;
  text: string;
}

/**
 * How long past total_timeout_ms a call may still answer before it is said to ignore it: room for
 * a loaded machine's delays, far below what a call that never looks at its limit takes.
 */
const TOTAL_GRACE_MS = 2000;

/**
 * An answer the proxy trickled (its head at once, its body in pieces) that the SDK read to its end
 * after timeout_ms: no single read waited that long, so a limit on each read never fired.
 */
export function judgeTrickled(log: readonly Exchange[], timeoutMs: number): TimeFinding[] {
  for (const ex of log) {
    if (ex.action !== 'trickle' || ex.delivered?.kind !== 'answer' || ex.deliveredAt === null) continue;
    const took = ex.deliveredAt - ex.at;
    if (took <= timeoutMs) continue;
    return [
      {
        mistake: 'timeout_per_read',
        text: `read an answer to its end ${took} ms after the request arrived, past timeout_ms (${timeoutMs} ms): its status and headers came at once and its body in pieces, none long in coming, so the SDK's time limit bounds each read (a socket timeout: http.client's or requests' timeout=, Node's req.setTimeout or socket.setTimeout), or there is none. timeout_ms bounds the whole attempt, the body included: check a deadline across reads (set the socket timeout to the time left before each read) or abort the request from a timer`,
      },
    ];
  }
  return [];
}

/**
 * A call that ran past total_timeout_ms: it answered later than the limit and its grace, or it never
 * answered (the runner stopped it) and was still sending requests by then. `answeredAt` is null
 * when no answer came.
 */
export function judgeTotal(startedAt: number, answeredAt: number | null, totalMs: number, log: readonly Exchange[]): TimeFinding | null {
  const limit = startedAt + totalMs + TOTAL_GRACE_MS;
  const advice =
    'total_timeout_ms bounds the whole call, retries and reconciliation included: check the time left before each retry, lookup and wait, and answer when it runs out (outcome unknown for a create whose answer was lost and not found)';
  if (answeredAt !== null) {
    if (answeredAt <= limit) return null;
    return {
      mistake: 'total_timeout_ignored',
      text: `answered ${answeredAt - startedAt} ms after the command, past total_timeout_ms (${totalMs} ms): ${advice}`,
    };
  }
  const late = log.filter((ex) => ex.at > limit);
  if (late.length === 0) return null;
  const last = late[late.length - 1]!;
  return {
    mistake: 'total_timeout_ignored',
    text: `was still sending requests ${last.at - startedAt} ms after the command (${late.length} of them past total_timeout_ms, ${totalMs} ms, and its grace) and never answered: ${advice}`,
  };
}
