// Reading the sandbox's error body (`{"error": {code, message, errors?, hint?}}`), as its admin API
// and its service endpoints both answer a refusal. One reader, used by the admin client and by
// `pay-sandbox payin create`: what is taken from the answer is bounded and printable, as another
// server may answer at the address and the text ends up in logs and terminals.
import { errorCount, type FieldError } from '../wire/errors.js';

/** A refusal as the sandbox answered it: its status, error code, sentence, field errors and hint. */
export interface ErrorAnswer {
  status: number;
  code: string;
  /** The sandbox's own sentence (`error.message`). */
  reason: string;
  /** The first 20 field errors (KEPT_ERRORS), each cut at 200 characters. */
  errors: FieldError[];
  hint: string | undefined;
  /** One line for a log: the sentence, the first field errors and the hint. */
  summary: string;
}

/** How many field errors an {@link ErrorAnswer} keeps. */
const KEPT_ERRORS = 20;
const SHOWN_ERRORS = 5;
const FIELD_CHARS = 200;
const HINT_CHARS = 500;

/**
 * The refusal an answer's text stands for, or undefined when it is not the sandbox's error body
 * (not JSON, or no `error` with a string `code` and `message`).
 */
export function readErrorAnswer(status: number, text: string): ErrorAnswer | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (body as { error?: unknown } | null)?.error as { code?: unknown; message?: unknown; errors?: unknown; hint?: unknown };
  if (error === null || typeof error !== 'object' || typeof error.code !== 'string' || typeof error.message !== 'string') return undefined;
  const { code, message, errors, hint } = error as { code: string; message: string; errors?: unknown; hint?: unknown };
  const fields = Array.isArray(errors)
    ? errors
        .slice(0, KEPT_ERRORS)
        .filter(isFieldError)
        .map((e) => ({ path: bounded(e.path), message: bounded(e.message) }))
    : [];
  // The summary says all a log line needs: the sandbox's sentence, where the body was wrong, the hint.
  const shown = fields.slice(0, SHOWN_ERRORS).map((e) => (e.path === '' ? e.message : `${e.path}: ${e.message}`));
  const more = (Array.isArray(errors) ? errorCount(errors) : 0) - shown.length;
  if (shown.length > 0 && more > 0) shown.push(`and ${more} more`);
  const told = typeof hint === 'string' ? bounded(hint, HINT_CHARS) : undefined;
  return {
    status,
    code,
    reason: message,
    errors: fields,
    hint: typeof hint === 'string' ? hint : undefined,
    summary: `${bounded(message, HINT_CHARS)}${shown.length > 0 ? ` — ${shown.join('; ')}` : ''}${told === undefined ? '' : ` — hint: ${told}`}`,
  };
}

/** Text of an answer as an error shows it: control characters made spaces, cut at `max` characters. */
function bounded(text: string, max = FIELD_CHARS): string {
  const clean = text.slice(0, max + 1).replace(/\p{Cc}/gu, ' ');
  return clean.length > max ? `${clean.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')}…` : clean;
}

function isFieldError(value: unknown): value is FieldError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as FieldError).path === 'string' &&
    typeof (value as FieldError).message === 'string'
  );
}
