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
