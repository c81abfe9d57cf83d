// What the journal checks before it trusts a directory for a database: the cache directory of
// fresh clusters (fresh-cluster.ts) and the embedded database's `dataDir` (connect.ts). No other
// account may have been able to write the directory or a file read from it, or to swap either for
// its own.
//
// A kept cluster (and a data directory) is a whole PostgreSQL cluster: its functions and event triggers run with the
// journal's rights as soon as the journal's migrations run on it. Its content cannot be checked
// (a database is no file of known bytes), so trust rests on ownership alone:
// - the directory is the user's own (owned by this process's uid), a directory and not a link,
//   and writable by neither its group nor others;
// - every directory above it, links resolved, is owned by the user or root and is writable by
//   no one else unless it has the sticky bit (as /tmp has): otherwise another account could
//   rename the directory away and put its own in its place, whatever the directory's own owner;
// - the file is opened once, without following a link, and checked (a regular file, the user's,
//   writable by no one else, of a sane size) and read on that same handle: nothing can be swapped
//   in between;
// - a file is written under a new name made only for it (O_EXCL, O_NOFOLLOW, 0600), then renamed.
// Where there is no user id to compare (Windows: no process.getuid), nothing can be checked, so
// the cache is neither read nor written there. Anything refused is said, and costs only the
// seconds a new cluster takes.
import { randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/** The cache directory, checked: its real path, or why it is not used, or absent (not made). */
export type OwnDirectory = { readonly dir: string } | { readonly refused: string } | { readonly absent: true };

/** Why nothing is trusted where the owner of a file cannot be known. */
const NO_OWNER = 'the owner of a file cannot be checked on this platform (no process.getuid), so the cache directory is not used';

/**
 * The directory `wanted` (in a base directory that may not exist yet), checked as the user's own
 * along with every directory above it. With `create`, the missing directories are made (0700)
 * below the nearest one that exists, once that one is checked; without, a missing one is absent.
 */
export async function ownDirectory(wanted: string, create: boolean): Promise<OwnDirectory> {
  const uid = process.getuid?.();
  if (uid === undefined) return { refused: NO_OWNER };
  const base = await checkedBase(dirname(wanted), uid, create);
  if (!('dir' in base)) return base;
  const dir = join(base.dir, basename(wanted));
  if (create) await mkdir(dir, { mode: 0o700 }).catch(unlessExists);
  let info: Stats;
  try {
    info = await lstat(dir);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { absent: true };
    throw error;
  }
  const wrong = notTheUsersAlone(dir, info, uid, 'directory');
  return wrong === undefined ? { dir } : { refused: wrong };
}

/**
 * The real path of `base`, each directory from the root down checked (owned by `uid` or root, and
 * writable by no one else unless sticky). Realpath first, then the checks on that path, which is
 * used from then on: a link on the way can change afterwards, a checked directory cannot.
 */
async function checkedBase(base: string, uid: number, create: boolean): Promise<OwnDirectory> {
  const missing: string[] = [];
  let existing = base;
  let real: string;
  for (;;) {
    try {
      real = await realpath(existing);
      break;
    } catch (error) {
      if (codeOf(error) !== 'ENOENT' || dirname(existing) === existing) throw error;
      missing.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  if (missing.length > 0 && !create) return { absent: true };
  for (const path of pathsDownTo(real)) {
    const wrong = notSafeAbove(path, await lstat(path), uid);
    if (wrong !== undefined) return { refused: wrong };
  }
  for (const name of missing) {
    real = join(real, name);
    await mkdir(real, { mode: 0o700 }).catch(unlessExists);
    const wrong = notSafeAbove(real, await lstat(real), uid);
    if (wrong !== undefined) return { refused: wrong };
  }
  return { dir: real };
}

/** `/`, `/a`, `/a/b` for `/a/b`: an absolute path and every directory above it, from the root. */
function pathsDownTo(path: string): string[] {
  const paths: string[] = [sep];
  let at = '';
  for (const part of path.split(sep).filter((p) => p !== '')) paths.push((at += sep + part));
  return paths;
}

/** Why a directory above the cache directory could let another account swap what is below it. */
function notSafeAbove(path: string, info: Stats, uid: number): string | undefined {
  if (info.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!info.isDirectory()) return `${path} is not a directory`;
  if (info.uid !== uid && info.uid !== 0) return `${path} is owned by uid ${info.uid}, not by this process's uid ${uid} or root`;
  // The sticky bit lets only an entry's owner rename or remove it: what is ours stays ours.
  if ((info.mode & 0o1000) === 0 && (info.mode & 0o022) !== 0) {
    return `${path} is writable by ${(info.mode & 0o002) !== 0 ? 'others' : 'its group'} without the sticky bit`;
  }
  return undefined;
}

/** Why the cache directory or a file in it is not the user's alone. */
function notTheUsersAlone(path: string, info: Stats, uid: number, kind: 'directory' | 'regular file'): string | undefined {
  if (info.isSymbolicLink()) return `${path} is a symbolic link`;
  if (kind === 'directory' ? !info.isDirectory() : !info.isFile()) return `${path} is not a ${kind}`;
  if (info.uid !== uid) return `${path} is owned by uid ${info.uid}, not by this process's uid ${uid}`;
  if ((info.mode & 0o020) !== 0) return `${path} is writable by its group`;
  if ((info.mode & 0o002) !== 0) return `${path} is writable by others`;
  return undefined;
}

/**
 * The bytes of `file`, in a checked cache directory: opened once without following a link (and
 * without blocking on a FIFO), checked with fstat on that handle, read from it.
 */
export async function readOwnFile(
  file: string,
  maxBytes: number,
): Promise<{ readonly bytes: Uint8Array<ArrayBuffer> } | { readonly refused: string }> {
  const uid = process.getuid?.();
  if (uid === undefined || constants.O_NOFOLLOW === undefined) return { refused: NO_OWNER };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // ELOOP on Linux and macOS, EMLINK on FreeBSD: the name is a link.
    if (codeOf(error) === 'ELOOP' || codeOf(error) === 'EMLINK') return { refused: `${file} is a symbolic link` };
    throw error;
  }
  try {
    const info = await handle.stat();
    const wrong = notTheUsersAlone(file, info, uid, 'regular file');
    if (wrong !== undefined) return { refused: wrong };
    if (info.size > maxBytes) return { refused: `${file} is larger than ${maxBytes} bytes` };
    const bytes = new Uint8Array(info.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // Only the user could have shortened it (it is written whole and renamed); no half file is used.
    if (filled !== bytes.length) return { refused: `${file} became shorter while it was read` };
    return { bytes };
  } finally {
    await handle.close();
  }
}

/**
 * Writes `bytes` as `name` in a checked cache directory: whole, under a new name no one else can
 * have made (created exclusively, never through a link, 0600), then renamed, so a reader sees the
 * old file or the new one.
 */
export async function writeOwnFile(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  const temporary = join(dir, `.${randomUUID()}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  // Fails on any name that exists, a link included: nothing but this new file is ever written.
  const handle = await open(temporary, flags, 0o600);
  try {
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    await rename(temporary, join(dir, name));
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}

function unlessExists(error: unknown): void {
  if (codeOf(error) !== 'EEXIST') throw error;
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
