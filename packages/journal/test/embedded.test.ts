// The embedded PGlite's start takes seconds: the journal says that it is starting and how long it
// took, to onReport when given, else in two lines on standard error (never on standard output,
// which is the program's own). A first start keeps its new, empty cluster in the user's cache
// directory, and later starts copy it instead of running initdb again.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createClient } from '@pay/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type JournalReport, openJournal } from '../src/index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_1', secret: 'sk_test_1' });

afterEach(() => vi.restoreAllMocks());

it('reports the embedded database starting, then ready with how long it took', async () => {
  const reports: JournalReport[] = [];
  const error = vi.spyOn(console, 'error');
  const started = Date.now();
  const journal = await openJournal({ client, onReport: (r) => reports.push(r) });
  const took = Date.now() - started;
  await journal.close();
  expect(reports.map((r) => r.type === 'embedded_database' && r.state)).toEqual(['starting', 'ready']);
  const ready = reports[1] as Extract<JournalReport, { type: 'embedded_database' }>;
  expect(ready.dataDir).toBeNull();
  expect(ready.ms).toBeGreaterThan(0);
  expect(ready.ms).toBeLessThanOrEqual(took);
  expect(error).not.toHaveBeenCalled(); // said to onReport, not also on the console
});

it('says it on standard error without onReport, and nothing on standard output', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const info = vi.spyOn(console, 'info');
  const log = vi.spyOn(console, 'log');
  const journal = await openJournal({ client });
  await journal.close();
  expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
    expect.stringMatching(/^@pay\/journal: starting the embedded PGlite \(in memory\); a first start takes a few seconds$/),
    // The user's own cache directory: the cluster is copied, or made and kept, unless that
    // directory is not theirs alone (a CI home owned by another uid), which the line then says.
    expect.stringMatching(
      /^@pay\/journal: the embedded PGlite is ready \(\d+\.\d s\)(, from the cluster kept in the cache directory|; its new cluster is kept in the cache directory, so the next start is faster|; the kept cluster was not used: \/.+)$/,
    ),
  ]);
  expect(info).not.toHaveBeenCalled();
  expect(log).not.toHaveBeenCalled();
});

describe('the fresh cluster kept in the cache directory', () => {
  let cache: string;
  const saved = process.env['XDG_CACHE_HOME'];
  // One cache directory for these tests, in order: each initdb costs seconds of CPU, so only the
  // tests that need a new cluster make one.
  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'pay-journal-cache-'));
    process.env['XDG_CACHE_HOME'] = cache;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
    else process.env['XDG_CACHE_HOME'] = saved;
    await rm(cache, { recursive: true, force: true });
  });

  /** Opens an embedded journal, runs a create-free round trip through it, and returns its ready report. */
  async function start(dataDir?: string) {
    const reports: JournalReport[] = [];
    const journal = await openJournal({ client, onReport: (r) => reports.push(r), ...(dataDir && { dataDir }) });
    try {
      expect(await journal.payins.get('never-created')).toBeUndefined();
    } finally {
      await journal.close();
    }
    const ready = reports.find((r) => r.type === 'embedded_database' && r.state === 'ready');
    return ready as Extract<JournalReport, { type: 'embedded_database' }>;
  }
  const keptFiles = async () => (await readdir(join(cache, 'pay-journal'))).filter((f) => f.endsWith('.tar.gz'));
  /**
   * The kept cluster's file name. The tests run in order, each leaving one kept; a test run alone
   * has a first start make it.
   */
  async function kept(): Promise<string> {
    const [file] = await keptFiles().catch(() => []);
    if (file !== undefined) return file;
    await start();
    return (await keptFiles())[0]!;
  }

  it('is made and kept by a first start (0600, in a 0700 directory), then copied by the next', async () => {
    expect((await start()).cluster).toBe('made_and_kept');
    const [file, ...more] = await keptFiles();
    expect(more).toEqual([]);
    expect(file).toMatch(/^pglite-[0-9][0-9A-Za-z.+-]*-fresh-cluster-[0-9]+\.tar\.gz$/);
    expect((await stat(join(cache, 'pay-journal', file!))).mode & 0o777).toBe(0o600);
    expect((await stat(join(cache, 'pay-journal'))).mode & 0o777).toBe(0o700);
    expect((await start()).cluster).toBe('copied');
  });

  it('holds an empty cluster: nothing the journal wrote is in it', async () => {
    const file = await kept();
    const { readFile } = await import('node:fs/promises');
    const copy = new PGlite({ loadDataDir: new Blob([await readFile(join(cache, 'pay-journal', file))]) });
    try {
      const tables = await copy.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      expect(tables.rows[0]!.n).toBe(0);
    } finally {
      await copy.close();
    }
  });

  it('seeds an empty data directory, which then opens as an existing one', async () => {
    await kept();
    const dataDir = join(cache, 'data');
    expect((await start(dataDir)).cluster).toBe('copied');
    expect((await readdir(dataDir)).length).toBeGreaterThan(0);
    expect((await start(dataDir)).cluster).toBeUndefined();
  });

  it('is forgotten and made again when it does not load', async () => {
    const file = await kept();
    await writeFile(join(cache, 'pay-journal', file), 'not a tar archive', { mode: 0o600 });
    expect((await start()).cluster).toBe('made_and_kept');
    expect((await start()).cluster).toBe('copied');
  });
});
