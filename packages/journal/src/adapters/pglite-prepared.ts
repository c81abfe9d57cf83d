// The journal's own statements on PGlite, prepared once: PGlite's `query` parses, describes and
// plans its text on every call, in six calls into the WebAssembly (parse, describe, bind, describe,
// execute, sync), which on the create's path costs more than the work the statements do. Here a
// statement is parsed once per PGlite instance under a name, and each call is one message (bind,
// execute, sync) in one call. Wire messages: the PostgreSQL frontend protocol, text format.
import type { Row } from '../port.js';

/** A backend message as PGlite's execProtocol answers it (the parts read here). */
interface BackendMessage {
  readonly name: string;
  readonly fields?: readonly ({ name: string; dataTypeID: number } | string | null)[];
}

/** What this needs of a PGlite instance beyond `query`: all of it in PGlite 0.2 and later. */
export interface PGliteProtocol {
  execProtocol(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<{ messages: BackendMessage[] }>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _checkReady(): Promise<void>;
  parsers: Record<number, (text: string, typeId: number) => unknown>;
}

/** True when `db` can run prepared statements here; else the journal uses its plain `query`. */
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

/** A prepared statement: its name and its result columns (name, type). */
interface Prepared {
  readonly name: string;
  readonly columns: readonly { name: string; dataTypeID: number }[];
}

/** Statements prepared on each PGlite instance, by text. */
const preparedOn = new WeakMap<object, Map<string, Prepared>>();

/** Names never reused in a process: a statement given up after a change may still exist under its name. */
let named = 0;

/** Thrown by the server when a named statement is gone (DEALLOCATE) or its result type changed. */
const STALE = new Set(['26000', '0A000']);

/**
 * Runs one of the journal's own statements prepared, outside any transaction (PGlite's
 * transaction lock taken, like its `query`). Resolves with its rows.
 */
export async function queryPrepared(db: PGliteProtocol, text: string, params: readonly unknown[]): Promise<Row[]> {
  let statements = preparedOn.get(db);
  if (statements === undefined) preparedOn.set(db, (statements = new Map()));
  const cache = statements;
  await db._checkReady(); // a closed instance refuses, as its `query` does
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      for (let attempt = 0; ; attempt++) {
        let prepared = cache.get(text);
        try {
          if (prepared === undefined) {
            const name = `pay_journal_${++named}`;
            const { messages } = await db.execProtocol(
              concat([message('P', [cstring(name), cstring(text), int16(0)]), message('D', [encoder.encode('S'), cstring(name)]), SYNC]),
              { syncToFs: false },
            );
            const description = messages.find((m) => m.name === 'rowDescription');
            const columns = (description?.fields ?? []) as { name: string; dataTypeID: number }[];
            prepared = { name, columns: columns.map((c) => ({ name: c.name, dataTypeID: c.dataTypeID })) };
            cache.set(text, prepared);
          }
          const { messages } = await db.execProtocol(concat([bind(prepared.name, params), EXECUTE, SYNC]));
          const rows: Row[] = [];
          for (const m of messages) {
            if (m.name !== 'dataRow') continue;
            const row: Row = {};
            prepared.columns.forEach((c, i) => {
              const value = m.fields![i] as string | null;
              const parse = db.parsers[c.dataTypeID];
              row[c.name] = value === null ? null : parse ? parse(value, c.dataTypeID) : value;
            });
            rows.push(row);
          }
          return rows;
        } catch (error) {
          // Gone or changed under us (DEALLOCATE, a table altered): prepared again, once.
          if (attempt === 0 && STALE.has((error as { code?: string }).code ?? '')) {
            cache.delete(text);
            continue;
          }
          throw error;
        }
      }
    }),
  );
}
