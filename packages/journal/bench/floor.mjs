// The floor of any create that survives a crash, as every create benchmark of this package measures
// it: a row committed before the request leaves (or a crash could leave a payment nobody recorded)
// and the answer committed after it, each one bare statement on the same database. What the
// journal costs beyond it is its own work.
import { PGlite } from '@electric-sql/pglite';

const TABLE = 'CREATE TABLE bench.floor (reference_id text PRIMARY KEY, amount numeric, transaction_id text, status text)';

/** Makes the floor's table with `exec` (a schema `bench` is made first when `withSchema`). */
export const makeFloorTable = (exec, withSchema = false) => exec(withSchema ? `CREATE SCHEMA bench; ${TABLE}` : TABLE);

/** An embedded PGlite in memory (like the journal's default) holding the floor's table. */
export async function floorPGlite() {
  const db = new PGlite();
  await makeFloorTable((sql) => db.exec(`${sql}; SET synchronous_commit = off`), true);
  return db;
}

/** One floor create: `body()`'s payin through `client`, with its two rows written by `query(text, params)`. */
export const floorCreate = (client, body, query) => async () => {
  const b = body();
  await query('INSERT INTO bench.floor (reference_id, amount) VALUES ($1, $2)', [b.reference_id, b.payment.amount]);
  const { data } = await client.payins.create(b);
  await query('UPDATE bench.floor SET transaction_id = $2, status = $3 WHERE reference_id = $1', [b.reference_id, data.id, data.status]);
};
