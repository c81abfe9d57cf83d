// The one event path. Webhooks, lookups (recovery) and create answers all come here: one
// (kind, transaction, status) is recorded, judged by the status order, and, when it is a change
// (or an unknown status after a terminal one), handed to the merchant's handler inside the same
// database transaction, with that transaction's query function. A handler that throws rolls the
// event back with its own writes, so the event is handled again by whatever brings it next (the
// service's retry, the next recovery).
import type { Kind } from './errors.js';
import { type Guarded, keptSession, runHandler } from './guard.js';
import type { EventHandler, JournalEvent } from './handler.js';
import { refusalOf } from './handler-text.js';
import type { Names } from './names.js';
import { PREPARE, type Query, type Row } from './port.js';
import type { EventReport } from './report.js';
import type { SessionBracket } from './session-restore.js';
import { callRecordEvent, type EventInput } from './sql/functions.js';
import { oneRow, runIn } from './sql/statement.js';
import type { EventOutcome } from './status-order.js';

/** What recording one event did. */
export interface Recorded {
  /** `unplaced` when the journal knows neither the transaction nor its intent: nothing was written. */
  readonly outcome: EventOutcome | 'unplaced';
  /** The transaction's status now (null when unplaced). */
  readonly status: string | null;
  /** Its kind, as placed (null when unplaced). */
  readonly kind: Kind | null;
  /** The transaction's status before this event (null for the first, or when unplaced). */
  readonly previous: string | null;
}

/**
 * Records `input` at `now` (the journal's clock, unix ms) inside the caller's transaction
 * (`query`, a guarded transaction's, or a single statement's when there is no handler) and hands
 * it to `handler` when it is delivered: one round trip to the database, then the handler, bounded
 * by the transaction's time limit. Resolves with what recording did and the transaction's status now.
 *
 * @throws HandlerFailedError when the handler throws or does not finish in time (the caller's
 * transaction must roll back).
 */
export async function recordEvent(
  query: Query,
  names: Names,
  input: EventInput,
  handler: EventHandler | undefined,
  now: number,
): Promise<Recorded> {
  const rows = await runIn(query, callRecordEvent(names, input, now));
  // Bare (no handler, see eventWork), the call may have committed; in a handler's transaction it rolls back.
  const recorded = recordedFrom(oneRow(rows, 'record event', handler === undefined ? 'commit_unknown' : 'failed'), input);
  await handOver(query, input, recorded, handler);
  return recorded;
}

/** What a statement that recorded `input` answered (its r_outcome, r_previous and r_kind), as a {@link Recorded}. */
export function recordedFrom(row: Row, input: EventInput): Recorded {
  const outcome = row['r_outcome'] as EventOutcome | 'unplaced';
  const previous = (row['r_previous'] as string | null) ?? null;
  const kind = (row['r_kind'] as Kind | null) ?? null;
  return { outcome, status: outcome === 'change' ? input.status : previous, kind, previous };
}

/** Hands a recorded event to `handler` when it is to be delivered (a change, or delivered after a terminal status). */
export async function handOver(query: Query, input: EventInput, recorded: Recorded, handler: EventHandler | undefined): Promise<void> {
  const { kind, outcome } = recorded;
  if (kind === null || outcome === 'unplaced' || outcome === 'duplicate' || outcome === 'stale' || handler === undefined) return;
  const event: JournalEvent = {
    kind,
    id: input.id,
    referenceId: input.referenceId,
    status: input.status,
    previous: recorded.previous,
    change: outcome === 'change',
    source: input.source,
  };
  // Returned, what it set for the session is set back right before the journal commits (the
  // transaction's session bracket); thrown, the rollback undoes it.
  await runHandler(query, `${kind} ${JSON.stringify(input.id)} status ${JSON.stringify(input.status)}`, () =>
    handler(event, handlerQuery(query, keptSession(query))),
  );
}

/**
 * Runs `work`, whose one write is a single statement that records an event, with the handler:
 * in a transaction when there is a handler to run with it, and as that statement alone (atomic by
 * itself, one round trip) when there is none.
 */
export function eventWork<T>(db: Guarded, handler: EventHandler | undefined, step: string, work: (query: Query) => Promise<T>): Promise<T> {
  if (handler !== undefined) return db.transaction(step, work, true);
  return work((text, params) => db.query(step, text, params));
}

/** The report of an event recorded (call it once the transaction committed); nothing for an unplaced one. */
export function eventReport(input: EventInput, recorded: Recorded): EventReport | undefined {
  if (recorded.kind === null || recorded.outcome === 'unplaced') return undefined;
  return {
    type: 'event',
    kind: recorded.kind,
    id: input.id,
    referenceId: input.referenceId,
    status: input.status,
    source: input.source,
    outcome: recorded.outcome,
  };
}

/**
 * The query function a handler gets: the transaction's, except that it refuses any statement that
 * would end or take over the journal's transaction (COMMIT, ROLLBACK, BEGIN...) or change the
 * session the connection's later callers inherit (SET without LOCAL, SET ROLE, RESET, DEALLOCATE,
 * session advisory locks...). A handler that committed early would leave the event recorded but its
 * failure unretried; one that rolled back would have the webhook answered 200 with nothing
 * recorded; one that left `default_transaction_read_only` on would fail every later call. Its own
 * savepoints and SET LOCAL stay allowed. The session's parameters it changed by other ways are
 * set back before COMMIT (session-restore.ts).
 */
function handlerQuery(query: Query, session: SessionBracket | undefined): Query {
  return async (text, params) => {
    if (typeof text !== 'string') return query(text, params); // the driver refuses it
    const refusal = refusalOf(text);
    if (refusal !== undefined) throw new TypeError(refusal);
    await session?.use(query);
    if (NOT_ASCII.test(text)) await mustBeUtf8(query);
    return query(text, params);
  };
}

/** A character beyond ASCII: read the same in every client encoding only while that is UTF8. */
const NOT_ASCII = /[^\x00-\x7f]/;

const CLIENT_ENCODING = `${PREPARE}SELECT pg_catalog.current_setting('client_encoding') AS e`;

/**
 * Refuses a handler's text that is not ASCII unless the connection's client_encoding is UTF8, what
 * every driver sends. In a multibyte client encoding (SJIS, BIG5, GBK...) a byte after a non-ASCII
 * character can be the second half of one: `E'Á\'` in UTF-8 is C3 81 5C in bytes, and SJIS reads
 * 81 5C as one character, so the backslash is gone, the string ends there and what the guard took
 * for the rest of the string is a statement (COMMIT). A handler can set the encoding for its
 * transaction (`set_config('client_encoding', 'SJIS', true)`); ASCII text reads the same in all.
 */
async function mustBeUtf8(query: Query): Promise<void> {
  const encoding = (await query(CLIENT_ENCODING))[0]?.['e'];
  if (encoding !== 'UTF8') {
    throw new TypeError(
      `@pay/journal: a handler's query cannot send text beyond ASCII while client_encoding is ${String(encoding)}: the driver sends UTF-8, and the server would read it otherwise; leave client_encoding alone`,
    );
  }
}
