// The facts of a transaction's life that every package needs and none may restate: its kinds, its
// statuses, which of them are final. The interface documents `new` and `executed`; `failed` (with
// `error_code` and `error_message`) and `expired` (`expires_at` passed while `new`) are the other
// two this toolkit knows (docs/design.md). The set stays open: the service may send a status
// nobody here knows, and every reader takes it for "not final yet".

/** The two kinds of transaction, as they appear in paths and in the toolkit's records. */
export const TRANSACTION_KINDS = Object.freeze(['payin', 'payout'] as const);

/** A payin (deposit) or a payout (withdrawal). */
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** The status every transaction is created with. */
export const FIRST_STATUS = 'new';

/** The statuses after which a transaction never changes, in no particular order. */
export const TERMINAL_STATUSES = Object.freeze(['executed', 'failed', 'expired'] as const);

/** The statuses this toolkit knows: the first, then the terminal ones. */
export const KNOWN_STATUSES = Object.freeze([FIRST_STATUS, ...TERMINAL_STATUSES] as const);

/** One of the statuses this toolkit knows. */
export type KnownStatus = (typeof KNOWN_STATUSES)[number];

/** True for `payin` and `payout`, and nothing else. */
export function isTransactionKind(value: unknown): value is TransactionKind {
  return (TRANSACTION_KINDS as readonly unknown[]).includes(value);
}

/** True for executed, failed and expired: a status after which the transaction never changes. */
export function isTerminalStatus(status: unknown): boolean {
  return (TERMINAL_STATUSES as readonly unknown[]).includes(status);
}
