// Versioned migrations, shipped in the package and applied by `migrate`, which several instances
// may call at once at start-up: a transaction-scoped advisory lock (one per schema and prefix)
// lets one apply what is missing while the others wait, then find nothing left to do. Each
// migration is applied in that same transaction with its version row, so a crash leaves either
// all of it or none.
import { FIRST_STATUS, TRANSACTION_KINDS } from '@pay/schema';
import type { Guarded } from './guard.js';
import { INTENT_STATES, UNDECIDED_STATES } from './intent-states.js';
import { functionsOnTheClock } from './migration-clock.js';
import type { Names } from './names.js';
import { RECORDED_OUTCOMES } from './status-order.js';
import { sqlList, sqlLiteral, sqlState, sqlStates } from './sql/text.js';

/**
 * One migration: applied once, in order of `version`, never edited once released. (Before the
 * first release, the first one's record_event learned to make a transaction's row with its first
 * status in one INSERT; a database migrated before that keeps the old, slower, equivalent text.)
 */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (n: Names) => string;
}

// The first migration's text, in two parts (their concatenation is the text it always was): the
// tables, then the functions that record an event.
const firstTables = (n: Names) => `
CREATE TABLE ${n.intents} (
  kind text NOT NULL CHECK (kind IN ${sqlList(TRANSACTION_KINDS)}),
  reference_id text NOT NULL,
  amount numeric NOT NULL,
  currency text,
  body_digest text NOT NULL,
  state text NOT NULL CHECK (state IN ${sqlStates(['in_flight', 'created', 'unknown', 'not_created'])}),
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
  kind text NOT NULL CHECK (kind IN ${sqlList(TRANSACTION_KINDS)}),
  id text NOT NULL,
  reference_id text NOT NULL,
  amount numeric,
  currency text,
  status text,
  -- The status before this one, and every status recorded (in order of arrival): what lets one
  -- UPDATE judge an event, skip a duplicate and say what came before (see record_event).
  previous_status text,
  statuses text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
) WITH (fillfactor = 80); -- room on each page for the row's next versions (HOT updates)
CREATE TABLE ${n.events} (
  kind text NOT NULL,
  transaction_id text NOT NULL,
  status text NOT NULL,
  reference_id text NOT NULL,
  source text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ${sqlList(RECORDED_OUTCOMES)}),
  previous text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, transaction_id, status)
);
-- The reconciler's work: one row per transaction not yet in a terminal status, made with its first
-- status and gone with its terminal one (record_event keeps it), so a pass reads only these.
-- due_at NULL: since + the reconciler's first interval.
CREATE TABLE ${n.checks} (
  kind text NOT NULL,
  id text NOT NULL,
  since timestamptz NOT NULL DEFAULT now(),
  due_at timestamptz,
  checks integer NOT NULL DEFAULT 0,
  last_error text,
  lease_owner text,
  lease_until timestamptz,
  PRIMARY KEY (kind, id)
);
`;

const firstFunctions = (n: Names) => `-- Webhooks are placed by id alone (the payload does not say payin or payout): record_event looks
-- for each kind in the primary keys, so no index of its own is written with every create.
-- The status order of status-order.ts as one expression: what a status does to a transaction
-- whose status is the one recorded. Plain SQL, so the planner inlines it where it is used. The
-- first status is written in (FIRST_STATUS); the terminal ones come from the caller (p_terminal).
CREATE FUNCTION ${n.judge}(recorded text, status text, terminal text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE
    WHEN recorded IS NULL THEN 'change'
    WHEN recorded = ANY (terminal) THEN
      CASE WHEN status = ${sqlLiteral(FIRST_STATUS)} OR status = ANY (terminal) THEN 'stale' ELSE 'delivered' END
    WHEN status = ${sqlLiteral(FIRST_STATUS)} THEN 'stale'
    ELSE 'change'
  END
$fn$;
-- One (transaction, status), recorded once, judged by the status order, in one round trip.
-- Every event of one transaction is recorded one after another on every instance: each takes the
-- transaction's row lock first, so a duplicate waits for the first to commit (or roll back) and
-- an event is judged against what the one before it committed. p_kind NULL (a webhook): the kind
-- of the transaction's row, else of its intent; neither, or both kinds, is r_outcome 'unplaced'
-- with nothing written (the caller asks the service).
CREATE FUNCTION ${n.recordEvent}(p_kind text, p_id text, p_ref text, p_status text, p_source text,
    p_amount numeric, p_currency text, p_terminal text,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text) LANGUAGE plpgsql AS $fn$
DECLARE
  terminal text[] := string_to_array(p_terminal, ',');
  found_rows int;
  recorded text[];
BEGIN
  -- A webhook's kind (p_kind NULL): its transaction row's, else its intent's; neither, or both
  -- kinds, is unplaced.
  r_kind := p_kind;
  IF r_kind IS NULL THEN
    SELECT min(t.kind), count(*) INTO r_kind, found_rows FROM ${n.transactions} t
      WHERE t.kind IN ${sqlList(TRANSACTION_KINDS)} AND t.id = p_id;
    IF found_rows = 0 THEN
      SELECT min(i.kind), count(DISTINCT i.kind) INTO r_kind, found_rows FROM ${n.intents} i
        WHERE i.kind IN ${sqlList(TRANSACTION_KINDS)} AND i.reference_id = p_ref;
    END IF;
    IF found_rows <> 1 THEN
      r_outcome := 'unplaced';
      r_kind := NULL;
      RETURN;
    END IF;
  END IF;
  -- The common case in one statement: the row is known and this status is new to it. The UPDATE
  -- takes the row lock; a concurrent event of the same transaction makes it wait, and it is then
  -- applied to the row that event committed (its statuses, its status). Its kind is a plain value
  -- here: "p_kind IS NULL OR ..." in it would have it planned anew on every call (a generic plan
  -- looks dearer than one made for the values), five times its cost.
  UPDATE ${n.transactions} t SET
      statuses = t.statuses || p_status,
      previous_status = CASE WHEN ${n.judge}(t.status, p_status, terminal) = 'change' THEN t.status ELSE t.previous_status END,
      status = CASE WHEN ${n.judge}(t.status, p_status, terminal) = 'change' THEN p_status ELSE t.status END,
      amount = COALESCE(t.amount, p_amount), currency = COALESCE(t.currency, p_currency), updated_at = now()
    WHERE t.kind = r_kind AND t.id = p_id AND p_status <> ALL (t.statuses)
    -- This status is new to the row, so the row shows it only if it became the status.
    RETURNING CASE WHEN t.status = p_status THEN t.previous_status ELSE t.status END INTO r_previous;
  IF FOUND THEN
    r_outcome := ${n.judge}(r_previous, p_status, terminal);
  ELSE
    -- A duplicate, or a transaction without a row yet: lock (or make) the row, then decide.
    -- A transaction's first status (a create's answer, most often): the row is made with it.
    INSERT INTO ${n.transactions} (kind, id, reference_id, amount, currency, status, statuses)
      VALUES (r_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status]) ON CONFLICT (kind, id) DO NOTHING;
    IF FOUND THEN
      r_previous := NULL;
      r_outcome := 'change';
    ELSE
      SELECT t.status, t.statuses INTO r_previous, recorded FROM ${n.transactions} t
        WHERE t.kind = r_kind AND t.id = p_id FOR UPDATE;
      IF p_status = ANY (recorded) THEN
        r_outcome := 'duplicate';
        RETURN;
      END IF;
      r_outcome := ${n.judge}(r_previous, p_status, terminal);
      UPDATE ${n.transactions} t SET
          statuses = t.statuses || p_status,
          previous_status = CASE WHEN r_outcome = 'change' THEN t.status ELSE t.previous_status END,
          status = CASE WHEN r_outcome = 'change' THEN p_status ELSE t.status END,
          amount = COALESCE(t.amount, p_amount), currency = COALESCE(t.currency, p_currency), updated_at = now()
        WHERE t.kind = r_kind AND t.id = p_id;
    END IF;
  END IF;
  -- No ON CONFLICT: the row's statuses said this one is new, and the events table must agree.
  INSERT INTO ${n.events} (kind, transaction_id, status, reference_id, source, outcome, previous)
    VALUES (r_kind, p_id, p_status, p_ref, p_source, r_outcome, r_previous);
  -- The reconciler checks a transaction from its first status until a terminal one.
  IF r_outcome = 'change' AND p_status = ANY (terminal) THEN
    DELETE FROM ${n.checks} c WHERE c.kind = r_kind AND c.id = p_id;
  ELSIF r_previous IS NULL THEN
    INSERT INTO ${n.checks} (kind, id) VALUES (r_kind, p_id) ON CONFLICT DO NOTHING;
  END IF;
END
$fn$;`;

// Amounts are `numeric`: exact, whatever digits the merchant sent (never a binary float).
// Timestamps come from the journal's clock, passed to every statement (from the fourth migration
// on, to the functions too): the column defaults of `now()` below are only for rows written by
// anything else. Instances' clocks must agree within the leases' margin (leases.ts), as NTP keeps
// them.
// The domain's constants (kinds, the first status: @pay/schema; intent states: intent-states.ts)
// are written into the text from their one source, and come out as the literals they always were.
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'intents, transactions, events',
    sql: (n) => firstTables(n) + firstFunctions(n),
  },
  {
    version: 2,
    name: 'recovery index',
    // recover() looks for intents left in flight or unknown; the others are the bulk of the table.
    sql: (n) => `CREATE INDEX ON ${n.intents} (lease_until) WHERE state IN ${sqlStates(['in_flight', 'unknown'])};`,
  },
  {
    version: 3,
    name: 'queued creates, a create recorded in one statement',
    sql: (n) => `
-- A create recorded inside the merchant's own transaction (enqueue) waits as 'queued' with its
-- request (the body as JSON, and for a payout whether it goes to the payment page) until it is
-- sent; lease_until is when recover() may send it if nobody has. The request is kept only while
-- it may still be sent: it is cleared once the create is created or refused.
ALTER TABLE ${n.intents} ADD COLUMN request text;
DO $do$ DECLARE c text; BEGIN
  FOR c IN SELECT conname FROM pg_constraint
            WHERE conrelid = '${n.intents}'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%state%' LOOP
    EXECUTE format('ALTER TABLE ${n.intents} DROP CONSTRAINT %I', c);
  END LOOP;
END $do$;
ALTER TABLE ${n.intents} ADD CHECK (state IN ${sqlStates(INTENT_STATES)});
DROP INDEX IF EXISTS ${n.intentsLeaseIndex};
CREATE INDEX ON ${n.intents} (lease_until) WHERE state IN ${sqlStates(UNDECIDED_STATES)};
-- A create's outcome in one statement (one round trip): the intent created with its transaction
-- (only while it is in flight or unknown, and, given p_owner, only while that instance holds its
-- lease), and the create's status down the one event path. r_taken false: the intent was decided
-- elsewhere meanwhile; the event is recorded all the same (the status is the service's truth, and
-- a second recording of it is a duplicate).
CREATE FUNCTION ${n.recordCreated}(p_kind text, p_ref text, p_id text, p_next_action jsonb, p_status text, p_source text,
    p_amount numeric, p_currency text, p_owner text, p_terminal text,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text,
    OUT r_taken boolean, OUT r_amount text, OUT r_currency text, OUT r_next_action jsonb) LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE ${n.intents} SET state = ${sqlState('created')}, transaction_id = p_id, next_action = COALESCE(p_next_action, next_action),
      request = NULL, lease_owner = NULL, lease_until = NULL, decidable_at = NULL, last_error = NULL, updated_at = now()
    WHERE kind = p_kind AND reference_id = p_ref AND state IN ${sqlStates(['in_flight', 'unknown'])} AND (p_owner IS NULL OR lease_owner = p_owner)
    RETURNING amount::text, currency, next_action INTO r_amount, r_currency, r_next_action;
  r_taken := FOUND;
  -- A create's status is most often its transaction's first: record_event's path for a row not
  -- there yet, written here (the row made with it, its event, the reconciler's row unless the
  -- status is terminal) without the nested call and the UPDATE that would find nothing, which cost
  -- more than the writes on PGlite. The row already there (a webhook came first, or this status is
  -- recorded again): record_event decides, under the row's lock, as for any event.
  INSERT INTO ${n.transactions} (kind, id, reference_id, amount, currency, status, statuses)
    VALUES (p_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status]) ON CONFLICT (kind, id) DO NOTHING;
  IF FOUND THEN
    r_outcome := 'change';
    r_previous := NULL;
    r_kind := p_kind;
    INSERT INTO ${n.events} (kind, transaction_id, status, reference_id, source, outcome, previous)
      VALUES (p_kind, p_id, p_status, p_ref, p_source, r_outcome, NULL);
    IF p_status <> ALL (string_to_array(p_terminal, ',')) THEN
      INSERT INTO ${n.checks} (kind, id) VALUES (p_kind, p_id) ON CONFLICT DO NOTHING;
    END IF;
  ELSE
    SELECT e.r_outcome, e.r_previous, e.r_kind INTO r_outcome, r_previous, r_kind
      FROM ${n.recordEvent}(p_kind, p_id, p_ref, p_status, p_source, p_amount, p_currency, p_terminal) e;
  END IF;
END
$fn$;`,
  },
  {
    version: 4,
    name: 'functions on the journal clock',
    sql: functionsOnTheClock,
  },
  {
    version: 5,
    name: 'reconciler indexes',
    // A pass walks the due rows in order of due time (sql/checks.ts): due_at once a row has been
    // looked up, `since` (plus the reconciler's first wait) before. Each order has an index, so a
    // claim reads its batch from them instead of sorting the whole table: without them a pass over
    // a backlog of N rows read N²/batch rows. A create writes one index entry more (the second).
    sql: (n) => `
CREATE INDEX ON ${n.checks} (due_at, kind, id) WHERE due_at IS NOT NULL;
CREATE INDEX ON ${n.checks} (since, kind, id) WHERE due_at IS NULL;`,
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
    // applied_at is the database's time: a note for people, which nothing decides by.
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
