// The fourth migration: the journal's two functions take the time from the journal's clock.
// The first and third migrations' record_event and record_created wrote the database's `now()`
// (a transaction's recorded_at and updated_at, an event's recorded_at, the reconciler's `since`),
// so a test that moved the journal's clock moved everything but those. Released migrations are
// never edited: this one drops both and creates them again with `p_now`, the time every
// statement of the journal now passes (see sql/functions.ts). Their text is otherwise that of the
// functions they replace.
import { TRANSACTION_KINDS } from '@pay/schema';
import type { Names } from './names.js';
import { sqlList, sqlState, sqlStates } from './sql/text.js';

/** The SQL of the fourth migration. */
export const functionsOnTheClock = (n: Names): string => `
-- Older callers passed no time: a journal of this release never calls these, and leaving them
-- would let one write the database's time beside the journal's clock.
DROP FUNCTION ${n.recordCreated}(text, text, text, jsonb, text, text, numeric, text, text, text);
DROP FUNCTION ${n.recordEvent}(text, text, text, text, text, numeric, text, text);
-- One (transaction, status), recorded once, judged by the status order, in one round trip, at
-- p_now (the journal's clock). Every event of one transaction is recorded one after another on
-- every instance: each takes the transaction's row lock first. p_kind NULL (a webhook): the kind
-- of the transaction's row, else of its intent; neither, or both kinds, is r_outcome 'unplaced'
-- with nothing written (the caller asks the service).
CREATE FUNCTION ${n.recordEvent}(p_kind text, p_id text, p_ref text, p_status text, p_source text,
    p_amount numeric, p_currency text, p_terminal text, p_now timestamptz,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text) LANGUAGE plpgsql AS $fn$
DECLARE
  terminal text[] := string_to_array(p_terminal, ',');
  found_rows int;
  recorded text[];
BEGIN
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
  -- The common case in one statement: the row is known and this status is new to it (see the
  -- first migration for why the kind is a plain value here).
  UPDATE ${n.transactions} t SET
      statuses = t.statuses || p_status,
      previous_status = CASE WHEN ${n.judge}(t.status, p_status, terminal) = 'change' THEN t.status ELSE t.previous_status END,
      status = CASE WHEN ${n.judge}(t.status, p_status, terminal) = 'change' THEN p_status ELSE t.status END,
      amount = COALESCE(t.amount, p_amount), currency = COALESCE(t.currency, p_currency), updated_at = p_now
    WHERE t.kind = r_kind AND t.id = p_id AND p_status <> ALL (t.statuses)
    RETURNING CASE WHEN t.status = p_status THEN t.previous_status ELSE t.status END INTO r_previous;
  IF FOUND THEN
    r_outcome := ${n.judge}(r_previous, p_status, terminal);
  ELSE
    INSERT INTO ${n.transactions} (kind, id, reference_id, amount, currency, status, statuses, created_at, updated_at)
      VALUES (r_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status], p_now, p_now) ON CONFLICT (kind, id) DO NOTHING;
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
          amount = COALESCE(t.amount, p_amount), currency = COALESCE(t.currency, p_currency), updated_at = p_now
        WHERE t.kind = r_kind AND t.id = p_id;
    END IF;
  END IF;
  INSERT INTO ${n.events} (kind, transaction_id, status, reference_id, source, outcome, previous, recorded_at)
    VALUES (r_kind, p_id, p_status, p_ref, p_source, r_outcome, r_previous, p_now);
  -- The reconciler checks a transaction from its first status (since: p_now) until a terminal one.
  IF r_outcome = 'change' AND p_status = ANY (terminal) THEN
    DELETE FROM ${n.checks} c WHERE c.kind = r_kind AND c.id = p_id;
  ELSIF r_previous IS NULL THEN
    INSERT INTO ${n.checks} (kind, id, since) VALUES (r_kind, p_id, p_now) ON CONFLICT DO NOTHING;
  END IF;
END
$fn$;
-- A create's outcome in one statement, at p_now: the intent created with its transaction (only
-- while it is in flight or unknown, and, given p_owner, only while that instance holds its lease),
-- and the create's status down the one event path (see the third migration).
CREATE FUNCTION ${n.recordCreated}(p_kind text, p_ref text, p_id text, p_next_action jsonb, p_status text, p_source text,
    p_amount numeric, p_currency text, p_owner text, p_terminal text, p_now timestamptz,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text,
    OUT r_taken boolean, OUT r_amount text, OUT r_currency text, OUT r_next_action jsonb) LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE ${n.intents} SET state = ${sqlState('created')}, transaction_id = p_id, next_action = COALESCE(p_next_action, next_action),
      request = NULL, lease_owner = NULL, lease_until = NULL, decidable_at = NULL, last_error = NULL, updated_at = p_now
    WHERE kind = p_kind AND reference_id = p_ref AND state IN ${sqlStates(['in_flight', 'unknown'])} AND (p_owner IS NULL OR lease_owner = p_owner)
    RETURNING amount::text, currency, next_action INTO r_amount, r_currency, r_next_action;
  r_taken := FOUND;
  INSERT INTO ${n.transactions} (kind, id, reference_id, amount, currency, status, statuses, created_at, updated_at)
    VALUES (p_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status], p_now, p_now) ON CONFLICT (kind, id) DO NOTHING;
  IF FOUND THEN
    r_outcome := 'change';
    r_previous := NULL;
    r_kind := p_kind;
    INSERT INTO ${n.events} (kind, transaction_id, status, reference_id, source, outcome, previous, recorded_at)
      VALUES (p_kind, p_id, p_status, p_ref, p_source, r_outcome, NULL, p_now);
    IF p_status <> ALL (string_to_array(p_terminal, ',')) THEN
      INSERT INTO ${n.checks} (kind, id, since) VALUES (p_kind, p_id, p_now) ON CONFLICT DO NOTHING;
    END IF;
  ELSE
    SELECT e.r_outcome, e.r_previous, e.r_kind INTO r_outcome, r_previous, r_kind
      FROM ${n.recordEvent}(p_kind, p_id, p_ref, p_status, p_source, p_amount, p_currency, p_terminal, p_now) e;
  END IF;
END
$fn$;`;
