// What a client's error proves, and nothing more. The journal decides on an error of @pay/client
// by its brand and kind (`isPayError`), never by `instanceof`: the client given to the journal may
// come from another installed copy of the package (packages pin each other by exact version), whose
// classes are not this copy's. And it takes what it cannot prove for the unsafe case: an error it
// does not recognise, from any copy or none, proves nothing, so a create that ended in it is
// "outcome unknown" and decided by a lookup, never taken for "not created" and sent again.
import { isPayError } from '@pay/client';

/**
 * Statuses of a refusal that still leave the outcome open: 408 (the server gave up reading, maybe
 * after acting), 409 (something already holds the reference_id), 425 and 429 (not processed now,
 * says the server, but nothing proves it of an earlier attempt).
 */
const NOT_A_REFUSAL = new Set([408, 409, 425, 429]);

/**
 * True only when `error` proves the create it ended was never created: refused by the client
 * before anything was sent (`invalid_request`), or answered by the service with a 4xx refusal.
 */
export function provesNotCreated(error: unknown): boolean {
  if (isPayError(error, 'invalid_request')) return true;
  if (!isPayError(error, 'api')) return false;
  const status = Number(error.status);
  return status >= 400 && status < 500 && !NOT_A_REFUSAL.has(status);
}

/** When a create the client could not decide becomes decidable (its `decidableAt`), if the error says. */
export function decidableAtOf(error: unknown): Date | undefined {
  if (!isPayError(error, 'outcome_unknown')) return undefined;
  // From another realm a Date is not this realm's Date: read it by its time.
  const time = new Date(error.decidableAt as unknown as string | number | Date).getTime();
  return Number.isFinite(time) ? new Date(time) : undefined;
}

/** True only for the service's own answer that no transaction has this id or reference (a JSON 404). */
export const provesMissing = (error: unknown): boolean => isPayError(error, 'not_found');

/** True for the service's 429: too many requests now. */
export const isRateLimited = (error: unknown): boolean => isPayError(error, 'api') && error.status === 429;

/** An error's name and message, short, for `last_error` and reports (the client's and the journal's carry nothing secret). */
export function describe(error: unknown): string {
  const e = error as { name?: unknown; message?: unknown } | null;
  const text = e !== null && typeof e === 'object' && typeof e.message === 'string' ? `${String(e.name)}: ${e.message}` : String(error);
  return text.slice(0, 500);
}
