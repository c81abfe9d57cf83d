// Every database call of the journal goes through here: a time limit, and one typed error. A
// database that is down, slow or refuses a statement surfaces as a DatabaseError naming the step,
// never as a driver's error, and never as a hang: past `timeoutMs` the caller is answered (a
// webhook gets its 500, so the service retries).
//
// A transaction answered with a timeout must not commit afterwards, or the caller's retry and the
// late commit would both count. So once the caller is answered, COMMIT is never sent (the adapter
// asks `commit()` first and rolls back), every further statement of the work is refused, and the
// server-side limits set at BEGIN cancel the statement still running. Only a COMMIT already sent
// when the time runs out is waited for (one more `timeoutMs`): its answer is the truth, and
// without it the error says `commit_unknown`.
//
// And the transaction ends when the caller is answered, not when its work does: a handler that
// never settles must not hold a pooled connection for ever, nor (on PGlite, one connection) queue
// every later call behind it. The adapter is told through an abort signal, rolls back or destroys
// the connection at once, and the work, if it ever goes on, has its statements refused.
//
// These limits are real time (setTimeout), whatever the journal's clock: like a socket's deadline
// for one exchange, they bound the database's I/O, not the business's time, and a test clock that
// stands still must not leave a hung call hanging for ever.
import { DatabaseError, HandlerFailedError, isJournalError } from './errors.js';
import { type Query, type SqlPort, untilAborted } from './port.js';
import { type SessionBracket, sessionBracket } from './session-restore.js';

/** The port's two calls, each bounded and typed. */
export interface Guarded {
  query: (step: string, text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
  /** `keepSession`: a handler may run in it, so its session is kept (see session-restore.ts). */
  transaction<T>(step: string, work: (query: Query) => Promise<T>, keepSession?: boolean): Promise<T>;
}

/** Wraps `db` with a time limit of `timeoutMs` per call. */
export function guard(db: SqlPort, timeoutMs: number): Guarded {
  return {
    query: (step, text, params) => within(db, timeoutMs, step, () => db.query(text, params)),
    transaction: (step, work, keepSession) => within(db, timeoutMs, step, undefined, work, keepSession === true),
  };
}

/**
 * What the merchant's handler runs in: set by {@link runHandler} while it runs, so that a
 * transaction that times out then is answered as the handler's failure, not the database's.
 */
interface Scope {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** What the handler is handling, while it runs (for the error's message). */
  handling: string | undefined;
  /** The session bracket, in a transaction that keeps its session. */
  readonly session: SessionBracket | undefined;
}

/** The scope of each guarded transaction's query function. */
const scopes = new WeakMap<Query, Scope>();

/** The session bracket of the transaction of `query` (a guarded transaction's that keeps its session), if any. */
export const keptSession = (query: Query): SessionBracket | undefined => scopes.get(query)?.session;

/**
 * Runs the merchant's handler inside the transaction of `query` (a guarded transaction's), bounded
 * by that transaction's time limit: past it the handler's promise is no longer awaited, the
 * transaction is rolled back and its connection freed at once, and every statement the handler
 * sends afterwards is refused. `what` names the event in the error.
 *
 * @throws HandlerFailedError when the handler throws or does not finish in time.
 */
export async function runHandler(query: Query, what: string, handler: () => unknown): Promise<void> {
  const scope = scopes.get(query);
  if (scope === undefined) throw new TypeError('runHandler needs the query function of a journal transaction');
  scope.handling = what;
  try {
    await untilAborted(Promise.resolve().then(handler), scope.signal);
  } catch (error) {
    throw new HandlerFailedError(what, scope.signal.aborted ? undefined : error, scope.signal.aborted ? scope.timeoutMs : undefined);
  } finally {
    scope.handling = undefined;
  }
}

const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();

/** One bounded call: a single statement (`run`) or a transaction (`work`). */
function within<T>(
  db: SqlPort,
  timeoutMs: number,
  step: string,
  run: (() => Promise<T>) | undefined,
  work?: (query: Query) => Promise<T>,
  keepSession = false,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let answered = false;
    let committing = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    // Only a transaction has work to abandon (a single statement is simply no longer awaited);
    // an AbortController costs more than the rest of this call, so a statement gets none.
    const aborter = work === undefined ? undefined : new AbortController();
    const session = keepSession ? sessionBracket() : undefined;
    const scope: Scope | undefined = aborter && { signal: aborter.signal, timeoutMs, handling: undefined, session };
    const answer = (settle: () => void) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      clearTimeout(grace);
      settle();
    };
    const timer = setTimeout(() => {
      if (!committing) {
        // Answered first, then the work abandoned: the adapter ends the transaction at once.
        const handling = scope?.handling;
        answer(() =>
          reject(
            handling === undefined
              ? new DatabaseError(step, undefined, 'timed_out')
              : new HandlerFailedError(handling, undefined, timeoutMs),
          ),
        );
        aborter?.abort();
        return;
      }
      grace = setTimeout(() => answer(() => reject(new DatabaseError(step, undefined, 'commit_unknown'))), timeoutMs);
      unref(grace);
    }, timeoutMs);
    unref(timer);

    let started: Promise<T>;
    try {
      started = run
        ? run()
        : db.transaction((query) => bounded(query), {
            timeoutMs,
            commit: () => !answered && (committing = true),
            signal: aborter!.signal,
            ...(session && { bracket: session }),
          });
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => answer(() => resolve(value)),
      // The work's own error (a handler's, or yours in journal.transaction), or one of ours, goes
      // through as it is: the caller tells them apart. Anything else is the database's.
      (error: unknown) =>
        answer(() => reject(isJournalError(error) ? error : error instanceof OwnError ? error.error : new DatabaseError(step, error))),
    );

    /**
     * The work, with statements refused once it has settled or the caller is answered (a handler
     * that kept its `query` must not write outside the transaction), and a failed statement never
     * committed.
     */
    async function bounded(query: Query): Promise<T> {
      let failed: { error: unknown } | undefined;
      let settled = false;
      const guarded: Query = async (text, params) => {
        if (answered || settled) throw new DatabaseError(step, undefined, 'timed_out');
        try {
          return await query(text, params);
        } catch (error) {
          failed ??= { error };
          throw error;
        }
      };
      scopes.set(guarded, scope!);
      try {
        let result: T;
        try {
          result = await work!(guarded);
        } catch (error) {
          // Thrown by the work itself, not by one of its statements: the caller gets it unchanged.
          throw failed !== undefined && failed.error === error ? error : new OwnError(error);
        }
        // A statement failed and the work caught it: the transaction is aborted, and COMMIT would
        // quietly roll back (pg even answers it without an error). Say so instead of reporting success.
        if (failed) throw isJournalError(failed.error) ? failed.error : new DatabaseError(step, failed.error);
        return result;
      } finally {
        settled = true;
      }
    }
  });
}

/** The work's own error, carried through the adapter's rollback to the caller unchanged. */
class OwnError extends Error {
  constructor(readonly error: unknown) {
    super('the work failed');
  }
}
