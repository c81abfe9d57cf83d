// A database that counts what each statement gives back: the same database as a backend's, in the
// shape the journal recognises for its driver (the part of it each adapter uses), with every
// statement's text and the rows it returned noted while `counting` is on. What the journal reads
// in one statement is what it holds at once, whatever it does with the rows next.
import type { DatabaseLike } from '../../src/index.js';
import type { Backend } from './backends.js';

/** One statement the journal sent: its text and the most rows it returned (of each of its results). */
export interface Counted {
  readonly text: string;
  readonly rows: number;
}

/** The counting database, and what it counted. */
export interface Counter {
  readonly database: DatabaseLike;
  readonly statements: Counted[];
  /** Statements are noted only while this is true. */
  counting: boolean;
}

/** The most rows of one answer: a single result, or each of a text of several statements. */
const most = (results: unknown[], rows: (result: any) => number) => Math.max(0, ...results.map(rows));
/** PGlite's and pg's results: `{ rows }`, or an array of them. */
const resultRows = (answer: any): number => (Array.isArray(answer) ? most(answer, resultRows) : answer.rows.length);
/** postgres.js's: the rows themselves, or an array of such arrays. */
const arrayRows = (answer: any): number => (Array.isArray(answer[0]) ? most(answer, (r) => r.length) : answer.length);

/** `backend`'s database, counted. */
export function counted(backend: Backend): Counter {
  const statements: Counted[] = [];
  const rowsOf = backend.name === 'postgres.js' ? arrayRows : resultRows;
  // A statement is a text, or pg's named statement ({ name, text, values }).
  const note = async <T>(statement: unknown, answer: PromiseLike<T>): Promise<T> => {
    const result = await answer;
    const text = typeof statement === 'string' ? statement : String((statement as { text?: unknown }).text);
    if (counter.counting) statements.push({ text, rows: rowsOf(result) });
    return result;
  };
  const counter: Counter = { database: wrap(backend, note), statements, counting: false };
  return counter;
}

type Note = <T>(statement: unknown, answer: PromiseLike<T>) => Promise<T>;

/** The part of `backend`'s database the journal's adapter for it uses, each statement through `note`. */
function wrap({ name, database }: Backend, note: Note): DatabaseLike {
  const db = database as any;
  if (name === 'pglite') {
    const queries = (d: any) => ({
      query: (text: string, params?: unknown[]) => note(text, d.query(text, params)),
      exec: (text: string) => note(text, d.exec(text)),
    });
    return {
      ...queries(db),
      transaction: (work: (tx: unknown) => Promise<unknown>) => db.transaction((tx: unknown) => work(queries(tx))),
      waitReady: db.waitReady,
      close: async () => {},
    } as unknown as DatabaseLike;
  }
  if (name === 'pg') {
    const client = (c: any) => ({
      query: (...args: [any, any?]) => note(args[0], c.query(...args)),
      release: (destroy?: boolean | Error) => c.release(destroy),
      on: (event: string, listener: () => void) => c.on(event, listener),
      off: (event: string, listener: () => void) => c.off(event, listener),
    });
    return {
      query: (...args: [any, any?]) => note(args[0], db.query(...args)),
      connect: async () => client(await db.connect()),
      totalCount: 0,
    } as unknown as DatabaseLike;
  }
  const queries = (s: any) => ({ unsafe: (text: string, params?: never[]) => note(text, s.unsafe(text, params)) });
  const sql = () => {
    throw new Error('the journal calls postgres.js through unsafe and begin only');
  };
  return Object.assign(sql, {
    ...queries(db),
    begin: (work: (tx: unknown) => Promise<unknown>) => db.begin((tx: unknown) => work(queries(tx))),
  }) as unknown as DatabaseLike;
}
