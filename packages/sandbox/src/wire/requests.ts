// The request log as the admin API lists it (`GET /_sandbox/requests`); the server keeps it in
// request-log.ts, whose limits the comments name.
import type { FieldError } from './errors.js';

/** One request to a service endpoint, as `GET /_sandbox/requests` lists it. */
export interface LoggedRequest {
  /** Increasing number, from 1 at start (or reset). */
  seq: number;
  /** Wall-clock arrival, ISO 8601 with its zone (`Z`). */
  at: string;
  /**
   * Arrival on the schedule clock (the clock of records, webhooks and timelines, which the admin
   * API can move forward), as the service writes datetimes: `2025-05-01T12:30:45.123000`.
   */
  clock_at: string;
  /** The merchant the request claimed (`x-merchant-id`), or null when it named none. */
  merchant_id: string | null;
  method: string;
  /** Path and query as received (cut at 300 characters); the card push token is hidden. */
  path: string;
  /** The answer's HTTP status; null when the connection was dropped (a fault). */
  status: number | null;
  /** `error.code` of a refusal (`bad_signature`, `invalid_request`...); null when accepted. */
  code: string | null;
  /** The refusal's sentence (`error.message`); null when accepted. */
  message: string | null;
  /** What the sandbox thinks went wrong, when it can tell (`error.hint`); null otherwise. */
  hint: string | null;
  /**
   * The refusal's field errors (`error.errors` of a 400: where, and what is wrong there), masked
   * as the body is, at most LOGGED_ERRORS (a last entry with path `''` says how many more), each
   * path and message cut at LOGGED_ERROR_CHARS; empty when the answer listed none.
   */
  errors: FieldError[];
  /** Time from arrival to answer, in milliseconds. */
  duration_ms: number;
  /** The transaction the request created or read, when there was one. */
  transaction_id: string | null;
  /** The fault the request matched, if any. */
  fault: string | null;
  /** The body as received (UTF-8, card data masked, cut at LOGGED_BODY_CHARS); null when empty. */
  body: string | null;
}
