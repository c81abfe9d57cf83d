// Which statuses the admin API and a seed may move a transaction to: any lower-case word the
// service could send (one of @pay/schema's known statuses, or one nobody here knows, to see how a
// client copes with it), but never back to the first status: a transaction is created `new` once.
import { FIRST_STATUS, TERMINAL_STATUSES } from '@pay/schema/statuses';

/** A status word as the sandbox takes it: lower case, digits and `_`, at most 32 characters. */
const STATUS_WORD = /^[a-z][a-z0-9_]{0,31}$/;

/** What a settable status is, in words: the end of a field error about one. */
export const SETTABLE_STATUS_RULE = `must be ${TERMINAL_STATUSES.join(', ')}, or another lower-case status other than ${FIRST_STATUS}`;

/** True for a status the admin API and a seed may set (see {@link SETTABLE_STATUS_RULE}). */
export function isSettableStatus(status: unknown): status is string {
  return typeof status === 'string' && STATUS_WORD.test(status) && status !== FIRST_STATUS;
}
