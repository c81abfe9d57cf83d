// A sandbox's state as a state file holds it and `GET /_sandbox/snapshot` answers it. The server
// checks a file against its schema (snapshot.ts), whose type the compiler holds equal to this one,
// and keeps its records in these shapes (records.ts's Transaction adds only in-memory order).
import type { Cause } from './transactions.js';

/**
 * One thing that happened to a transaction that neither the request log nor the delivery log
 * records: a status change with its cause, or its current status's webhook sent again (a resend).
 */
export interface SnapshotHistoryEntry {
  what: 'status' | 'resend';
  /** The status it moved to; for a resend, the status announced again. */
  status: string;
  /** When, in ms on the schedule clock. */
  at: number;
  cause: Cause;
}

/** A payin or payout as a state file saves it: times in ms on the schedule clock. Card data is never kept: only the last four digits. */
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
  /** One-time card push token (card payins), spent by the first accepted push. */
  cardToken: string | null;
  cardTokenSpent: boolean;
  cardLast4: string | null;
  /** Wall-clock ms before which lookups miss this record (the `lookup_lag` fault); 0 for none. */
  hiddenUntil: number;
  /** For the dashboard: the customer's name and email (never card data). */
  customer: string;
  /** Its status changes (the first is `new`, at creation) and resends, oldest first. */
  history: SnapshotHistoryEntry[];
}

/** A webhook attempt as the sandbox keeps it and a state file saves it: times in ms on the schedule clock. */
export interface SnapshotAttempt {
  transactionId: string;
  /** Which delivery it belongs to (one per status change or resend), numbered from 1 in this sandbox. */
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
