// A transaction's timeline: what happened to it, in the order it happened, on the schedule clock.
// It is derived at each read from what the sandbox records anyway, one source per fact: the
// request log (its create, the merchant's lookups, the card push), the transaction's history (each
// status change with its cause, each resend) and the delivery log (each webhook attempt, its
// answer, and when the next one is due). Nothing is stored for it.
import { takesQuery, type EndpointName } from '@pay/schema';
import type { SandboxTransaction } from './admin-client.js';
import type { DeliveryAttempt } from './deliveries.js';
import { referenceFromQuery, routesAt } from './endpoints.js';
import { serviceMs } from './format.js';
import { adminRecord, serviceDateTime, type Cause, type Transaction } from './records.js';
import type { LoggedRequest } from './request-log.js';
import type { State } from './state.js';

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

/**
 * The endpoint a logged request called, when the request is about `tx`: it created, read or paid
 * it (the log names it), or it named it without getting it (a lookup by its id, or by its
 * reference as its merchant, refused or not found), whatever the answer.
 */
export function requestAbout(request: LoggedRequest, tx: Transaction): EndpointName | undefined {
  const mark = request.path.indexOf('?');
  const path = mark < 0 ? request.path : request.path.slice(0, mark);
  const query = mark < 0 ? null : request.path.slice(mark + 1);
  const route = routesAt(path).find((r) => r.endpoint.method === request.method);
  if (route === undefined) return undefined;
  const operation = route.endpoint.operation as EndpointName;
  if (request.transaction_id !== null) return request.transaction_id === tx.id ? operation : undefined;
  if (route.endpoint.method !== 'GET' || route.endpoint.resource !== `${tx.kind}s`) return undefined;
  if (!takesQuery(route.endpoint)) return route.params['id'] === tx.id ? operation : undefined;
  const reference = referenceFromQuery(query);
  return reference.ok && request.merchant_id === tx.merchantId && reference.value === tx.referenceId ? operation : undefined;
}

// Where an entry falls: its time, then its tick (what happened first within a millisecond), then
// its rank and place in its source (entries loaded from a state file have no tick: a status change
// comes before the webhooks it caused).
interface Placed {
  entry: TimelineEntry;
  at: number;
  order: number;
  rank: number;
  index: number;
}

/** The timeline of a transaction the sandbox keeps. */
export function timelineOf(state: State, tx: Transaction): TransactionTimeline {
  const placed: Placed[] = [];
  const requests = state.requests.ordered().flatMap(({ request, order }) => {
    const operation = requestAbout(request, tx);
    return operation === undefined ? [] : [{ request, order, operation }];
  });
  requests.forEach(({ request: r, order, operation }, index) => {
    const entry: TimelineRequest = {
      type: 'request',
      at: r.clock_at,
      operation,
      request_seq: r.seq,
      merchant_id: r.merchant_id,
      method: r.method,
      path: r.path,
      status: r.status,
      code: r.code,
      message: r.message,
      hint: r.hint,
      errors: r.errors,
      fault: r.fault,
    };
    placed.push({ entry, at: serviceMs(r.clock_at), order, rank: 0, index });
  });
  // The requests that cause a change: the create, and the one card push that was taken.
  const causing = (cause: Cause) =>
    requests.find(
      ({ request, operation }) =>
        request.transaction_id === tx.id &&
        (cause === 'card_push' ? operation === 'pushCard' : cause === 'create' && request.method === 'POST' && operation !== 'pushCard'),
    )?.request.seq ?? null;
  tx.history.forEach((h, index) => {
    const at = serviceDateTime(h.at);
    const entry: TimelineEntry =
      h.what === 'resend'
        ? { type: 'resend', at, status: h.status, cause: h.cause }
        : {
            type: 'status',
            at,
            status: h.status,
            cause: h.cause,
            request_seq: causing(h.cause),
            // Only one change can be to `failed` (it is final): the record holds its error.
            error_code: h.status === 'failed' ? tx.errorCode : null,
            error_message: h.status === 'failed' ? tx.errorMessage : null,
          };
    placed.push({ entry, at: h.at, order: h.order, rank: 1, index });
  });
  state.deliveries.timeline(tx.id).forEach(({ attempt: a, order, nextDueAt }, index) => {
    const entry = webhookEntry(a, nextDueAt);
    // One still due comes after everything else of its millisecond.
    placed.push({ entry, at: serviceMs(entry.at), order: a.sent_at === null ? Infinity : (order ?? 0), rank: 2, index });
  });
  placed.sort((a, b) => a.at - b.at || a.order - b.order || a.rank - b.rank || a.index - b.index);
  // adminRecord's kind and lookup shape go together (a payin's lookup for a payin): TypeScript cannot tell.
  return {
    transaction: adminRecord(tx) as SandboxTransaction,
    now: serviceDateTime(state.schedule.now()),
    entries: placed.map((p) => p.entry),
  };
}

function webhookEntry(a: DeliveryAttempt, nextDueAt: string | null): TimelineWebhook {
  return {
    type: 'webhook',
    at: a.sent_at ?? a.due_at,
    status: a.status,
    attempt: a.attempt,
    url: a.url,
    due_at: a.due_at,
    sent_at: a.sent_at,
    response_status: a.response_status,
    error: a.error,
    next_attempt_at: nextDueAt,
  };
}
