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
import { DatabaseError, isJournalError } from './errors.js';
import type { Query, SqlPort } from './port.js';

/** The port's two calls, each bounded and typed. */
export interface Guarded {
  query: (step: string, text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
  transaction<T>(step: string, work: (query: Query) => Promise<T>): Promise<T>;
}

/** Wraps `db` with a time limit of `timeoutMs` per call. */
export function guard(db: SqlPort, timeoutMs: number): Guarded {
  return {
    query: (step, text, params) => within(db, timeoutMs, step, () => db.query(text, params)),
    transaction: (step, work) => within(db, timeoutMs, step, undefined, work),
  };
}

const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();

/** One bounded call: a single statement (`run`) or a transaction (`work`). */
function within<T>(
  db: SqlPort,
  timeoutMs: number,
  step: string,
  run: (() => Promise<T>) | undefined,
  work?: (query: Query) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let answered = false;
    let committing = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const answer = (settle: () => void) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      clearTimeout(grace);
      settle();
    };
    const timer = setTimeout(() => {
      if (!committing) return answer(() => reject(new DatabaseError(step, undefined, 'timed_out')));
      grace = setTimeout(() => answer(() => reject(new DatabaseError(step, undefined, 'commit_unknown'))), timeoutMs);
      unref(grace);
    }, timeoutMs);
    unref(timer);

    let started: Promise<T>;
    try {
      started = run ? run() : db.transaction((query) => bounded(query), { timeoutMs, commit: () => !answered && (committing = true) });
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => answer(() => resolve(value)),
      // The handler's own error, or one of ours, goes through as it is: the caller tells them apart.
      (error: unknown) => answer(() => reject(isJournalError(error) ? error : new DatabaseError(step, error))),
    );

    /** The work, with statements refused once the caller is answered, and a failed statement never committed. */
    async function bounded(query: Query): Promise<T> {
      let failed: { error: unknown } | undefined;
      const guarded: Query = async (text, params) => {
        if (answered) throw new DatabaseError(step, undefined, 'timed_out');
        try {
          return await query(text, params);
        } catch (error) {
          failed ??= { error };
          throw error;
        }
      };
      const result = await work!(guarded);
      // A statement failed and the work caught it: the transaction is aborted, and COMMIT would
      // quietly roll back (pg even answers it without an error). Say so instead of reporting success.
      if (failed) throw isJournalError(failed.error) ? failed.error : new DatabaseError(step, failed.error);
      return result;
    }
  });
}
