// Every database call of the journal goes through here: a time limit, and one typed error. A
// database that is down, slow or refuses a statement surfaces as a DatabaseError naming the step,
// never as a driver's error, and never as a hang: past `timeoutMs` the caller is answered (a
// webhook gets its 500, so the service retries) while the connection finishes or fails on its own;
// a transaction that commits after that is harmless, because everything the journal records is
// safe to find again (a retried webhook is a duplicate, an intent is settled by recover()).
import { DatabaseError, isJournalError } from './errors.js';
import type { Query, SqlPort } from './port.js';

/** The port's two calls, each bounded and typed. */
export interface Guarded {
  query: (step: string, text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;
  transaction<T>(step: string, work: (query: Query) => Promise<T>): Promise<T>;
}

/** Wraps `db` with a time limit of `timeoutMs` per call. */
export function guard(db: SqlPort, timeoutMs: number): Guarded {
  const bounded = <T>(step: string, run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new DatabaseError(step, undefined, true)), timeoutMs);
      (timer as { unref?(): void }).unref?.();
      let started: Promise<T>;
      try {
        started = run();
      } catch (error) {
        started = Promise.reject(error);
      }
      started.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          // The handler's own error, or one of ours, goes through as it is: the caller tells them apart.
          reject(isJournalError(error) ? error : new DatabaseError(step, error));
        },
      );
    });
  return {
    query: (step, text, params) => bounded(step, () => db.query(text, params)),
    transaction: (step, work) => bounded(step, () => db.transaction(work)),
  };
}
