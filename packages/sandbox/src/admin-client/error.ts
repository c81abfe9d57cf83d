// The one error of the admin client. Its `code` is the sandbox's (`not_found`) when the sandbox
// answered with its error body, else the client's own: `network_error`, `timeout`,
// `invalid_response`.
import type { FieldError } from '../wire/errors.js';

/** What went wrong with an admin call, as {@link SandboxAdminError} carries it. */
export interface SandboxAdminErrorInit {
  status: number | null;
  code: string;
  message: string;
  /** The sandbox's own `error.message`, when it answered with its error body. */
  reason?: string | undefined;
  errors?: readonly FieldError[] | undefined;
  hint?: string | undefined;
  cause?: unknown;
}

// Another copy of this package (two versions installed side by side) has its own class: a brand,
// not `instanceof`, tells its errors apart (isSandboxAdminError).
const BRAND = Symbol.for('@pay/sandbox/SandboxAdminError');

/**
 * An admin call that failed. `status` and `code` are the sandbox's (`404`, `not_found`) when it
 * answered with its error body; otherwise `code` is this client's: `network_error` (no answer:
 * `cause` holds why), `timeout`, or `invalid_response` (an answer that is not the sandbox's JSON,
 * say from another server at that address).
 */
export class SandboxAdminError extends Error {
  /** The HTTP status of the answer; null when there was none. */
  readonly status: number | null;
  /** The sandbox's `error.code`, or `network_error`, `timeout`, `invalid_response`. */
  readonly code: string;
  /**
   * The sandbox's own sentence (`error.message`) when it answered with its error body; the
   * `message` adds its field errors and hint to it.
   */
  readonly reason: string | undefined;
  /** The field errors of a 400 (`error.errors`: each path and message, the first 20); empty otherwise. */
  readonly errors: readonly FieldError[];
  /** The sandbox's `error.hint`, when it gave one. */
  readonly hint: string | undefined;

  constructor(init: SandboxAdminErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SandboxAdminError';
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason;
    this.errors = init.errors ?? [];
    this.hint = init.hint;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * True for a {@link SandboxAdminError}, from this copy of `@pay/sandbox` or any other (where
 * `instanceof` does not hold).
 */
export function isSandboxAdminError(value: unknown): value is SandboxAdminError {
  return value instanceof Error && (value as unknown as Record<symbol, unknown>)[BRAND] === true;
}
