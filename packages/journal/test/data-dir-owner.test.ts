// The embedded PGlite's `dataDir` holds a whole PostgreSQL cluster: one that another account put
// under the name runs its own event triggers with the journal's rights during the migrations. So
// the journal opens a data directory only when no other account could have written or swapped it,
// as PostgreSQL does for its own. A planted cluster here carries an event trigger that records
// every DDL statement in a marker table: it must never see the journal's migrations.
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { freshClusterDump } from './helpers/backends.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_1', secret: 'sk_test_1' });
const isRoot = process.getuid?.() === 0;
const NOBODY = Number(readFileSync('/etc/passwd', 'utf8').match(/^nobody:[^:]*:(\d+):/m)?.[1] ?? 65534);
const ROOT_ONLY = isRoot ? '' : ' (SKIPPED: needs root to give a directory to another account)';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pay-journal-datadir-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * A cluster in `dir` whose event trigger records every DDL statement in `planted_marker`: a copy
 * of the run's fresh cluster (backends.ts), as no test here is about initdb.
 */
async function plant(dir: string): Promise<void> {
  const db = new PGlite({ dataDir: dir, loadDataDir: await freshClusterDump() });
  await db.exec(`
    CREATE TABLE planted_marker (tag text);
    CREATE FUNCTION planted_ran() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO planted_marker VALUES (tg_tag); END $$;
    CREATE EVENT TRIGGER planted ON ddl_command_end EXECUTE FUNCTION planted_ran();`);
  await db.close();
}

/** What the planted trigger recorded: null when its table is gone or never was. */
async function marker(dir: string): Promise<number> {
  const db = new PGlite({ dataDir: dir });
  try {
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM planted_marker');
    return rows.rows[0]!.n;
  } finally {
    await db.close();
  }
}

async function open(dataDir: string) {
  return openJournal({ client, dataDir, onReport: () => {} });
}

describe('a dataDir another account could have written', () => {
  it('a directory of its own (0700): opened, and a second start opens the same database (the control)', async () => {
    const dir = join(root, 'own');
    const journal = await open(dir);
    await journal.close();
    expect((await stat(dir)).mode & 0o777).toBe(0o700); // made by the journal, for this account alone
    const again = await open(dir);
    await again.close();
    expect((await readdir(dir)).length).toBeGreaterThan(0);
  });

  it.each([
    ['writable by its group', 0o770, /writable by its group/],
    ['writable by others', 0o707, /writable by others/],
  ])('%s: refused, naming dataDir and why; the planted cluster never runs', async (_name, mode, why) => {
    const dir = join(root, `mode-${mode.toString(8)}`);
    await plant(dir);
    await chmod(dir, mode);
    const refusal = await open(dir).then(
      (j) => j.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(TypeError);
    expect((refusal as Error).message).toMatch(/^dataDir \S+ is not this account's alone/);
    expect((refusal as Error).message).toMatch(why);
    await chmod(dir, 0o700);
    expect(await marker(dir)).toBe(0);
  });

  it('under a parent others can write without the sticky bit: refused (the directory could be swapped)', async () => {
    const parent = join(root, 'shared');
    await mkdir(parent);
    await chmod(parent, 0o777);
    const refusal = await open(join(parent, 'data')).then(
      (j) => j.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect((refusal as Error).message).toMatch(/writable by others without the sticky bit/);
    expect(await readdir(parent)).toEqual([]); // nothing made there
  });

  it.skipIf(!isRoot)(`owned by another account: refused; the planted cluster never runs${ROOT_ONLY}`, async () => {
    const dir = join(root, 'theirs');
    await plant(dir);
    const chownAll = async (path: string): Promise<void> => {
      await chown(path, NOBODY, NOBODY);
      const info = await stat(path);
      if (info.isDirectory()) for (const entry of await readdir(path)) await chownAll(join(path, entry));
    };
    await chownAll(dir);
    const refusal = await open(dir).then(
      (j) => j.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect((refusal as Error).message).toMatch(new RegExp(`owned by uid ${NOBODY}`));
    expect(await marker(dir)).toBe(0);
  });
});
