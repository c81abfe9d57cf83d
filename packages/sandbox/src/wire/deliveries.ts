// The webhook delivery log as the admin API lists it (`GET /_sandbox/deliveries`); the server
// keeps it in deliveries.ts.

/** One attempt in the delivery log, as `GET /_sandbox/deliveries` shows it. */
export interface DeliveryAttempt {
  transaction_id: string;
  /** The status the webhook announces. */
  status: string;
  url: string;
  attempt: number;
  due_at: string;
  /** Null while the attempt is still due. */
  sent_at: string | null;
  /** The receiver's HTTP status; null when it did not answer (or the attempt is still due). */
  response_status: number | null;
  /** Why the attempt failed without an answer (timeout, connection refused...); null otherwise. */
  error: string | null;
}
