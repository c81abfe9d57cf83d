// refusalOf: what a handler's query refuses of a text, read once per text and then kept. The
// verdict must be the guards' own every time (the first reading and every later one, for texts
// refused and texts allowed, texts of the same length included), and stay right once more texts
// than it keeps have gone by.
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../src/handler-text.js';
import { sessionChangeIn } from '../src/session-state.js';
import { transactionControlIn } from '../src/transaction-control.js';

/** What each guard finds in `text`, read afresh: the words a refusal must name, or nothing. */
const named = (text: string) => transactionControlIn(text) ?? sessionChangeIn(text)?.statement;

const TEXTS = [
  'COMMIT',
  'SELECT',
  'INSERT INTO orders_log (id, status) VALUES ($1, $2)',
  "SELECT 'COMMIT'; COMMIT",
  "SELECT 'it\\'s'; COMMIT --'",
  'SET ROLE app',
  'SET LOCAL ROLE app',
  "SELECT set_config('search_path', 'x', false)",
  "SELECT set_config('search_path', 'x', true)",
  'SAVEPOINT s1',
];

describe('refusalOf', () => {
  it.each(TEXTS)('answers for %j what the guards find, the first time and every time after', (text) => {
    const words = named(text);
    for (let time = 0; time < 3; time++) {
      const refusal = refusalOf(text);
      if (words === undefined) expect(refusal).toBeUndefined();
      else expect(refusal).toContain(`a handler's query cannot run ${words}`);
    }
  });

  it('tells apart texts of the same length (one refused, one allowed), whichever is read first', () => {
    expect('COMMIT'.length).toBe('SELECT'.length);
    expect(refusalOf('SELECT')).toBeUndefined();
    expect(refusalOf('COMMIT')).toContain('cannot run COMMIT');
    expect(refusalOf('SELECT')).toBeUndefined();
  });

  it('stays right after more texts than it keeps have gone by', () => {
    expect(refusalOf('RESET ALL')).toContain('cannot run RESET');
    expect(refusalOf('SELECT 0')).toBeUndefined();
    for (let i = 1; i <= 1000; i++) {
      // Every few texts one refused: each is still judged, not taken from another's verdict.
      // Read twice: the second answer is the kept one.
      const text = i % 7 === 0 ? `SELECT ${i}; COMMIT` : `SELECT ${i}`;
      const verdict = i % 7 === 0 ? expect.stringContaining('cannot run COMMIT') : undefined;
      expect(refusalOf(text)).toEqual(verdict);
      expect(refusalOf(text)).toEqual(verdict);
    }
    expect(refusalOf('RESET ALL')).toContain('cannot run RESET');
    expect(refusalOf('SELECT 0')).toBeUndefined();
  });
});

describe('a long text', () => {
  it('is judged every time, refused or allowed, also after a shorter text with the same start', () => {
    const allowed = `SELECT '${'x'.repeat(5_000)}'`;
    const refused = `${allowed}; COMMIT`;
    for (let time = 0; time < 2; time++) {
      expect(refusalOf(allowed)).toBeUndefined();
      expect(refusalOf(refused)).toContain('cannot run COMMIT');
    }
  });
});
