// The embedded PGlite's first start runs initdb in WebAssembly: seconds, and in memory on every
// start. So the journal keeps one freshly made cluster, empty (dumped before the journal writes
// anything to it), per PGlite version in the user's cache directory, and starts the next embedded
// database from a copy of it: 13.3 s became 5.0 s on a busy two-core machine (`pnpm bench`).
//
// What is read back must be the user's alone, the directory it is in too (own-files.ts says
// what is checked, and why ownership is all a cluster can be trusted on); anything else is refused,
// said through the `refused` callback, and initdb runs as before. A cache that cannot be written
// (a read-only home) is no error either: it only costs the seconds.
import { readdir, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownDirectory, readOwnFile, writeOwnFile } from './own-files.js';

/** A dump of an empty cluster is about 5 MB gzipped; anything far larger is not ours. */
const MAX_BYTES = 64 * 1024 * 1024;

/** What the journal needs of its own PGlite to keep a copy: a dump, and a query to name the cluster. */
export interface Dumpable {
  dumpDataDir(compression: 'gzip'): Promise<Blob>;
  query(text: string): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Where fresh clusters of one PGlite version are kept. */
export interface ClusterPlace {
  readonly dir: string;
  /** Every kept file's name starts with this; the cluster's system identifier follows. */
  readonly prefix: string;
}

/** A kept cluster: its bytes, and the system identifier a copy of it must report. */
export interface KeptCluster {
  readonly file: string;
  readonly bytes: Blob;
  readonly systemId: string;
}

/** Told why the cache was not used: what was wrong, and where. */
export type Refused = (reason: string) => void;

/**
 * Where fresh clusters of this PGlite version are kept: `$XDG_CACHE_HOME/pay-journal`, else
 * `~/.cache/pay-journal` (a relative XDG_CACHE_HOME is ignored, as the XDG spec says). Undefined
 * when the version or a home cannot be found (then none is kept).
 */
export async function freshClusterPlace(pgliteEntry: string | undefined): Promise<ClusterPlace | undefined> {
  try {
    const version = await pgliteVersion(pgliteEntry);
    if (version === undefined) return undefined;
    const xdg = process.env['XDG_CACHE_HOME'];
    const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
    return { dir: join(base, 'pay-journal'), prefix: `pglite-${version}-fresh-cluster-` };
  } catch {
    return undefined;
  }
}

/** The version of the PGlite package whose entry file is `entry` (a file: URL), from its package.json. */
async function pgliteVersion(entry: string | undefined): Promise<string | undefined> {
  if (entry === undefined || !entry.startsWith('file:')) return undefined;
  let dir = dirname(fileURLToPath(entry));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest === undefined) continue;
    const { name, version } = JSON.parse(manifest) as { name?: unknown; version?: unknown };
    if (name === '@electric-sql/pglite' && typeof version === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(version)) return version;
  }
  return undefined;
}

/** The system identifier of the cluster `db` runs on: initdb draws a new one for every cluster. */
export async function systemIdOf(db: Pick<Dumpable, 'query'>): Promise<string> {
  const { rows } = await db.query('SELECT system_identifier::text AS id FROM pg_control_system()');
  return String(rows[0]?.['id']);
}

/**
 * The kept cluster, when there is one this user can trust; else undefined, and `refused` is told
 * why when one was not trusted (the directory, or the file).
 */
export async function readFreshCluster(place: ClusterPlace | undefined, refused: Refused = () => {}): Promise<KeptCluster | undefined> {
  if (place === undefined) return undefined;
  try {
    const at = await ownDirectory(place.dir, false);
    if ('refused' in at) {
      refused(at.refused);
      return undefined;
    }
    if ('absent' in at) return undefined;
    const name = (await readdir(at.dir)).find(
      (f) => f.startsWith(place.prefix) && /^[0-9]{1,20}\.tar\.gz$/.test(f.slice(place.prefix.length)),
    );
    if (name === undefined) return undefined;
    const file = join(at.dir, name);
    const read = await readOwnFile(file, MAX_BYTES);
    if ('refused' in read) {
      refused(read.refused);
      return undefined;
    }
    return { file, bytes: new Blob([read.bytes]), systemId: name.slice(place.prefix.length, -'.tar.gz'.length) };
  } catch {
    return undefined;
  }
}

/**
 * Keeps a dump of `db`, which must still be the empty cluster initdb made, in place of any other
 * kept for this version. Resolves false when it could not (nothing is left half written), and
 * `refused` is told why when the directory is not the user's alone (then nothing is written).
 */
export async function keepFreshCluster(place: ClusterPlace | undefined, db: Dumpable, refused: Refused = () => {}): Promise<boolean> {
  if (place === undefined) return false;
  try {
    const at = await ownDirectory(place.dir, true);
    if ('refused' in at) {
      refused(at.refused);
      return false;
    }
    if ('absent' in at) return false;
    const name = `${place.prefix}${await systemIdOf(db)}.tar.gz`;
    const dump = await db.dumpDataDir('gzip');
    await writeOwnFile(at.dir, name, new Uint8Array(await dump.arrayBuffer()));
    // Anything else under this version's names goes: in the user's own directory, a name of ours
    // (even a directory, which would otherwise be found and refused on every start).
    for (const other of await readdir(at.dir)) {
      if (other.startsWith(place.prefix) && other !== name) await rm(join(at.dir, other), { force: true, recursive: true }).catch(() => {});
    }
    return true;
  } catch {
    return false;
  }
}

/** Removes a kept cluster that did not load as itself, so the next start makes and keeps a good one. */
export async function forgetFreshCluster(kept: KeptCluster): Promise<void> {
  await rm(kept.file, { force: true }).catch(() => {});
}
