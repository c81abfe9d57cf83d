// Which statuses the admin API, a seed and `pay-sandbox status` may move a transaction to: the
// interface's own (@pay/schema's terminal statuses), and another lower-case word only when asked
// for on purpose (`"unknown_status": true`, `--unknown-status`), to see how a client copes with a
// status it does not know. A typo (`execute`, `paid`) is refused with the status it most likely
// meant: taken silently, it would send a webhook no client expects. Never back to the first
// status: a transaction is created `new` once.
import { FIRST_STATUS, TERMINAL_STATUSES } from '@pay/schema/statuses';
import { nearest } from './nearest.js';

/** A status word as the sandbox takes it: lower case, digits and `_`, at most 32 characters. */
const STATUS_WORD = /^[a-z][a-z0-9_]{0,31}$/;

type Settable = (typeof TERMINAL_STATUSES)[number];

// What other payment APIs call the interface's statuses: `paid` means executed, though by
// spelling it is nearest to failed.
const SYNONYMS: Readonly<Record<string, Settable>> = {
  paid: 'executed',
  success: 'executed',
  succeeded: 'executed',
  successful: 'executed',
  complete: 'executed',
  completed: 'executed',
  settled: 'executed',
  approved: 'executed',
  captured: 'executed',
  declined: 'failed',
  rejected: 'failed',
  error: 'failed',
  errored: 'failed',
  timeout: 'expired',
  timed_out: 'expired',
};

/** The interface's statuses in words: `executed, failed or expired`. */
export const SETTABLE_STATUSES = `${TERMINAL_STATUSES.slice(0, -1).join(', ')} or ${TERMINAL_STATUSES.at(-1)}`;

/** The status of the interface a typed one most likely meant, or undefined. */
function meantStatus(typed: string): Settable | undefined {
  const word = typed.toLowerCase();
  return Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : (nearest(typed, TERMINAL_STATUSES) as Settable | undefined);
}

const isInterfaceStatus = (status: string): status is Settable => (TERMINAL_STATUSES as readonly string[]).includes(status);

/**
 * Why `status` cannot be set, as the end of a field error (`status <this>`), or undefined when it
 * can. `onPurpose`: a status outside the interface's was asked for on purpose; `optIn`: how the
 * caller asks for one (`"unknown_status": true`, `--unknown-status`), named in the refusal.
 */
export function statusProblem(status: unknown, onPurpose: boolean, optIn: string): string | undefined {
  if (typeof status === 'string' && isInterfaceStatus(status)) return undefined;
  if (status === FIRST_STATUS) return `cannot be ${FIRST_STATUS}: a transaction is created ${FIRST_STATUS}, once`;
  const guess = typeof status === 'string' ? meantStatus(status) : undefined;
  if (typeof status !== 'string' || !STATUS_WORD.test(status)) {
    const other = onPurpose ? `, or another lower-case word (a-z, 0-9, _; at most 32 characters) but ${FIRST_STATUS}` : '';
    return `must be ${SETTABLE_STATUSES}${other}${guess === undefined ? '' : `: did you mean ${guess}?`}`;
  }
  if (onPurpose) return undefined;
  const why = `${SETTABLE_STATUSES}; to send a status clients do not know on purpose, add ${optIn}`;
  return guess === undefined
    ? `is not one of the interface's statuses (${why})`
    : `is not one of the interface's statuses: did you mean ${guess}? (the interface's are ${why})`;
}
