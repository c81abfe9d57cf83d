// sessionChangeIn: every statement that would change the session a handler's connection keeps for
// later callers is found, wherever it stands in a text of several statements and under either
// reading of backslashes in strings, with what to use instead; the transaction-scoped forms, and
// words inside strings, comments and quoted bodies, are not.
import { describe, expect, it } from 'vitest';
import { sessionChangeIn } from '../src/session-state.js';

describe('sessionChangeIn', () => {
  it.each([
    ['SET ROLE app', 'SET ROLE', 'SET LOCAL'],
    ['set role = app', 'SET ROLE', 'SET LOCAL'],
    ['SET SESSION ROLE app', 'SET ROLE', 'SET LOCAL'],
    ['SET SESSION AUTHORIZATION app', 'SET SESSION AUTHORIZATION', 'SET LOCAL'],
    ['SET default_transaction_read_only = on', 'SET default_transaction_read_only', 'SET LOCAL'],
    ['SET SESSION default_transaction_read_only TO true', 'SET default_transaction_read_only', 'SET LOCAL'],
    ['set "search_path" = nowhere', 'SET search_path', 'SET LOCAL'],
    ['SET search_path TO shop, public', 'SET search_path', 'SET LOCAL'],
    ["SET TIME ZONE 'UTC'", 'SET TIME ZONE', 'SET LOCAL'],
    ["SET NAMES 'LATIN1'", 'SET NAMES', 'SET LOCAL'],
    ["SET LOCAL client_encoding = 'SJIS'", 'SET LOCAL client_encoding', 'UTF8'],
    ['SET LOCAL "client_encoding" = \'SJIS\'', 'SET LOCAL client_encoding', 'UTF8'],
    ["SET LOCAL NAMES 'BIG5'", 'SET LOCAL names', 'UTF8'],
    ["SELECT set_config('client_encoding', 'SJIS', true)", "set_config('client_encoding'", 'UTF8'],
    ["SELECT pg_catalog.set_config('CLIENT_ENCODING', 'GBK', TRUE)", "set_config('client_encoding'", 'UTF8'],
    ['SET statement_timeout = 0', 'SET statement_timeout', 'SET LOCAL'],
    ['SET plpgsql.extra_warnings = all', 'SET plpgsql.extra_warnings', 'SET LOCAL'],
    ['RESET ALL', 'RESET', 'DEFAULT'],
    ['reset role', 'RESET', 'DEFAULT'],
    ['DISCARD PLANS', 'DISCARD', 'nothing'],
    ['DEALLOCATE ALL', 'DEALLOCATE', 'nothing'],
    ['deallocate prepare pay_journal_1', 'DEALLOCATE', 'nothing'],
    ['PREPARE shop_q AS SELECT 1', 'PREPARE', '$1'],
    ['LISTEN orders', 'LISTEN', 'NOTIFY'],
    ['UNLISTEN *', 'UNLISTEN', 'NOTIFY'],
    ["LOAD 'auto_explain'", 'LOAD', 'nothing'],
    ['CREATE TEMP TABLE scratch (id int)', 'CREATE TEMP', 'ON COMMIT DROP'],
    ['create temporary view v as select 1', 'CREATE TEMP', 'ON COMMIT DROP'],
    ['CREATE GLOBAL TEMPORARY TABLE scratch (id int) ON COMMIT PRESERVE ROWS', 'CREATE TEMP', 'ON COMMIT DROP'],
    ['CREATE TABLE pg_temp.scratch (id int)', 'CREATE TEMP', 'ON COMMIT DROP'],
    ['SELECT * INTO TEMP scratch FROM orders', 'SELECT INTO TEMP', 'ON COMMIT DROP'],
    ['DECLARE c CURSOR WITH HOLD FOR SELECT 1', 'DECLARE ... WITH HOLD', 'WITHOUT HOLD'],
    ['SELECT pg_advisory_lock(42)', 'pg_advisory_lock', 'pg_advisory_xact_lock'],
    ['SELECT pg_try_advisory_lock_shared(1, 2)', 'pg_try_advisory_lock_shared', 'pg_advisory_xact_lock'],
    ['select pg_catalog.pg_advisory_unlock_all()', 'pg_advisory_unlock_all', 'pg_advisory_xact_lock'],
    ['SELECT "pg_advisory_lock"(7)', 'pg_advisory_lock', 'pg_advisory_xact_lock'],
    ["SELECT set_config('role', 'app', false)", 'set_config', 'set_config(name, value, true)'],
    ["SELECT pg_catalog.set_config('search_path', 'x', $1)", 'set_config', 'set_config(name, value, true)'],
    ["SELECT \"set_config\"('role', 'app', 'f')", 'set_config', 'set_config(name, value, true)'],
    ["SELECT set_config('a', lower('B'), false), set_config('c', 'd', true)", 'set_config', 'set_config(name, value, true)'],
    ["SELECT set_config('c', 'd', true), set_config('a', 'b', false)", 'set_config', 'set_config(name, value, true)'],
    ['SELECT 1; SET ROLE app', 'SET ROLE', 'SET LOCAL'],
    ['/* setup */ SET ROLE app', 'SET ROLE', 'SET LOCAL'],
    // Read with backslash escapes (standard_conforming_strings = off), the quote after `shop\` is
    // part of the string and SET ROLE is a statement.
    ["INSERT INTO notes VALUES ('shop\\'s note'); SET ROLE app", 'SET ROLE', 'SET LOCAL'],
    ["SELECT '\\''; RESET ALL", 'RESET', 'DEFAULT'],
  ])('%j changes the session: %s, use %s instead', (text, statement, instead) => {
    const change = sessionChangeIn(text);
    expect(change?.statement).toContain(statement);
    expect(change?.instead).toContain(instead);
  });

  it.each([
    'SELECT 1',
    'SET LOCAL ROLE app',
    'set local default_transaction_read_only = on',
    'SET LOCAL search_path TO shop, public',
    'SET CONSTRAINTS ALL DEFERRED',
    'SAVEPOINT a',
    "SELECT set_config('role', 'app', true)",
    "SELECT pg_catalog.set_config('search_path', lower('X'), TRUE)",
    'SELECT pg_advisory_xact_lock(42)',
    'SELECT pg_try_advisory_xact_lock_shared(1, 2)',
    'CREATE TEMP TABLE scratch (id int) ON COMMIT DROP',
    'DECLARE c CURSOR FOR SELECT 1',
    'CREATE TABLE shop.orders (id int)',
    "INSERT INTO notes VALUES ('SET ROLE app; RESET ALL')",
    "INSERT INTO notes VALUES ('set_config(''role'', ''x'', false)')",
    '-- SET ROLE app\nSELECT 1',
    '/* DEALLOCATE ALL */ SELECT 1',
    'SELECT $$ SET ROLE app $$',
    'SELECT "reset" FROM t',
    'UPDATE settings SET role = $1',
    'SELECT prepared, listen_to, load_at FROM t',
    'INSERT INTO temp (id) VALUES (1)',
    "NOTIFY orders, 'paid'",
    "SELECT pg_notify('orders', 'paid')",
    '',
  ])('%j changes nothing of the session', (text) => {
    expect(sessionChangeIn(text)).toBeUndefined();
  });
});
