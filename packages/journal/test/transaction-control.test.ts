// transactionControlIn: every spelling of a statement that would end or take over the journal's
// transaction is found, wherever it stands in a text of several statements, and nothing hidden in
// a comment, a string, a quoted identifier or a dollar-quoted body is taken for one; under either
// reading of a backslash in plain strings (standard_conforming_strings on or off).
import { describe, expect, it } from 'vitest';
import { transactionControlIn } from '../src/transaction-control.js';

describe('transactionControlIn', () => {
  it.each([
    ['COMMIT', 'COMMIT'],
    ['commit', 'COMMIT'],
    ['  Commit Work ', 'COMMIT'],
    ['COMMIT AND CHAIN', 'COMMIT'],
    ['END', 'END'],
    ['end transaction', 'END'],
    ['ABORT', 'ABORT'],
    ['ROLLBACK', 'ROLLBACK'],
    ['rollback and no chain', 'ROLLBACK'],
    ['BEGIN', 'BEGIN'],
    ['begin isolation level serializable', 'BEGIN'],
    ['START TRANSACTION', 'START TRANSACTION'],
    ['start\n\ttransaction read only', 'START TRANSACTION'],
    ["PREPARE TRANSACTION 'x'", 'PREPARE TRANSACTION'],
    ["COMMIT PREPARED 'x'", 'COMMIT'],
    ["ROLLBACK PREPARED 'x'", 'ROLLBACK'],
    ['SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'SET TRANSACTION'],
    ['SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY', 'SET SESSION CHARACTERISTICS'],
    ['/* why */COMMIT', 'COMMIT'],
    ['/* nested /* comment */ still */ COMMIT', 'COMMIT'],
    ['-- a line\nCOMMIT', 'COMMIT'],
    ['SELECT 1;COMMIT', 'COMMIT'],
    ["UPDATE t SET a = 'x;y'; commit", 'COMMIT'],
    ["SELECT E'it\\'s'; COMMIT", 'COMMIT'],
    ["SELECT 'it''s'; COMMIT", 'COMMIT'],
    ['SELECT "a;b" FROM t; COMMIT', 'COMMIT'],
    ['SELECT $$;$$; COMMIT', 'COMMIT'],
    ['SELECT $body$ COMMIT; $body$; ROLLBACK', 'ROLLBACK'],
    ['SELECT $1;\nCOMMIT', 'COMMIT'],
    [';;COMMIT;;', 'COMMIT'],
    // standard_conforming_strings = off: a backslash in a plain string escapes the quote after it.
    ["INSERT INTO notes VALUES ('shop\\'s note'); COMMIT", 'COMMIT'],
    ["SELECT '\\''; END", 'END'],
    ["SELECT 'a\\'', $$x$$; abort", 'ABORT'],
    ["UPDATE t SET note = 'x\\';'; ROLLBACK; --'", 'ROLLBACK'],
    ["SELECT 'it\\'s'; START TRANSACTION", 'START TRANSACTION'],
  ])('%j holds %s', (text, control) => {
    expect(transactionControlIn(text)).toBe(control);
  });

  it.each([
    'SELECT 1',
    // Neither reading finds a statement here: '' is a quote in both, and no backslash is in play.
    "SELECT 'a\\\\'; SELECT 1",
    "INSERT INTO orders (note) VALUES ('commit')",
    "INSERT INTO orders (note) VALUES ('x''; COMMIT; --')",
    "SELECT E'\\'; COMMIT; --'",
    'SELECT "commit" FROM t',
    'SELECT $$ COMMIT $$',
    'SELECT $tag$ ; COMMIT ; $tag$',
    '-- COMMIT\nSELECT 1',
    '/* ROLLBACK */ SELECT 1',
    'SAVEPOINT a',
    'RELEASE SAVEPOINT a',
    'RELEASE a',
    'ROLLBACK TO SAVEPOINT a',
    'rollback to a',
    'ROLLBACK WORK TO SAVEPOINT a',
    'ROLLBACK TRANSACTION TO a',
    'UPDATE commits SET ended = true',
    'SELECT begin_at, end_at FROM t',
    "SET LOCAL lock_timeout = '1s'",
    'DO $$ BEGIN PERFORM 1; END $$',
    '',
  ])('%j holds none', (text) => {
    expect(transactionControlIn(text)).toBeUndefined();
  });
});
