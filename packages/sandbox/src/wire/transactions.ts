// The sandbox's wire vocabulary: what its admin API sends and takes, as types, in files that import
// nothing of the server. The server (admin.ts, timeline.ts...) builds these shapes and the admin
// client (admin-client/) reads them; both depend on these files, never on each other, so a client
// loads neither the server nor @pay/sign. This file: transactions, their statuses and causes.
import type { PayinLookupResponse, PayoutLookupResponse, TERMINAL_STATUSES, TransactionKind } from '@pay/schema';

export type { TransactionKind };

/** The lookup record of a kind: what status changes and resends answer. */
export type LookupOf<K extends TransactionKind> = K extends 'payin' ? PayinLookupResponse : PayoutLookupResponse;

/**
 * A status to move a transaction to: one of `@pay/schema`'s terminal statuses, or, with
 * {@link SetStatusOptions.unknownStatus}, any other lower-case word but the first status (`new`),
 * to see how a client copes with one it does not know.
 */
export type AdminStatus = (typeof TERMINAL_STATUSES)[number] | (string & {});

/** Options of a status change. */
export interface SetStatusOptions {
  /**
   * True to set a status outside the interface's on purpose (`processing`, to test a client with a
   * status it does not know): without it such a status is refused as a likely typo. Sent as
   * `"unknown_status": true`.
   */
  unknownStatus?: boolean | undefined;
}

/** The error of a `failed` status; the sandbox fills in what is left out (`declined`, "The transaction was declined."). */
export interface StatusError {
  code?: string;
  message?: string;
}

/** Every {@link Cause}. */
export const CAUSES = ['create', 'seed', 'card_push', 'payment_page', 'dashboard', 'admin_api', 'clock'] as const;

/**
 * What made a transaction change: its create request, a seed file, the card push, the hosted
 * payment page, a button of the dashboard, a call to the admin API, or the schedule clock (expiry,
 * and a payout's execution).
 */
export type Cause = (typeof CAUSES)[number];

/** What only the sandbox knows about a transaction, beyond its lookup record. */
interface SandboxOnly {
  merchant_id: string;
  /** The last four digits of the card pushed, or null. */
  card_last4: string | null;
}

/** A transaction as `GET /_sandbox/transactions` lists it: the lookup record, its kind, merchant and card. */
export type SandboxTransaction =
  | (PayinLookupResponse & SandboxOnly & { kind: 'payin' })
  | (PayoutLookupResponse & SandboxOnly & { kind: 'payout' });
