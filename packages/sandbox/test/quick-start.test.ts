// The quick commands of `pay-sandbox` and the `@pay/sandbox/admin` entry start without the server:
// the files a real process loads are listed by module hooks (test/fixtures/count-modules.mjs) and
// checked against what is allowed: the command line, the admin client and the wire types, and
// @pay/schema's plain-data subpaths; never a server file, never @pay/sign (but for `payin create`,
// which signs), never typebox. Before the split, `pay-sandbox status` loaded 421 files (the
// schemas and typebox through the delivery code); `import('@pay/sandbox')` still loads over 400.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const HOOKS = join(import.meta.dirname, 'fixtures', 'count-modules.mjs');

// Node's own modules a process loaded (`process.moduleLoadList`), printed at exit.
const NODE_MODULES = "data:text/javascript,process.on('exit',()=>process.stderr.write('\\n'+JSON.stringify(process.moduleLoadList)))";

/**
 * What `node ARGS` (run in this package, against a port nothing listens on) loads: the files, and
 * whether Node's Fetch implementation (undici) was among Node's own modules: most of a quick
 * command's start otherwise. One process tells both: the file hooks run on a thread of their own,
 * whose modules are not the program's.
 */
function loaded(args: string[]): { files: string[]; loadsFetch: boolean } {
  const file = join(mkdtempSync(join(tmpdir(), 'pay-sandbox-modules-')), 'loaded.txt');
  writeFileSync(file, ''); // a program of no file (node -e) writes nothing to it
  const done = spawnSync(process.execPath, ['--import', HOOKS, '--import', NODE_MODULES, ...args], {
    cwd: ROOT,
    env: { ...process.env, COUNT_MODULES_FILE: file, PAY_SANDBOX_URL: '', PAY_SANDBOX_MERCHANT: '' },
    encoding: 'utf8',
  });
  expect(done.status, done.stderr).not.toBeNull();
  const list = JSON.parse(done.stderr.trim().split('\n').at(-1)!) as string[];
  expect(list.length).toBeGreaterThan(50); // the list was read
  return { files: readFileSync(file, 'utf8').split('\n').filter(Boolean), loadsFetch: list.some((m) => m.includes('undici')) };
}

// What a quick command may load, by path below packages/: the program and its commands, the admin
// client and the wire types, the few leaf helpers they share, and @pay/schema's data-only subpaths.
const CLIENT_SIDE = [
  /^sandbox\/dist\/cli(\/[a-z-]+)?\.js$/,
  /^sandbox\/dist\/admin-client\/[a-z-]+\.js$/,
  /^sandbox\/dist\/wire\/[a-z-]+\.js$/,
  /^sandbox\/dist\/(base-url|failure|printable|format|format-time|decline|merchants|nearest|settable-status)\.js$/,
  /^schema\/dist\/(statuses|currencies|examples)\.js$/,
];
/** `payin create` signs: it may load @pay/sign too. */
const SIGNING = [/^sign\/dist\/[a-z0-9-]+\.js$/];

const below = (file: string) => file.replace(/^.*\/packages\//, '');
const outside = (files: string[], allowed: RegExp[]) => files.map(below).filter((f) => !allowed.some((a) => a.test(f)));

describe('quick commands load the command line and the admin client, never the server', () => {
  it.each([
    [['status', 'payin', 'pi_x', 'failed', '--url', 'http://127.0.0.1:1']],
    [['advance', '1h', '--url', 'http://127.0.0.1:1']],
    [['reset', '--url', 'http://127.0.0.1:1']],
    [['transactions', '--url', 'http://127.0.0.1:1']],
    [['deliveries', '--url', 'http://127.0.0.1:1']],
    [['requests', '--url', 'http://127.0.0.1:1']],
    [['--help']],
  ])('pay-sandbox %j', (args) => {
    const { files, loadsFetch } = loaded([CLI, ...args]);
    expect(files.some((f) => f.endsWith('/sandbox/dist/cli.js'))).toBe(true); // the hooks saw the program
    expect(outside(files, CLIENT_SIDE)).toEqual([]);
    expect(files.filter((f) => f.includes('/sign/'))).toEqual([]);
    // Over node:http: Node's fetch is never loaded (a status sent over fetch would load it).
    expect(loadsFetch).toBe(false);
  });

  it('the check for fetch can tell', () => {
    expect(loaded(['-e', "fetch('http://127.0.0.1:1').catch(() => {})"]).loadsFetch).toBe(true);
  });

  it('pay-sandbox payin create: the same, and @pay/sign to sign', () => {
    const { files } = loaded([CLI, 'payin', 'create', '--url', 'http://127.0.0.1:1']);
    expect(outside(files, [...CLIENT_SIDE, ...SIGNING])).toEqual([]);
    expect(files.some((f) => f.includes('/sign/dist/'))).toBe(true);
  });

  it("import('@pay/sandbox/admin'): the admin client and the wire types alone", () => {
    const { files } = loaded([
      '--input-type=module',
      '-e',
      "const m = await import('@pay/sandbox/admin'); if (typeof m.sandboxAdmin !== 'function') process.exit(3);",
    ]);
    expect(files.map(below)).toContain('sandbox/dist/admin-client/index.js');
    expect(outside(files, CLIENT_SIDE)).toEqual([]);
    expect(files.filter((f) => /\/(sign|typebox)\//.test(f))).toEqual([]);
  });

  it('serve loads the server, and the check can tell', () => {
    const { files } = loaded([CLI, '--port', '-1']);
    expect(files.some((f) => f.endsWith('/sandbox/dist/server-node.js'))).toBe(true);
    expect(outside(files, CLIENT_SIDE).length).toBeGreaterThan(100);
  });
});
