// A sandbox's state as a state file holds it and `GET /_sandbox/snapshot` answers it. The server
// checks a file against its schema (snapshot.ts), whose type the compiler holds equal to this one.
import type { Cause } from './transactions.js';

/** A transaction as a state file saves it: times in ms on the schedule clock. */
export interface SnapshotTransaction {
  kind: 'payin' | 'payout';
  id: string;
  merchantId: string;
  /** Which create endpoint made it: the legacy payin answers without `method`. */
  api: 'v1' | 'v2';
  referenceId: string | null;
  status: string;
  amount: number;
  /** The amount as decimal digits, for exact fee arithmetic. */
  amountDigits: string;
  currency: string;
  method: string | null;
  language: string | null;
  webhookUrl: string | null;
  redirectUrls: { success?: string; fail?: string; in_progress?: string };
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  errorCode: string | null;
  errorMessage: string | null;
  fee: { amount: number; currency: string } | null;
  nextAction: { type: string; url: string };
  cardToken: string | null;
  cardTokenSpent: boolean;
  cardLast4: string | null;
  hiddenUntil: number;
  /** The customer's name and email (never card data). */
  customer: string;
  /** Its status changes and resends, oldest first. */
  history: { what: 'status' | 'resend'; status: string; at: number; cause: Cause }[];
}

/** A webhook attempt as a state file saves it. */
export interface SnapshotAttempt {
  transactionId: string;
  /** Which delivery it belongs to (one per status change or resend). */
  delivery: number;
  status: string;
  url: string;
  attempt: number;
  dueAt: number;
  sentAt: number | null;
  responseStatus: number | null;
  error: string | null;
}

/** A state file. */
export interface SandboxSnapshot {
  format: 'pay-sandbox-state';
  version: 1;
  /** When it was written, ISO 8601 (informative). */
  saved_at: string;
  /** How far the schedule clock was ahead of wall time, in ms. */
  clock_offset_ms: number;
  transactions: SnapshotTransaction[];
  deliveries: SnapshotAttempt[];
}
