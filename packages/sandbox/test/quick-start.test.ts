// The quick commands of `pay-sandbox` start without the server: the files a real process loads
// are listed by module hooks (test/fixtures/count-modules.mjs) and counted. Before they were split
// off, `pay-sandbox status` loaded 421 files (the schemas and typebox through the delivery code).
import { mkdtempSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const HOOKS = join(import.meta.dirname, 'fixtures', 'count-modules.mjs');

/** The files `pay-sandbox ARGS` loads, run against a port nothing listens on. */
function loaded(args: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'pay-sandbox-modules-')), 'loaded.txt');
  const done = spawnSync(process.execPath, ['--import', HOOKS, CLI, ...args], {
    env: { ...process.env, COUNT_MODULES_FILE: file, PAY_SANDBOX_URL: '', PAY_SANDBOX_MERCHANT: '' },
    encoding: 'utf8',
  });
  expect(done.status, done.stderr).not.toBeNull();
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('quick commands load a few files, never the server', () => {
  it.each([
    [['status', 'payin', 'pi_x', 'failed', '--url', 'http://127.0.0.1:1']],
    [['advance', '1h', '--url', 'http://127.0.0.1:1']],
    [['transactions', '--url', 'http://127.0.0.1:1']],
    [['requests', '--url', 'http://127.0.0.1:1']],
    [['payin', 'create', '--url', 'http://127.0.0.1:1']],
    [['--help']],
  ])('pay-sandbox %j', (args) => {
    const files = loaded(args);
    expect(files.some((f) => f.endsWith('/dist/cli.js'))).toBe(true); // the hooks saw the program
    for (const server of ['server-node.js', 'core.js', 'endpoints.js', 'state.js', 'records.js']) {
      expect(files.filter((f) => f.endsWith(`/sandbox/dist/${server}`))).toEqual([]);
    }
    expect(files.filter((f) => f.includes('/typebox'))).toEqual([]);
    expect(files.length).toBeLessThanOrEqual(30);
  });

  it('serve loads the server (the count can tell)', () => {
    const files = loaded(['--port', '-1']);
    expect(files.some((f) => f.endsWith('/sandbox/dist/server-node.js'))).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });
});
