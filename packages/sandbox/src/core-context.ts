// What the core made once for a sandbox and every request's handling reads (dispatch.ts,
// handle-request.ts): built by createCore (core.ts), passed along rather than closed over, so each
// step of a request's handling has a file of its own.
import type { Clock } from '@pay/clock';
import type { Names } from './names.js';
import type { SignInCodes } from './sign-in-codes.js';
import type { State } from './state.js';

export interface CoreContext {
  readonly state: State;
  readonly names: Names;
  readonly clock: Clock;
  /** The base URL clients call, when given (publicUrl, checked, without a trailing slash). */
  readonly publicUrl: string | undefined;
  /** Aborted when the sandbox closes: ends the sleeps of requests held by a `delay` fault. */
  readonly closing: AbortSignal;
  readonly adminToken: string;
  readonly signInCodes: SignInCodes;
  /** The one writer of log lines (masked, printable); undefined when no `log` was given. */
  readonly logger: ((line: string) => void) | undefined;
  /** Logs a failure of the sandbox's own without its message (which may carry a caller's text). */
  readonly onError: (error: unknown) => void;
}
