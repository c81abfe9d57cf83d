// A create that failed: recorded not created only when its error proves it, else unknown.
import type { Context } from '../context.js';
import type { Kind } from '../errors.js';
import { decidableAtOf, describe, provesNotCreated } from '../proof.js';
import { settleNotCreated, settleUnknown } from '../sql/intents.js';
import { run } from '../sql/statement.js';

/**
 * Records why a create failed: not created only when the error proves it (see proof.ts), else
 * unknown, decidable when the client says or, for an error that says nothing, when the in-flight
 * lease ends (it outlasts the client's whole call and every attempt's acceptance).
 */
export async function settleFailure(ctx: Context, kind: Kind, referenceId: string, error: unknown): Promise<void> {
  const { db, names } = ctx;
  const reason = describe(error);
  try {
    await run(
      db,
      provesNotCreated(error)
        ? settleNotCreated(names, kind, referenceId, reason, ctx.clock.now())
        : settleUnknown(names, kind, referenceId, decidableAtOf(error)?.toISOString() ?? null, reason, ctx.clock.now()),
    );
  } catch {
    // The client's error is the one the caller must see; the intent stays in flight and
    // recover() decides it once its lease ends.
  }
}
