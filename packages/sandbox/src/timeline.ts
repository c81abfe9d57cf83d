// A transaction's timeline: what happened to it, in the order it happened, on the schedule clock.
// It is derived at each read from what the sandbox records anyway, one source per fact: the
// request log (its create, the merchant's lookups, the card push), the transaction's history (each
// status change with its cause, each resend) and the delivery log (each webhook attempt, its
// answer, and when the next one is due). Nothing is stored for it.
import { takesQuery, type EndpointName } from '@pay/schema';
import type { DeliveryAttempt } from './wire/deliveries.js';
import { referenceFromQuery, routesAt } from './endpoints.js';
import { serviceMs } from './format.js';
import { adminRecord, serviceDateTime, type Cause, type Transaction } from './records.js';
import type { LoggedRequest } from './request-log.js';
import type { State } from './state.js';
import type { TimelineEntry, TimelineRequest, TimelineWebhook, TransactionTimeline } from './wire/timeline.js';
import type { SandboxTransaction } from './wire/transactions.js';

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
