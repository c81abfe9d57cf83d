// Versioned migrations, shipped in the package and applied by `migrate`, which several instances
// may call at once at start-up: a transaction-scoped advisory lock (one per schema and prefix)
// lets one apply what is missing while the others wait, then find nothing left to do. Each
// migration is applied in that same transaction with its version row, so a crash leaves either
// all of it or none.
import type { Guarded } from './guard.js';
import type { Names } from './names.js';

/** One migration: applied once, in order of `version`, never edited once released. */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (n: Names) => string;
}

// Amounts are `numeric`: exact, whatever digits the merchant sent (never a binary float).
// Timestamps are the database's clock (`now()`), one clock for every instance's leases.
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'intents, transactions, events',
    sql: (n) => `
CREATE TABLE ${n.intents} (
  kind text NOT NULL CHECK (kind IN ('payin', 'payout')),
  reference_id text NOT NULL,
  amount numeric NOT NULL,
  currency text,
  body_digest text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'created', 'unknown', 'not_created')),
  transaction_id text,
  next_action jsonb,
  decidable_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, reference_id)
);
CREATE TABLE ${n.transactions} (
  kind text NOT NULL CHECK (kind IN ('payin', 'payout')),
  id text NOT NULL,
  reference_id text NOT NULL,
  amount numeric,
  currency text,
  status text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
);
CREATE TABLE ${n.events} (
  kind text NOT NULL,
  transaction_id text NOT NULL,
  status text NOT NULL,
  reference_id text NOT NULL,
  source text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('change', 'delivered', 'stale')),
  previous text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, transaction_id, status)
);
-- Webhooks are placed by id alone: the payload does not say payin or payout.
CREATE INDEX ON ${n.transactions} (id);
CREATE INDEX ON ${n.intents} (reference_id);
-- One (transaction, status), recorded once, judged by status-order.ts's table, in one round trip.
-- The transaction's row is locked first, so every event of one transaction is recorded one after
-- another on every instance, and a duplicate waits for the first to commit (or roll back) before
-- it is judged. p_kind NULL (a webhook): the kind of the transaction's row, else of its intent;
-- neither, or both kinds, is r_outcome 'unplaced' with nothing written (the caller asks the service).
CREATE FUNCTION ${n.recordEvent}(p_kind text, p_id text, p_ref text, p_status text, p_source text,
    p_amount numeric, p_currency text, p_terminal text,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text) LANGUAGE plpgsql AS $fn$
DECLARE
  terminal text[] := string_to_array(p_terminal, ',');
  found_rows int;
  have_row boolean;
BEGIN
  -- At most three statements in the common case (each one costs): lock and read, insert the
  -- event, update the status.
  r_kind := p_kind;
  IF r_kind IS NULL THEN
    SELECT t.kind, t.status, (SELECT count(*) FROM ${n.transactions} c WHERE c.id = p_id) INTO r_kind, r_previous, found_rows
      FROM ${n.transactions} t WHERE t.id = p_id FOR UPDATE;
    found_rows := COALESCE(found_rows, 0);
    IF found_rows > 1 THEN
      r_kind := NULL;
      r_previous := NULL;
      r_outcome := 'unplaced';
      RETURN;
    END IF;
    have_row := found_rows = 1;
    IF NOT have_row THEN
      SELECT min(i.kind), count(DISTINCT i.kind) INTO r_kind, found_rows FROM ${n.intents} i WHERE i.reference_id = p_ref;
      IF found_rows <> 1 THEN
        r_kind := NULL;
        r_outcome := 'unplaced';
        RETURN;
      END IF;
    END IF;
  ELSE
    SELECT t.status INTO r_previous FROM ${n.transactions} t WHERE t.kind = r_kind AND t.id = p_id FOR UPDATE;
    have_row := FOUND;
  END IF;
  IF NOT have_row THEN
    INSERT INTO ${n.transactions} (kind, id, reference_id, amount, currency)
      VALUES (r_kind, p_id, p_ref, p_amount, p_currency) ON CONFLICT (kind, id) DO NOTHING;
    SELECT t.status INTO r_previous FROM ${n.transactions} t WHERE t.kind = r_kind AND t.id = p_id FOR UPDATE;
  END IF;
  IF r_previous IS NULL THEN r_outcome := 'change';
  ELSIF r_previous = ANY (terminal) THEN
    r_outcome := CASE WHEN p_status = 'new' OR p_status = ANY (terminal) THEN 'stale' ELSE 'delivered' END;
  ELSIF p_status = 'new' THEN r_outcome := 'stale';
  ELSE r_outcome := 'change';
  END IF;
  -- The row lock is held: a copy of this (transaction, status) has committed or never will.
  INSERT INTO ${n.events} (kind, transaction_id, status, reference_id, source, outcome, previous)
    VALUES (r_kind, p_id, p_status, p_ref, p_source, r_outcome, r_previous) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    r_outcome := 'duplicate';
    RETURN;
  END IF;
  IF r_outcome = 'change' OR p_amount IS NOT NULL THEN
    UPDATE ${n.transactions} t SET
        status = CASE WHEN r_outcome = 'change' THEN p_status ELSE t.status END,
        amount = COALESCE(t.amount, p_amount), currency = COALESCE(t.currency, p_currency), updated_at = now()
      WHERE t.kind = r_kind AND t.id = p_id;
  END IF;
END
$fn$;`,
  },
  {
    version: 2,
    name: 'recovery index',
    // recover() looks for intents left in flight or unknown; the others are the bulk of the table.
    sql: (n) => `CREATE INDEX ON ${n.intents} (lease_until) WHERE state IN ('in_flight', 'unknown');`,
  },
];

/** The newest migration version this package ships. */
export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Applies every migration not yet applied, under an advisory lock, and resolves with the versions
 * it applied (empty when another instance got there first).
 *
 * @throws DatabaseError when the database fails or refuses a statement (nothing is half applied).
 */
export function applyMigrations(db: Guarded, names: Names): Promise<number[]> {
  return db.transaction('migrate', async (query) => {
    await query('SELECT pg_advisory_xact_lock(hashtext($1))', [names.lockKey]);
    await query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
    await query(
      `CREATE TABLE IF NOT EXISTS ${names.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const rows = await query(`SELECT version FROM ${names.migrations}`);
    const done = new Set(rows.map((r) => Number(r['version'])));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await query(m.sql(names));
      await query(`INSERT INTO ${names.migrations} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
