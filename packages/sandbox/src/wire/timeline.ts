// A transaction's timeline as the admin API answers it (`GET /_sandbox/<kind>s/<id>/timeline`);
// the server derives it at each read (timeline.ts).
import type { EndpointName } from '@pay/schema';
import type { LoggedRequest } from './requests.js';
import type { Cause, SandboxTransaction } from './transactions.js';

/** A request to a service endpoint about the transaction, as the request log has it (without its body). */
export interface TimelineRequest
  extends Pick<LoggedRequest, 'merchant_id' | 'method' | 'path' | 'status' | 'code' | 'message' | 'hint' | 'errors'> {
  type: 'request';
  /** Its arrival on the schedule clock, as the service writes datetimes. */
  at: string;
  /** The endpoint, by its operation in `@pay/schema`'s table: `createPayin`, `getPayin`, `getPayinByReference`, `pushCard`... */
  operation: EndpointName;
  /** Its `seq` in the request log (`GET /_sandbox/requests`, the requests page). */
  request_seq: number;
  /** The fault it matched, if any. */
  fault: string | null;
}

/** A status change: to what, and what caused it. */
export interface TimelineStatus {
  type: 'status';
  at: string;
  status: string;
  cause: Cause;
  /** The request that caused it (its create, its card push), when the request log still has it. */
  request_seq: number | null;
  /** The error of a change to `failed`; null otherwise. */
  error_code: string | null;
  error_message: string | null;
}

/** Its current status's webhook sent again, from the dashboard or the admin API. */
export interface TimelineResend {
  type: 'resend';
  at: string;
  /** The status announced again. */
  status: string;
  cause: Cause;
}

/** One webhook attempt: sent (with the receiver's answer), under way, or still due. */
export interface TimelineWebhook {
  type: 'webhook';
  /** When it was sent, or is due if it has not been sent yet. */
  at: string;
  /** The status it announces. */
  status: string;
  /** 1 to `MAX_ATTEMPTS`, counted per delivery (a status change or a resend starts one). */
  attempt: number;
  /** Where it goes, credentials and tokens hidden. */
  url: string;
  due_at: string;
  sent_at: string | null;
  /** The receiver's HTTP status; null when it did not answer (or not yet). */
  response_status: number | null;
  /** Why it got no answer (`connection refused`, `timeout after 10 s`...); null otherwise. */
  error: string | null;
  /** When the next attempt of the same delivery is due; null when delivered, given up, or not answered yet. */
  next_attempt_at: string | null;
}

/** One entry of a timeline. */
export type TimelineEntry = TimelineRequest | TimelineStatus | TimelineResend | TimelineWebhook;

/** A transaction and its timeline, as `GET /_sandbox/<kind>s/<id>/timeline` answers. */
export interface TransactionTimeline {
  /** The transaction now, as `GET /_sandbox/transactions` lists it. */
  transaction: SandboxTransaction;
  /** Now on the schedule clock. */
  now: string;
  /** Oldest first. */
  entries: TimelineEntry[];
}
