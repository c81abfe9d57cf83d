// Creates of one reference_id running at once in this process: the second joins the first (or is
// refused), so nothing is claimed or sent twice from here. Keyed by the body's digest, which the
// journal records with the intent anyway (docs/design.md, "creates joined in one process": why
// the client joins by its own JSON as well, and where the two differ).
import { CreateInFlightError, type Kind } from '../errors.js';
import { keyOf } from './groups.js';

/** The creates and sends running in this process, and how a new one joins them. */
export function inFlight<R>() {
  const running = new Map<string, { digest: string | undefined; promise: Promise<R> }>();
  return {
    /** Whether a create or send other than the caller runs in this process: only then may a group gather more. */
    othersRunning: () => running.size > 1,
    /**
     * Runs `start` unless a create of the same reference_id runs here: then joins it, or refuses.
     * A send (`digest` undefined) joins whatever runs; a create joins only a create of the same body
     * (a send's body is the queued one, which this caller may not have given).
     */
    joined(kind: Kind, referenceId: string, digest: string | undefined, start: () => Promise<R>): Promise<R> {
      const key = keyOf(kind, referenceId);
      const other = running.get(key);
      if (other !== undefined) {
        if (digest === undefined || other.digest === digest) return other.promise;
        throw new CreateInFlightError(kind, referenceId, 'in_flight', undefined);
      }
      const promise = start().finally(() => running.delete(key));
      running.set(key, { digest, promise });
      return promise;
    },
  };
}
