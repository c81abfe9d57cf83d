// The embedded PGlite's start takes seconds: the journal says that it is starting and how long it
// took, to onReport when given, else in two lines on standard error (never on standard output,
// which is the program's own).
import { createClient } from '@pay/client';
import { afterEach, expect, it, vi } from 'vitest';
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
    expect.stringMatching(/^@pay\/journal: the embedded PGlite is ready \(\d+\.\d s\)$/),
  ]);
  expect(info).not.toHaveBeenCalled();
  expect(log).not.toHaveBeenCalled();
});
