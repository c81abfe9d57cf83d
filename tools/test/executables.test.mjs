// The single executables (tools/executables.mjs) on a machine without Node: built here from the
// workspace's dist/ folders, copied with the Python example (conformance/adapters/python) alone
// into a folder under the system's temporary directory, and run there with a PATH that holds
// python3 and nothing else. Every mode of pay-conformance, and pay-sandbox serving and driven by
// its quick commands. Each run must give what the same run through the npm packages' CLIs gives
// (node conformance/dist/cli.js, node packages/sandbox/dist/cli.js): the same cases, each with the
// same status, and the same exit code.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExecutables } from '../executables/make.mjs';
import { executableName } from '../executables/target.mjs';
import { root } from '../workspace.mjs';
import { run, startServer, withoutNode } from './executables-support.mjs';

const base = mkdtempSync(join(tmpdir(), 'pay-executables-test-'));
const bare = withoutNode(base);
const conformance = join(base, executableName('pay-conformance'));
const sandbox = join(base, executableName('pay-sandbox'));
const python = (file) => `python3 ${join(base, 'python', file)}`;

// The npm packages' CLIs, on this Node, with this process's environment.
const node = { cwd: root, env: { ...process.env, NO_COLOR: '1' } };
const distConformance = join(root, 'conformance', 'dist', 'cli.js');
const distSandbox = join(root, 'packages', 'sandbox', 'dist', 'cli.js');
const distPython = (file) => `python3 ${join(root, 'conformance', 'adapters', 'python', file)}`;

const MERCHANT = 'm_executables';
const SECRET = 'sk_test_executables_0123456789';
const version = JSON.parse(readFileSync(join(root, 'conformance', 'package.json'), 'utf8')).version;

/**
 * Client mode both ways, started as soon as the executables are made: it waits out the SDK's time
 * limits (about 17 s of little CPU), so the other tests run meanwhile; its test reads the result.
 * Settles with both runs or the error, never rejects.
 * @type {Promise<{ runs?: Awaited<ReturnType<typeof bothWays>>, error?: unknown }> | undefined}
 */
let clientRuns;

beforeAll(async () => {
  await makeExecutables(base);
  cpSync(join(root, 'conformance', 'adapters', 'python'), join(base, 'python'), {
    recursive: true,
    filter: (path) => !path.includes('__pycache__'),
  });
  clientRuns = bothWays(['client', '--impl', distPython('adapter.py')], ['client', '--impl', python('adapter.py')]).then(
    (runs) => ({ runs }),
    (error) => ({ error }),
  );
}, 180_000);
// The client runs are let finish first: a run filtered to other tests still starts them.
afterAll(async () => {
  await clientRuns;
  rmSync(base, { recursive: true, force: true });
}, 120_000);

/**
 * Runs pay-conformance both ways at once, each with a JSON report: the npm package's CLI with
 * `npmArgs`, the executable with `executableArgs` (the same, but for paths); resolves with both.
 */
async function bothWays(npmArgs, executableArgs = npmArgs, extraEnv = {}) {
  const [executable, npm] = await Promise.all([
    conformanceRun(conformance, [], executableArgs, { cwd: base, env: { ...bare, ...extraEnv } }, 'executable'),
    conformanceRun(process.execPath, [distConformance], npmArgs, { ...node, env: { ...node.env, ...extraEnv } }, 'npm'),
  ]);
  return { executable, npm };
}

/** One run with a JSON report: its exit code, the report's summary and each case's status. */
async function conformanceRun(cmd, before, args, options, name) {
  const json = join(base, `${name}-${args[0]}-${Math.random().toString(36).slice(2)}.json`);
  const result = await run(cmd, [...before, ...args, '--json', json], options);
  if (!existsSync(json)) throw new Error(`${name}: no report (exit ${result.code})\n${result.stdout}${result.stderr}`);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  return {
    code: result.code,
    report,
    outcome: {
      exit_code: report.exit_code,
      summary: report.summary,
      statuses: Object.fromEntries(report.cases.map((c) => [c.id, c.status])),
    },
    output: result.stdout + result.stderr,
  };
}

/** Both runs passed every case, and agree case by case. */
function expectSame({ executable, npm }, atLeast) {
  expect(executable.code, executable.output).toBe(0);
  expect(npm.code, npm.output).toBe(0);
  expect(executable.report.summary.total).toBeGreaterThanOrEqual(atLeast);
  expect(executable.report.summary).toMatchObject({ passed: executable.report.summary.total, failed: 0 });
  expect(executable.outcome).toEqual(npm.outcome);
}

describe('the executables of each platform', () => {
  it('are named as the README lists them, .exe on Windows', () => {
    const readme = readFileSync(join(root, 'conformance', 'README.md'), 'utf8');
    const names = [
      ['linux', 'x64'],
      ['linux', 'arm64'],
      ['darwin', 'arm64'],
      ['win32', 'x64'],
    ].flatMap(([platform, arch]) => ['pay-conformance', 'pay-sandbox'].map((tool) => executableName(tool, platform, arch)));
    expect(names).toContain('pay-conformance-windows-x64.exe');
    expect(names).toContain('pay-sandbox-macos-arm64');
    for (const name of names) expect(readme).toContain(`\`${name}\``);
  });
});

describe('the place the executables run in', () => {
  it('has no Node to fall back on: none on PATH, no node_modules above it', async () => {
    await expect(run('node', ['--version'], { cwd: base, env: bare })).rejects.toThrow(/ENOENT/);
    expect((await run('python3', ['--version'], { cwd: base, env: bare })).code).toBe(0);
    for (let dir = base; dir !== dirname(dir); dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
  });
});

describe('pay-conformance as a single executable', () => {
  // How fast it starts is measured by the bench (executables/start.bench.mjs), not asserted here.
  it('starts, and says its version and usage', async () => {
    expect(await run(conformance, ['--version'], { cwd: base, env: bare })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await run(conformance, ['--help'], { cwd: base, env: bare });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toBe((await run(process.execPath, [distConformance, '--help'], node)).stdout);
  });

  it('run: replays the vectors it carries against itself as the reference adapter, and against the Python example', async () => {
    const reference = await bothWays(['run']);
    expectSame(reference, 160);
    expect(reference.executable.report.vectors_dir).toBe(`(built into ${conformance})`);
    expect(reference.executable.report.implementation).toEqual(reference.npm.report.implementation);
    const py = await bothWays(['run', '--impl', distPython('adapter.py')], ['run', '--impl', python('adapter.py')]);
    expectSame(py, 160);
    expect(py.executable.report.implementation.name).toBe('pay-python-example');
  });

  it('client: drives the Python example SDK as the npm package does', async () => {
    const { runs, error } = await clientRuns;
    if (error) throw error;
    expectSame(runs, 50);
  });

  it('webhook-endpoint: tests a receiver in Python as the npm package does', async () => {
    const receiver = await startServer('python3', [join(base, 'python', 'webhook_receiver.py'), '--merchant-id', MERCHANT, '--port', '0'], {
      cwd: base,
      env: { ...bare, PAY_WEBHOOK_SECRET: SECRET },
      pattern: /^(http:\/\/\S+)\n/,
    });
    try {
      const args = ['webhook-endpoint', '--url', receiver.address, '--merchant-id', MERCHANT];
      expectSame(await bothWays(args, args, { PAY_WEBHOOK_SECRET: SECRET }), 15);
    } finally {
      await receiver.stop();
    }
  });

  it('server: tests pay-sandbox as a single executable as the npm package tests its own sandbox', async () => {
    const serve = ['serve', '--port', '0', '--quiet', '--merchant', `${MERCHANT}:${SECRET}`];
    const pattern = /base URL\s+(http:\/\/\S+)/;
    const [executableSandbox, npmSandbox] = await Promise.all([
      startServer(sandbox, serve, { cwd: base, env: bare, pattern }),
      startServer(process.execPath, [distSandbox, ...serve], { ...node, pattern }),
    ]);
    try {
      const args = (url) => ['server', '--base-url', url, '--card-proxy-url', `${url}/card-proxy`, '--merchant-id', MERCHANT];
      const runs = await bothWays(args(npmSandbox.address), args(executableSandbox.address), { PAY_SECRET: SECRET });
      expectSame(runs, 30);
    } finally {
      await Promise.all([executableSandbox.stop(), npmSandbox.stop()]);
    }
  });
});

describe('pay-sandbox as a single executable', () => {
  it('starts and prints the usage the npm package prints', async () => {
    const help = await run(sandbox, ['--help'], { cwd: base, env: bare });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toBe((await run(process.execPath, [distSandbox, '--help'], node)).stdout);
  });

  it('serves, and its quick commands drive it', async () => {
    const served = await startServer(sandbox, ['serve', '--port', '0', '--quiet'], {
      cwd: base,
      env: bare,
      pattern: /base URL\s+(http:\/\/\S+)/,
    });
    try {
      const env = { ...bare, PAY_SANDBOX_URL: served.address };
      const created = await run(sandbox, ['payin', 'create', '--merchant', 'm_demo:sk_sandbox_demo'], { cwd: base, env });
      expect(created.code, created.stderr).toBe(0);
      const id = /payin (pi_\w+) created/.exec(created.stdout)?.[1];
      expect(id, created.stdout).toBeDefined();
      expect(await run(sandbox, ['status', 'payin', id, 'executed'], { cwd: base, env })).toMatchObject({ code: 0 });
      const listed = await run(sandbox, ['transactions'], { cwd: base, env });
      expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+payin\\s+executed\\b`, 'm'));
      const dashboard = await fetch(`${served.address}/_sandbox/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('<title>Payments sandbox</title>');
    } finally {
      await served.stop();
    }
  });
});
