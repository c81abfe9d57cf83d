// The statements creates share with the creates running meanwhile (group commit, see
// group-commit.ts): claiming intents, claiming queued creates to send, and recording outcomes.
import type { Context } from '../context.js';
import type { Kind } from '../errors.js';
import { groupCommit } from '../group-commit.js';
import { type Created, recordCreated, recordCreatedTogether } from '../outcome.js';
import type { Row } from '../port.js';
import type { RecordedTransaction } from '../recorded.js';
import { claimIntent, claimIntents, claimQueued, claimQueuedMany } from '../sql/intents.js';
import { run } from '../sql/statement.js';
import type { Prepared } from './prepare.js';

/**
 * The most creates one group statement carries (see group-commit.ts). Past a few dozen a larger
 * group saves little (the commit is shared already) and holds its first create's answer longer.
 */
const GROUP_SIZE = 64;

/** A create's key in this process's maps: its kind and reference_id. */
export const keyOf = (kind: unknown, referenceId: unknown) => `${String(kind)}\u0000${String(referenceId)}`;

/**
 * The grouped statements of one journal's creates. `othersRunning`: whether a create or send other
 * than the caller runs in this process; only then may a group gather more.
 */
export function createGroups(ctx: Context, othersRunning: () => boolean) {
  const { db, names } = ctx;

  /** Claims an intent (true) or finds it there in another state (false), in a group with the creates running meanwhile. */
  const claim = groupCommit<Prepared, boolean>(
    {
      together: async (ps) => {
        const rows = await run(db, claimIntents(names, ps, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()));
        const claimed = new Set(rows.map((row) => keyOf(row['kind'], row['reference_id'])));
        return ps.map((p) => ({ ok: true, value: claimed.has(keyOf(p.kind, p.referenceId)) }) as const);
      },
      alone: async (p) => (await run(db, claimIntent(names, p, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()))).length > 0,
    },
    GROUP_SIZE,
    othersRunning,
  );

  /** Claims a queued create to send (its row), or finds it not queued or held elsewhere (undefined), in a group with the sends running meanwhile. */
  const claimToSend = groupCommit<{ kind: Kind; referenceId: string }, Row | undefined>(
    {
      together: async (keys) => {
        const rows = await run(db, claimQueuedMany(names, keys, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now()));
        const claimed = new Map(rows.map((row) => [keyOf(row['kind'], row['reference_id']), row]));
        return keys.map((k) => ({ ok: true, value: claimed.get(keyOf(k.kind, k.referenceId)) }) as const);
      },
      alone: async (k) => (await run(db, claimQueued(names, k.kind, k.referenceId, ctx.owner, ctx.inFlightLeaseMs, ctx.clock.now())))[0],
    },
    GROUP_SIZE,
    othersRunning,
  );

  /**
   * Records a create's outcome. Without a handler, in a group with the outcomes recorded meanwhile;
   * with one, alone: each status commits with its own handler's writes, and one handler's failure
   * rolls back its own event only.
   */
  const record: (created: Created) => Promise<{ transaction: RecordedTransaction }> =
    ctx.handler === undefined
      ? groupCommit<Created, { transaction: RecordedTransaction }>(
          {
            together: (cs) => recordCreatedTogether(ctx, cs),
            alone: (c) => recordCreated(ctx, c),
          },
          GROUP_SIZE,
          othersRunning,
        )
      : (c) => recordCreated(ctx, c);

  return { claim, claimToSend, record };
}
