// The journal's own statements on PGlite, prepared once: PGlite's `query` parses, describes and
// plans its text on every call, in six calls into the WebAssembly (parse, describe, bind, describe,
// execute, sync), which on the create's path costs more than the work the statements do. Here a
// statement is parsed once per PGlite instance under a name, and each call is one message (bind,
// execute, sync) in one call. Wire messages: the PostgreSQL frontend protocol, text format.
//
// This speaks PGlite's internals, which no release promises to keep, so it runs only where it is
// known to be right: on a PGlite it was tested against (pglite-version.ts), and while the instance
// answers as expected. Another version, or one unexpected answer, sends the instance to PGlite's
// public `query` for good.
import { PREPARE, type Query, type Row } from '../port.js';
import { pgliteVersionOf, preparedRunsOn, type VersionSource } from './pglite-version.js';

/** A backend message as PGlite's execProtocol answers it (the parts read here; checked, not trusted). */
interface BackendMessage {
  readonly name: string;
  readonly fields?: unknown;
  readonly text?: unknown;
}

/** What this needs of a PGlite instance beyond `query`: all of it in PGlite 0.2 and later. */
export interface PGliteProtocol extends VersionSource {
  execProtocol(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<{ messages: BackendMessage[] }>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _checkReady(): Promise<void>;
  parsers: Record<number, (text: string, typeId: number) => unknown>;
}

/** True when `db` has what the prepared path calls; whether it may use it is decided on the first call. */
export function speaksProtocol(db: unknown): db is PGliteProtocol {
  const d = db as Partial<PGliteProtocol>;
  return (
    typeof d.execProtocol === 'function' &&
    typeof d._runExclusiveQuery === 'function' &&
    typeof d._runExclusiveTransaction === 'function' &&
    typeof d._checkReady === 'function' &&
    typeof d.parsers === 'object' &&
    d.parsers !== null
  );
}

const encoder = new TextEncoder();

/** One frontend message: its type byte, its length, its body. */
function message(type: string, parts: readonly Uint8Array[]): Uint8Array {
  const length = 4 + parts.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(1 + length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, length);
  let at = 5;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const cstring = (s: string) => encoder.encode(`${s}\0`);
const int16 = (n: number) => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
};
const concat = (messages: readonly Uint8Array[]) => {
  const out = new Uint8Array(messages.reduce((sum, m) => sum + m.length, 0));
  let at = 0;
  for (const m of messages) {
    out.set(m, at);
    at += m.length;
  }
  return out;
};

const SYNC = message('S', []);
const EXECUTE = message('E', [cstring(''), int32(0)]);

/** A parameter as text, the way PGlite's own serializers write the journal's values. */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Bind: the unnamed portal from statement `name`, every parameter and column in text. */
function bind(name: string, params: readonly unknown[]): Uint8Array {
  const parts: Uint8Array[] = [cstring(''), cstring(name), int16(0), int16(params.length)];
  for (const p of params) {
    const text = paramText(p);
    if (text === null) parts.push(int32(-1));
    else {
      const bytes = encoder.encode(text);
      parts.push(int32(bytes.length), bytes);
    }
  }
  parts.push(int16(0));
  return message('B', parts);
}

/**
 * Which way an instance gets the journal's hot statements: `prepared` here, or `public`, its own
 * `query`, once it is not a tested version or has answered something unexpected (for good: an
 * instance that answered so once is not trusted again). A promise while its version is read.
 */
type Path = 'prepared' | 'public';
const paths = new WeakMap<object, Path | Promise<Path>>();

/**
 * The journal's `query` on a PGlite instance that has the protocol's entry points: its own hot
 * statements (marked {@link PREPARE}, with parameters) prepared once while the instance is a
 * version this was tested against and answers as expected; everything else, and every statement
 * once it is not, through `plain` (PGlite's public `query`).
 */
export function preparedQuery(db: PGliteProtocol, plain: Query): Query {
  return (text, params) => {
    if (params === undefined || params.length === 0 || !text.startsWith(PREPARE)) return plain(text, params);
    const path = paths.get(db) ?? decide(db);
    if (path === 'prepared') return runPrepared(db, plain, text, params);
    if (path === 'public') return plain(text, params);
    return path.then((p) => (p === 'prepared' ? runPrepared(db, plain, text, params) : plain(text, params)));
  };
}

/**
 * Reads the instance's version once, for every call that waits on it. A read that fails (the
 * instance closing, a statement refused) says nothing about the version: that call goes through
 * `query`, and the next one reads again.
 */
function decide(db: PGliteProtocol): Promise<Path> {
  const deciding: Promise<Path> = pgliteVersionOf(db).then(
    (version) => settle(db, deciding, preparedRunsOn(version) ? 'prepared' : 'public'),
    () => settle(db, deciding, undefined),
  );
  paths.set(db, deciding);
  return deciding;
}

/** Records the path decided for `db` (none: forget, read again), unless something else was decided meanwhile. */
function settle(db: PGliteProtocol, deciding: Promise<Path>, path: Path | undefined): Path {
  if (paths.get(db) === deciding) {
    if (path === undefined) paths.delete(db);
    else paths.set(db, path);
  }
  return path ?? 'public';
}

/** Returned when the statement was not run here (so it is safe to run through `query`). */
const NOT_RUN = Symbol('not run');

/** One hot statement prepared; through `plain` when it turned out it must not be (nothing was run). */
async function runPrepared(db: PGliteProtocol, plain: Query, text: string, params: readonly unknown[]): Promise<Row[]> {
  const rows = await queryPrepared(db, text, params);
  return rows === NOT_RUN ? plain(text, params) : rows;
}

/** A prepared statement: its name and its result columns (name, type). */
interface Prepared {
  readonly name: string;
  readonly columns: readonly Column[];
}

interface Column {
  readonly name: string;
  readonly dataTypeID: number;
}

/** Statements prepared on each PGlite instance, by text. */
const preparedOn = new WeakMap<object, Map<string, Prepared>>();

/**
 * Names never reused in a process: a statement given up after a change may still exist under its
 * name. The counter is this copy of the module's, so the names carry a prefix of its own too: two
 * copies of @pay/journal in one process (two installs of it) may share an instance, and each
 * counting from 1 alone took the other's names (42P05, "already exists").
 */
const copyPrefix = `pay_journal_${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('')}_`;
let named = 0;

/** Thrown by the server when a named statement is gone (DEALLOCATE) or its result type changed. */
const STALE = new Set(['26000', '0A000']);

/**
 * Runs one of the journal's own statements prepared, outside any transaction (PGlite's
 * transaction lock taken, like its `query`). Resolves with its rows, or with {@link NOT_RUN} when
 * it must go through `query` instead and nothing of it was run.
 *
 * @throws UnexpectedAnswer when the answer to its execution cannot be read.
 */
async function queryPrepared(db: PGliteProtocol, text: string, params: readonly unknown[]): Promise<Row[] | typeof NOT_RUN> {
  let cache = preparedOn.get(db);
  if (cache === undefined) preparedOn.set(db, (cache = new Map()));
  const statements = cache;
  await db._checkReady(); // a closed instance refuses, as its `query` does
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      // Another call found the instance answering unexpectedly while this one waited for the lock.
      if (paths.get(db) === 'public') return NOT_RUN;
      for (let attempt = 0; ; attempt++) {
        try {
          const prepared = statements.get(text) ?? (await prepare(db, text));
          if (prepared === undefined) return NOT_RUN;
          statements.set(text, prepared);
          return await execute(db, prepared, params);
        } catch (error) {
          // Gone or changed under us (DEALLOCATE, a table altered): prepared again, once.
          if (attempt === 0 && STALE.has((error as { code?: string }).code ?? '')) {
            statements.delete(text);
            continue;
          }
          throw error;
        }
      }
    }),
  );
}

/**
 * Parses `text` under a new name and describes it. Undefined when the answer is not the expected
 * one: the instance then goes to `query` for good, and since Parse and Describe run nothing, the
 * statement is simply sent there (the name left on the server is never used again).
 */
async function prepare(db: PGliteProtocol, text: string): Promise<Prepared | undefined> {
  const name = `${copyPrefix}${++named}`;
  const answer = await db.execProtocol(
    concat([message('P', [cstring(name), cstring(text), int16(0)]), message('D', [encoder.encode('S'), cstring(name)]), SYNC]),
    { syncToFs: false },
  );
  const columns = describedColumns(messagesOf(answer));
  if (columns === undefined) {
    paths.set(db, 'public');
    return undefined;
  }
  return { name, columns };
}

/**
 * Binds and executes `prepared` and reads its rows. An answer that cannot be read comes after the
 * statement was sent to run, so it may have run (and committed: it runs alone): it is not run
 * again, which could record something twice, but reported, as a statement whose answer was lost
 * on a server is (the guard makes it a DatabaseError of its step; what the journal records is safe
 * to find again, so the caller's retry is right). The instance goes to `query` for good.
 */
async function execute(db: PGliteProtocol, prepared: Prepared, params: readonly unknown[]): Promise<Row[]> {
  const messages = messagesOf(await db.execProtocol(concat([bind(prepared.name, params), EXECUTE, SYNC])));
  const fields = resultFields(messages, prepared.columns.length);
  if (fields === undefined) {
    paths.set(db, 'public');
    throw new UnexpectedAnswer(messages);
  }
  return fields.map((values) => {
    const row: Row = {};
    prepared.columns.forEach((c, i) => {
      const value = values[i]!;
      const parse = db.parsers[c.dataTypeID];
      row[c.name] = value === null ? null : parse ? parse(value, c.dataTypeID) : value;
    });
    return row;
  });
}

/** The messages of an execProtocol answer; undefined when it has none to read. */
function messagesOf(answer: unknown): readonly BackendMessage[] | undefined {
  const messages = (answer as { messages?: unknown } | null | undefined)?.messages;
  return Array.isArray(messages) && messages.every((m) => typeof m?.name === 'string') ? messages : undefined;
}

/**
 * What any answer may carry beside the statement's own messages, whatever the statement: a notice
 * (a trigger of yours that raises one), a NOTIFY delivered, a setting's new value.
 */
const ASIDE = new Set(['notice', 'notification', 'parameterStatus']);

const own = (messages: readonly BackendMessage[]) => messages.filter((m) => !ASIDE.has(m.name));

/**
 * The result columns from the answer to Parse, Describe, Sync: parseComplete,
 * parameterDescription, rowDescription (every field a name and a type) or noData, readyForQuery.
 * Undefined for any other answer.
 */
function describedColumns(messages: readonly BackendMessage[] | undefined): Column[] | undefined {
  if (messages === undefined) return undefined;
  const [parsed, parameters, description, ready, ...more] = own(messages);
  if (
    parsed?.name !== 'parseComplete' ||
    parameters?.name !== 'parameterDescription' ||
    ready?.name !== 'readyForQuery' ||
    more.length > 0
  ) {
    return undefined;
  }
  if (description?.name === 'noData') return [];
  if (description?.name !== 'rowDescription' || !Array.isArray(description.fields)) return undefined;
  const columns: Column[] = [];
  for (const field of description.fields as unknown[]) {
    const { name, dataTypeID } = (field ?? {}) as Partial<Column>;
    if (typeof name !== 'string' || !Number.isInteger(dataTypeID)) return undefined;
    columns.push({ name, dataTypeID: dataTypeID! });
  }
  return columns;
}

/**
 * The rows' values from the answer to Bind, Execute, Sync: bindComplete, a dataRow of `width`
 * values (text or NULL) per row, commandComplete counting those rows, readyForQuery. Undefined
 * for any other answer.
 */
function resultFields(messages: readonly BackendMessage[] | undefined, width: number): (string | null)[][] | undefined {
  if (messages === undefined) return undefined;
  const answer = own(messages);
  const last = answer.length - 1;
  if (last < 2 || answer[0]!.name !== 'bindComplete' || answer[last]!.name !== 'readyForQuery') return undefined;
  const rows = rowValues(answer.slice(1, last - 1), width);
  return rows !== undefined && completes(answer[last - 1]!, width === 0 ? undefined : rows.length) ? rows : undefined;
}

/** The values of `messages`, each a dataRow of `width` values (text or NULL); none of a statement without columns. */
function rowValues(messages: readonly BackendMessage[], width: number): (string | null)[][] | undefined {
  if (width === 0 && messages.length > 0) return undefined;
  const rows: (string | null)[][] = [];
  for (const m of messages) {
    const values = m.fields;
    if (m.name !== 'dataRow' || !Array.isArray(values) || values.length !== width) return undefined;
    if (!values.every((v) => v === null || typeof v === 'string')) return undefined;
    rows.push(values);
  }
  return rows;
}

/**
 * True for the commandComplete of a statement that returned `rows` rows: its tag ends with their
 * number (`INSERT 0 1`, `UPDATE 1`, `SELECT 1`), so a row lost from the answer is seen. A statement
 * without columns returns none, whatever it counts.
 */
function completes(message: BackendMessage, rows: number | undefined): boolean {
  if (message.name !== 'commandComplete') return false;
  return rows === undefined || (typeof message.text === 'string' && message.text.endsWith(` ${rows}`));
}

/**
 * PGlite answered the execution of one of the journal's prepared statements with messages it
 * cannot read. The statement may have run; the guard reports it as a DatabaseError of its step.
 * Only the messages' names are kept: their values may be the merchant's data.
 */
class UnexpectedAnswer extends Error {
  /** For code that branches on the cause of a DatabaseError. */
  readonly code = 'pglite_unexpected_answer';
  constructor(messages: readonly BackendMessage[] | undefined) {
    const names = messages === undefined ? 'no messages' : messages.map((m) => m.name).join(', ') || 'no messages';
    super(
      `PGlite answered a prepared statement of the journal unexpectedly (${names.slice(0, 120)}); it may have run, so it is not run again, and this instance gets the journal's statements through its query from now on`,
    );
    this.name = 'UnexpectedAnswer';
  }
}
