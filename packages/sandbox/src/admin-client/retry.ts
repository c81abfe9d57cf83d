// When an admin call that got no answer is sent once more. A keep-alive connection the sandbox
// closes just as the next request leaves on it fails that request with a reset although nothing
// went wrong (a known flake under load). Sending again is safe only for a request that cannot
// change anything twice: a GET, or one proven never to have reached the sandbox (the connection
// broke while being made, before any byte of the request went out). A POST that may have arrived
// is not sent again: `clock/advance` twice moves the clock twice.

import { RESET_CODES } from '../failure.js';

/** The errors in a failure's `cause` chain (fetch wraps the socket's error), at most a few deep. */
function chain(error: unknown): { code?: unknown; syscall?: unknown }[] {
  const out: { code?: unknown; syscall?: unknown }[] = [];
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    out.push(e as { code?: unknown; syscall?: unknown });
  }
  return out;
}

/**
 * True when a request that failed with `error` before any answer arrived is to be sent once more:
 * its connection was reset or closed, and the request is a GET or provably never left (the reset
 * came while connecting).
 */
export function sendAgain(method: string, error: unknown): boolean {
  const errors = chain(error);
  const reset = errors.some((e) => typeof e.code === 'string' && RESET_CODES.has(e.code));
  if (!reset) return false;
  return method === 'GET' || errors.some((e) => e.syscall === 'connect');
}
