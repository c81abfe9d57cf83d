// The embedded PGlite starts from a fresh cluster kept in the user's cache directory. A cluster
// someone else put there runs its own code with the journal's rights: these tests plant one that
// carries an event trigger, which records every DDL statement of the journal's migrations in a
// table of its own. The journal must take a kept cluster only from a directory and a file that no
// other account could have written, say why when it does not, and never load the planted one,
// even while another real OS account (`nobody`, as this root test process can run it) swaps files
// under the name the journal reads.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, rename, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ClusterPlace, freshClusterPlace, keepFreshCluster, readFreshCluster, systemIdOf } from '../src/fresh-cluster.js';
import { type JournalReport, openJournal } from '../src/index.js';
import { freshPGlite } from './helpers/backends.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_1', secret: 'sk_test_1' });

/** The `nobody` account, and why a test that needs a second account cannot run here. */
const other = otherAccount();
function otherAccount(): { uid: number; gid: number } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'not run as root: cannot hand files or a process to another account' };
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) return { skip: 'no `nobody` account in /etc/passwd' };
  return { uid: Number(uid), gid: Number(gid) };
}
const skipped = 'skip' in other ? ` (skipped: ${other.skip})` : '';
const nobody = () => other as { uid: number; gid: number };

let root: string;
let place: ClusterPlace;
/** A cluster with a marker table and an event trigger that writes to it on every DDL statement. */
let planted: { bytes: Uint8Array; systemId: string };
const saved = process.env['XDG_CACHE_HOME'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pay-journal-owner-'));
  await chmod(root, 0o711); // the other account's process must reach its shared directory in it
  place = (await freshClusterPlace(import.meta.resolve('@electric-sql/pglite')))!;
  const db = new PGlite();
  await db.exec(`
    CREATE TABLE planted_marker (tag text);
    CREATE FUNCTION planted_ran() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO planted_marker VALUES (tg_tag); END $$;
    CREATE EVENT TRIGGER planted ON ddl_command_end EXECUTE FUNCTION planted_ran();`);
  planted = { systemId: await systemIdOf(db), bytes: new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer()) };
  await db.close();
});
afterAll(async () => {
  if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = saved;
  await rm(root, { recursive: true, force: true });
});

/** A cache base holding the planted cluster as a kept one, the way the journal keeps its own. */
async function cacheWithPlanted() {
  const base = await mkdtemp(join(root, 'cache-'));
  const dir = join(base, 'pay-journal');
  await mkdir(dir, { mode: 0o700 });
  const file = join(dir, `${place.prefix}${planted.systemId}.tar.gz`);
  await writeFile(file, planted.bytes, { mode: 0o600 });
  return { base, dir, file };
}

/**
 * Opens an embedded journal on the cache base `base`, and returns its ready report and what the
 * planted event trigger recorded in the journal's database (null: the planted cluster is not in it).
 * With `onConsole`, the journal is given no onReport (it says its start on standard error), and
 * there is no report.
 */
async function start(base: string, { onConsole = false } = {}) {
  process.env['XDG_CACHE_HOME'] = base;
  const reports: JournalReport[] = [];
  const journal = await openJournal({ client, ...(!onConsole && { onReport: (r: JournalReport) => reports.push(r) }) });
  try {
    const marker = await journal.transaction(async (q) => {
      const [row] = await q("SELECT to_regclass('public.planted_marker') IS NOT NULL AS present");
      return row!['present'] ? (await q('SELECT tag FROM planted_marker')).map((r) => String(r['tag'])) : null;
    });
    const ready = reports.find((r) => r.type === 'embedded_database' && r.state === 'ready');
    return { ready: ready as Extract<JournalReport, { type: 'embedded_database' }>, marker };
  } finally {
    await journal.close();
  }
}

describe('a kept cluster the user alone could have written', () => {
  it('is copied: its own trigger ran, and nothing was refused', async () => {
    const { base } = await cacheWithPlanted();
    const { ready, marker } = await start(base);
    expect(ready.cluster).toBe('copied');
    expect(ready.cacheRefused).toBeUndefined();
    expect(marker).toContain('CREATE TABLE'); // the journal's migrations ran on the kept cluster
  });

  it('is copied from a sticky, world-writable parent such as /tmp: others cannot rename what is ours in it', async () => {
    const { base } = await cacheWithPlanted();
    await chmod(base, 0o1777);
    const { ready, marker } = await start(base);
    expect(ready.cluster).toBe('copied');
    expect(ready.cacheRefused).toBeUndefined();
    expect(marker).not.toBeNull();
  });
});

type Layout = Awaited<ReturnType<typeof cacheWithPlanted>>;
interface Refusal {
  readonly what: string;
  readonly spoil: (at: Layout) => Promise<unknown>;
  readonly reason: RegExp;
  /** A refused directory is not written to; a refused file is replaced by a new, good one when it can be. */
  readonly cluster: 'made' | 'made_and_kept';
  readonly needsRoot?: boolean;
  /** Also opened through a whole journal (a file's reason; a directory's is in the last test, on standard error). */
  readonly wholeJournal?: boolean;
}
const refusals: Refusal[] = [
  {
    what: 'the directory is writable by its group',
    spoil: (at) => chmod(at.dir, 0o770),
    reason: /pay-journal is writable by its group/,
    cluster: 'made',
  },
  {
    what: 'the directory is writable by others',
    spoil: (at) => chmod(at.dir, 0o707),
    reason: /pay-journal is writable by others/,
    cluster: 'made',
  },
  {
    what: 'the directory is a symbolic link',
    spoil: async (at) => {
      await rename(at.dir, join(at.base, 'elsewhere'));
      await symlink(join(at.base, 'elsewhere'), at.dir);
    },
    reason: /pay-journal is a symbolic link/,
    cluster: 'made',
  },
  {
    what: 'the directory belongs to another account',
    spoil: (at) => chown(at.dir, nobody().uid, nobody().gid),
    reason: /pay-journal is owned by uid \d+, not by this process's uid \d+/,
    cluster: 'made',
    needsRoot: true,
  },
  {
    what: 'its parent is writable by others without the sticky bit',
    spoil: (at) => chmod(at.base, 0o777),
    reason: /cache-\w+ is writable by others without the sticky bit/,
    cluster: 'made',
  },
  {
    what: 'its parent belongs to another account',
    spoil: (at) => chown(at.base, nobody().uid, nobody().gid),
    reason: /cache-\w+ is owned by uid \d+, not by this process's uid \d+ or root/,
    cluster: 'made',
    needsRoot: true,
  },
  {
    what: 'the file is a symbolic link',
    spoil: async (at) => {
      await rename(at.file, join(at.base, 'elsewhere.tar.gz'));
      await symlink(join(at.base, 'elsewhere.tar.gz'), at.file);
    },
    reason: /fresh-cluster-\d+\.tar\.gz is a symbolic link/,
    cluster: 'made_and_kept',
    wholeJournal: true,
  },
  {
    what: 'the file belongs to another account',
    spoil: (at) => chown(at.file, nobody().uid, nobody().gid),
    reason: /fresh-cluster-\d+\.tar\.gz is owned by uid \d+, not by this process's uid \d+/,
    cluster: 'made_and_kept',
    needsRoot: true,
  },
  {
    what: 'the file is writable by its group',
    spoil: (at) => chmod(at.file, 0o620),
    reason: /\.tar\.gz is writable by its group/,
    cluster: 'made_and_kept',
  },
  {
    what: 'the file is writable by others',
    spoil: (at) => chmod(at.file, 0o602),
    reason: /\.tar\.gz is writable by others/,
    cluster: 'made_and_kept',
  },
  {
    what: 'the file is larger than any kept cluster',
    spoil: (at) => truncate(at.file, 65 * 1024 * 1024), // sparse: no 65 MB written
    reason: /\.tar\.gz is larger than \d+ bytes/,
    cluster: 'made_and_kept',
  },
  {
    // Opened without O_NONBLOCK, a FIFO would hold the journal's start until someone writes to it.
    what: 'the file is a FIFO',
    spoil: async (at) => {
      await rm(at.file);
      execFileSync('mkfifo', ['-m', '600', at.file]);
    },
    reason: /\.tar\.gz is not a regular file/,
    cluster: 'made_and_kept',
  },
  {
    what: 'the file is a directory',
    spoil: async (at) => {
      await rm(at.file);
      await mkdir(at.file, { mode: 0o700 });
    },
    reason: /\.tar\.gz is not a regular file/,
    cluster: 'made_and_kept',
  },
];

// Each reason is judged where the journal decides it, in its order: the kept cluster read
// (readFreshCluster), refused, then a fresh one kept in its place (keepFreshCluster) where the
// directory allows. One fresh PGlite serves every reason: a whole journal makes its fresh cluster
// with initdb, seconds of CPU each on a loaded machine, so two reasons go through a whole journal:
// a file's below, and a directory's in the test of what the journal says without onReport. The fresh one is a copy of the run's fresh cluster
// (backends.ts), a cluster other than the planted one (initdb drew each its own system
// identifier), so what it keeps has a name of its own.
describe('a kept cluster another account could have written is refused, with the reason reported', () => {
  let fresh: PGlite;
  beforeAll(async () => {
    fresh = await freshPGlite();
  });
  afterAll(() => fresh?.close());

  for (const refusal of refusals) {
    const skip = refusal.needsRoot === true && 'skip' in other;
    it.skipIf(skip)(`${refusal.what}${refusal.needsRoot ? skipped : ''}`, async () => {
      const at = await cacheWithPlanted();
      await refusal.spoil(at);
      const before = await readdir(at.dir);
      const kept = { dir: at.dir, prefix: place.prefix };
      const reasons: string[] = [];
      expect(await readFreshCluster(kept, (r: string) => reasons.push(r))).toBeUndefined(); // the planted cluster is never read
      expect(reasons).toEqual([expect.stringMatching(refusal.reason)]);
      const replaced = await keepFreshCluster(kept, fresh, () => {});
      if (refusal.cluster === 'made') {
        expect(replaced).toBe(false);
        expect(await readdir(at.dir)).toEqual(before); // nothing written to a refused directory
      } else {
        expect(replaced).toBe(true);
        const now = await readFreshCluster(kept);
        expect(now).toBeDefined();
        expect(Buffer.from(await now!.bytes.arrayBuffer()).equals(planted.bytes)).toBe(false);
        // Kept in place of the refused file, which is gone, under its own name, for this account alone.
        expect(await readdir(at.dir)).toEqual([basename(now!.file)]);
        expect(now!.file).not.toBe(at.file);
        expect((await stat(now!.file)).mode & 0o777).toBe(0o600);
      }
    });
  }

  describe('through a whole journal', () => {
    for (const refusal of refusals.filter((r) => r.wholeJournal)) {
      it(refusal.what, async () => {
        const at = await cacheWithPlanted();
        await refusal.spoil(at);
        const before = await readdir(at.dir);
        const { ready, marker } = await start(at.base);
        expect(marker).toBeNull(); // the planted cluster never ran
        expect(ready.cluster).toBe(refusal.cluster);
        expect(ready.cacheRefused).toMatch(refusal.reason);
        if (refusal.cluster === 'made') expect(await readdir(at.dir)).toEqual(before);
      });
    }
  });
});

it('says the refusal on standard error without onReport: the directory writable by its group, through a whole journal', async () => {
  const at = await cacheWithPlanted();
  await chmod(at.dir, 0o770);
  const before = await readdir(at.dir);
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const { marker } = await start(at.base, { onConsole: true });
    expect(marker).toBeNull(); // the planted cluster never ran
    // A cluster made, and not kept (nothing said after the reason): the directory was refused.
    expect(error.mock.calls.map((c) => String(c[0]))[1]).toMatch(
      /^@pay\/journal: the embedded PGlite is ready \(\d+\.\d s\); the kept cluster was not used: \/.*\/pay-journal is writable by its group$/,
    );
    expect(await readdir(at.dir)).toEqual(before);
  } finally {
    error.mockRestore();
  }
});

describe('where the owner of a file cannot be checked (no process.getuid, as on Windows)', () => {
  it('neither reads nor writes the cache, and says why', async () => {
    const at = await cacheWithPlanted();
    const getuid = Object.getOwnPropertyDescriptor(process, 'getuid')!;
    Object.defineProperty(process, 'getuid', { value: undefined, configurable: true });
    const reasons: string[] = [];
    const asked: string[] = [];
    try {
      const kept = { dir: at.dir, prefix: place.prefix };
      expect(await readFreshCluster(kept, (r: string) => reasons.push(r))).toBeUndefined();
      // Not asked for anything: the directory is refused before the cluster is looked at.
      const db = {
        dumpDataDir: async () => {
          asked.push('dump');
          return new Blob([]);
        },
        query: async () => {
          asked.push('query');
          return { rows: [{ id: '1' }] };
        },
      };
      expect(await keepFreshCluster(kept, db, (r: string) => reasons.push(r))).toBe(false);
    } finally {
      Object.defineProperty(process, 'getuid', getuid);
    }
    expect(reasons).toEqual([expect.stringMatching(/cannot be checked/), expect.stringMatching(/cannot be checked/)]);
    expect(asked).toEqual([]);
    expect(await readdir(at.dir)).toEqual([`${place.prefix}${planted.systemId}.tar.gz`]);
  });
});

describe(`another account racing renames in a shared cache directory${skipped}`, () => {
  it.skipIf('skip' in other)('never gets its planted cluster loaded, however the names are swapped', async () => {
    const { uid, gid } = nobody();
    // A shared cache such as a world-writable XDG_CACHE_HOME: sticky, like /tmp.
    const base = await mkdtemp(join(root, 'shared-'));
    await chmod(base, 0o1777);
    const source = join(base, 'planted.src');
    await writeFile(source, planted.bytes, { mode: 0o644 });
    const dir = join(base, 'pay-journal');
    const name = `${place.prefix}${planted.systemId}.tar.gz`;
    const script = fileURLToPath(new URL('./fixtures/swap-planted-cluster.mjs', import.meta.url));
    const attacker = spawn(process.execPath, ['--input-type=module', '-e', readFileSync(script, 'utf8'), '--', dir, source, name], {
      uid,
      gid,
      cwd: base,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const said = waitForLines(attacker.stdout, ['planted', 'racing']);
      await said.next('planted');
      // The victim's own file, as an earlier start of the journal would have kept it in that
      // directory: root's, 0600, so it passes any check made by name.
      await writeFile(join(dir, '.victims'), 'kept by an earlier start of the journal', { mode: 0o600 });
      await said.next('racing');

      // Many reads, each a chance for a swap between a check and a read by name.
      const reasons = new Set<string>();
      let loadedPlanted = 0;
      let reads = 0;
      for (const until = Date.now() + 15_000; Date.now() < until && reads < 5_000; reads++) {
        const kept = await readFreshCluster({ dir, prefix: place.prefix }, (r: string) => reasons.add(r));
        if (kept !== undefined && Buffer.from(await kept.bytes.arrayBuffer()).equals(planted.bytes)) loadedPlanted++;
      }
      expect({ reads, loadedPlanted }).toEqual({ reads, loadedPlanted: 0 });
      expect([...reasons]).toEqual([expect.stringMatching(/pay-journal is owned by uid \d+, not by this process's uid 0/)]);

      // And a whole journal opened while the swapping goes on.
      const { ready, marker } = await start(base);
      expect(ready.cluster).toBe('made');
      expect(ready.cacheRefused).toMatch(/pay-journal is owned by uid \d+/);
      expect(marker).toBeNull();
    } finally {
      attacker.kill();
    }
  });
});

/** Reads `stream` line by line; `next(line)` resolves when that line comes, in the order given. */
function waitForLines(stream: NodeJS.ReadableStream, lines: string[]) {
  const seen: string[] = [];
  const waiting = new Map<string, () => void>();
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n');
    for (; end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      seen.push(line);
      waiting.get(line)?.();
    }
  });
  return {
    next: (line: (typeof lines)[number]) =>
      new Promise<void>((resolve, reject) => {
        if (seen.includes(line)) return resolve();
        waiting.set(line, resolve);
        stream.once('end', () => reject(new Error(`the other account's process ended before saying ${line}`)));
      }),
  };
}
