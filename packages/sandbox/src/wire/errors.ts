// The error body of every refusal, by the service endpoints and the admin API alike: part of the
// sandbox's wire vocabulary (see transactions.ts), so a client reads it without loading the server.

/** One problem with a request, at a dotted field path (`''` for the body itself). */
export interface FieldError {
  path: string;
  message: string;
}

/** The body of every error answer: a stable `code`, a sentence, and field errors for a 400. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    /** The likely mistake behind the refusal, in words, when the sandbox can tell (a signature's, say). */
    hint?: string;
    errors?: readonly FieldError[];
    id?: string;
  };
}

// The last entry of a list @pay/schema cut at its maximum (100 errors): `and 150 more errors`.
const MORE_ERRORS = /^and (\d+) more errors?$/;

/**
 * How many errors a list of field errors stands for: one per entry, except the last entry of a
 * list @pay/schema cut at its maximum, `{ path: '', message: 'and N more errors' }`, which stands
 * for N. A 400's errors are such a list, so this is what its message counts.
 */
export function errorCount(errors: readonly unknown[]): number {
  const last = errors.at(-1) as { path?: unknown; message?: unknown } | null | undefined;
  const more = last?.path === '' && typeof last.message === 'string' ? MORE_ERRORS.exec(last.message) : null;
  return more === null ? errors.length : errors.length - 1 + Number(more[1]);
}
