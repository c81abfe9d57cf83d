// Which PGlite the prepared path (pglite-prepared.ts) may run on. That path speaks PGlite's internal
// entry points (execProtocol, _runExclusiveQuery, _runExclusiveTransaction, parsers), which no
// release promises to keep; a PGlite it was not tested against gets the journal's statements
// through its public `query` instead, slower and always right.
//
// The version is read from the instance itself, with SQL: PGlite exports no version (neither its
// module nor its class carries one), and the package.json the journal could resolve is not
// necessarily the copy that made the instance you pass in (two copies in one node_modules, a
// bundle). PGlite's PostgreSQL is compiled with its release in `version()` ("PostgreSQL 18.6
// (PGlite 0.5.16) on wasm32-unknown-emscripten, ..."), in the WebAssembly shipped with the same
// JavaScript, so the text names the PGlite that answers. An instance whose text does not name
// one is not known, and gets the public `query`.
import type { Row } from '../port.js';

/**
 * The PGlite versions the prepared path was written and tested against: the 0.5 series from 0.5.16,
 * the devDependency the suite runs on. Later 0.5 patches are admitted: PGlite ships one every week
 * or two, and a patch of a 0.x series has kept these entry points (0.5.17 was checked by hand: its
 * creates prepared, a DEALLOCATE ALL survived); one that changed the shape of an answer would be
 * caught by the answer's checks in pglite-prepared.ts, and that instance sent to the public
 * `query`. Earlier patches were never tested, and a new minor may change anything.
 *
 * To move it: make the new PGlite the devDependency, then test/pglite-guard.test.ts must fail (it
 * asserts that the installed PGlite takes the prepared path), then raise these numbers, and that
 * file, test/pglite-prepared.test.ts and the whole suite (`npx vitest run`, on PGlite) must pass.
 */
const PREPARED_PGLITE = { major: 0, minor: 5, fromPatch: 16 } as const;

/** A PGlite release, as its instance names it. */
export interface PGliteVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** A release only: a pre-release (`0.6.0-dev.1`) is not one it was tested against. */
const IN_VERSION_TEXT = /\(PGlite (\d+)\.(\d+)\.(\d+)\)/;

/** The PGlite release named in the text of PostgreSQL's `version()` on a PGlite instance, if any. */
export function pgliteVersionIn(text: unknown): PGliteVersion | undefined {
  const found = typeof text === 'string' ? IN_VERSION_TEXT.exec(text) : null;
  if (found === null) return undefined;
  return { major: Number(found[1]), minor: Number(found[2]), patch: Number(found[3]) };
}

/** True when the prepared path was written and tested against `version` ({@link PREPARED_PGLITE}). */
export function preparedRunsOn(version: PGliteVersion | undefined): boolean {
  return (
    version !== undefined &&
    version.major === PREPARED_PGLITE.major &&
    version.minor === PREPARED_PGLITE.minor &&
    version.patch >= PREPARED_PGLITE.fromPatch
  );
}

/** What reading the version needs of an instance: its public `query`. */
export interface VersionSource {
  query(text: string): Promise<{ rows: Row[] }>;
}

/**
 * The PGlite release of instance `db`, from its `version()` (one statement through its public
 * `query`); undefined when the text names none. Rejects when the statement fails.
 */
export async function pgliteVersionOf(db: VersionSource): Promise<PGliteVersion | undefined> {
  // pg_catalog's, whatever a search_path of yours holds.
  const { rows } = await db.query('SELECT pg_catalog.version() AS version');
  return pgliteVersionIn(rows[0]?.['version']);
}
