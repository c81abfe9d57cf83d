// The embedded database's upkeep. PGlite runs PostgreSQL in this process with no background
// workers, so nothing ever vacuums it: every row the reconciler reschedules (each pass rewrites
// its due rows in the checks table), and every intent and transaction updated, leaves a dead row
// whose space is never reused, and a journal that runs for months grows without bound. After each
// pass on PGlite, the journal does for its own tables what a server's autovacuum would, by the
// same thresholds. A server's own autovacuum does it there: this runs on PGlite only.
//
// VACUUM runs on this thread, like every PGlite statement: it reads only the pages changed since
// the last one, and the thresholds keep it rare (a fifth of a table dead), so a pass pays for it
// about what the rows it rewrote cost.
import type { Context } from '../context.js';
import { describe } from '../proof.js';
import { run } from '../sql/statement.js';
import { dueForUpkeep, flushStatistics, UPKEPT, upkeepOf } from '../sql/upkeep.js';

/**
 * Vacuums (and analyzes) the journal's tables that are due, on PGlite; nothing elsewhere. Never
 * throws: a failure is reported (`pass_failed`, the pass itself having ended) and tried again after
 * the next pass.
 */
export async function upkeep(ctx: Context): Promise<void> {
  if (!ctx.embedded) return;
  try {
    await run(ctx.db, flushStatistics);
    for (const row of await run(ctx.db, dueForUpkeep(ctx.names))) {
      const table = UPKEPT[Number(row['place']) - 1];
      if (table === undefined || (row['vacuum'] !== true && row['analyze'] !== true)) continue;
      await run(ctx.db, upkeepOf(ctx.names, table, row['vacuum'] === true));
    }
  } catch (error) {
    ctx.report({ type: 'pass_failed', reason: `the upkeep of the embedded database after the pass: ${describe(error)}` });
  }
}
