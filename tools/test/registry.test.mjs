// The release path, for real: every package published by the release script to a local registry
// (Verdaccio, started here on loopback), then, in an empty directory with nothing but npm,
// `npx @pay/conformance` installs from that registry and passes, and the libraries install and
// import. What a third party does once a release is out, rehearsed before one is.
//
// The registry serves @pay/* only from what was published to it (never proxied: a package of
// that name elsewhere can never stand in for ours); every other package (@noble/hashes, typebox…)
// it fetches from the npm registry npm is configured with, as a user's install would.
// The test runs tools/release.mjs, the publishing half of `pnpm release`; its other half, the
// forced build, is the build this test depends on (CI runs it as `pnpm release --dry-run`), and
// rebuilding here would pull dist/ from under the other packages' tests running beside it.
//
// Then OpenTelemetry across the packages as installed: an application (tools/otel/app.mjs) installed
// from the registry with npm, pnpm and Yarn, once with @opentelemetry/api and an SDK, once without.
import { execFileSync } from 'node:child_process';
import { allowLookup } from '@pay/test-net-guard';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { runServer } from 'verdaccio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpm } from '../pack.mjs';
import { publicPackages, root } from '../workspace.mjs';
import { runToEnd } from '../support/run-to-end.mjs';

const dir = mkdtempSync(join(tmpdir(), 'pay-registry-'));
const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim() || 'https://registry.npmjs.org/';
// The rehearsal's registry (in this process) proxies third-party packages from the npm registry:
// the one lookup beyond loopback the suites make, declared here (docs/security.md lists it).
allowLookup(new URL(upstream).hostname, 'the local registry proxies third-party packages from the npm registry');
let server;
let registry = '';
/** npm's environment: this registry, a token for it, an npm cache of its own (nothing installed before). */
let env = {};

/**
 * Runs a command without blocking the event loop (the registry runs in this process), in npm's
 * environment with `extraEnv` added.
 */
async function run(cmd, args, { cwd = dir, timeout = 120_000, extraEnv = {} } = {}) {
  const { code, stdout, stderr } = await runToEnd(cmd, args, { cwd, env: { ...env, ...extraEnv }, timeoutMs: timeout });
  return { code, out: stdout, err: stderr };
}

/** Libraries whose source is still an empty module: the rehearsal skips them, a release refuses. */
const unwritten = publicPackages()
  .filter(({ dir: d, manifest }) => manifest.exports?.['.'] && readFileSync(join(d, 'src', 'index.ts'), 'utf8').trim() === 'export {};')
  .map((p) => p.name);
const publishable = publicPackages()
  .map((p) => p.name)
  .filter((n) => !unwritten.includes(n));
const libraries = publishable.filter((n) => n !== '@pay/conformance' && publicPackages().find((p) => p.name === n).manifest.exports?.['.']);

beforeAll(async () => {
  const app = await runServer({
    self_path: dir,
    storage: join(dir, 'storage'),
    // bcrypt at cost 4 (the least), not 10: the registry checks the password on every request that
    // carries the token, and at cost 10 each check took 0.2 to 0.4 s of CPU (69 of them in a run).
    // The user and its password live for one run on loopback; their hash guards nothing.
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1, rounds: 4 } },
    // Verdaccio takes an uplink for offline after max_fails failed requests (2 by default) and
    // then answers 404 for everything it would proxy for fail_timeout (5 min by default): on a
    // loaded machine one slow upstream answer would fail every later install. Retry instead.
    uplinks: { npm: { url: upstream, timeout: '60s', max_fails: 1000, fail_timeout: '1s' } },
    packages: {
      '@pay/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', proxy: 'npm' },
    },
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
    web: { enable: false },
  });
  await new Promise((resolve) => {
    server = app.listen(0, '127.0.0.1', resolve);
  });
  registry = `http://127.0.0.1:${server.address().port}/`;
  const created = await fetch(`${registry}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: `pw-${Date.now()}` }),
  });
  const { token } = await created.json();
  const npmrc = join(dir, 'npmrc');
  writeFileSync(
    npmrc,
    `registry=${registry}\n//127.0.0.1:${server.address().port}/:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`,
  );
  env = {
    PATH: process.env.PATH,
    HOME: dir,
    NO_COLOR: '1',
    npm_config_userconfig: npmrc,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_registry: registry,
    npm_config_fetch_retries: '5',
    // pnpm packs the tarballs, as `pnpm release` does
    ...(process.env.npm_execpath ? { npm_execpath: process.env.npm_execpath } : {}),
  };
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections?.();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the release, rehearsed on a local registry', () => {
  it('tools/release.mjs --registry publishes every package that has code, and makes no git tag', async () => {
    const tagsBefore = execFileSync('git', ['tag', '--list'], { cwd: root, encoding: 'utf8' });
    const r = await run(
      process.execPath,
      [join(root, 'tools', 'release.mjs'), '--registry', registry, '--pack-destination', join(dir, 'tarballs')],
      { cwd: root, timeout: 360_000 },
    );
    expect(r.code, r.out + r.err).toBe(0);
    for (const name of publishable) expect(r.out).toContain(`release: published ${name}@`);
    if (unwritten.length) expect(r.out).toContain(`release: skipped ${unwritten.join(', ')}: nothing exported yet`);
    expect(r.out).toContain('no git tags');
    expect(execFileSync('git', ['tag', '--list'], { cwd: root, encoding: 'utf8' })).toBe(tagsBefore);
    // What `npm view <name> dist.tarball` reads (the latest version's tarball in the package's
    // document), fetched here: one request each instead of an npm process each.
    for (const name of publishable) {
      const document = await (await fetch(`${registry}${name.replace('/', '%2f')}`)).json();
      const tarball = document.versions?.[document['dist-tags']?.latest]?.dist?.tarball;
      expect(String(tarball).startsWith(registry), `${name}: ${JSON.stringify(document).slice(0, 500)}`).toBe(true);
    }
  }, 420_000);

  // A release that stopped halfway is run again: what the registry has is skipped, not refused.
  it('run again, tools/release.mjs publishes nothing: every version is already on the registry', async () => {
    const r = await run(
      process.execPath,
      [join(root, 'tools', 'release.mjs'), '--registry', registry, '--pack-destination', join(dir, 'tarballs-again')],
      { cwd: root, timeout: 360_000 },
    );
    expect(r.code, r.out + r.err).toBe(0);
    for (const name of publishable) expect(r.out).toContain(`release: ${name}@`);
    expect(r.out.match(/is already published, skipped$/gm)).toHaveLength(publishable.length);
    expect(r.out).not.toContain('release: published');
  }, 420_000);
});

// What the rest of the file installs, the release above published: from here on the tests run
// beside the package managers' below (the same describe name, so the same test names). This
// suite's own tests run in order: its two npx runs of one package at once would race to install it.
describe.concurrent('the release, rehearsed on a local registry', () => {
  it.sequential('in an empty directory, `npx @pay/conformance run --impl …` installs from the registry and passes a Python adapter', async ({
    expect,
  }) => {
    const empty = mkdtempSync(join(dir, 'npx-'));
    const adapter = join(root, 'conformance', 'adapters', 'python', 'adapter.py');
    const r = await run(
      'npx',
      ['--yes', '@pay/conformance', 'run', '--impl', `python3 ${JSON.stringify(adapter)}`, '--json', 'report.json'],
      { cwd: empty },
    );
    expect(r.code, r.out + r.err).toBe(0);
    const report = JSON.parse(readFileSync(join(empty, 'report.json'), 'utf8'));
    expect(report.implementation.name).toBe('pay-python-example');
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBe(report.summary.total);
    expect(report.summary.total).toBeGreaterThan(100); // the vectors ship in the package
  }, 180_000);

  it.sequential('with no arguments, the installed runner passes every mode against its embedded defaults', async ({ expect }) => {
    const empty = mkdtempSync(join(dir, 'npx-default-'));
    const r = await run('npx', ['--yes', '@pay/conformance'], { cwd: empty });
    expect(r.code, r.out + r.err).toBe(0);
    // The vectors against the reference adapter, the embedded receiver, the embedded sandbox, and
    // client mode against the reference adapter's SDK (@pay/client, installed from the registry).
    const summaries = r.out.match(/^(PASS|FAIL) \d+ passed, \d+ failed, \d+ skipped/gm) ?? [];
    expect(summaries).toHaveLength(4);
    expect(summaries.every((s) => s.startsWith('PASS'))).toBe(true);
    expect(r.out).toContain('(embedded @pay/sandbox)');
    expect(r.out).toMatch(/^pay-conformance client (?:unreleased )?\S+ against @pay\/sign \+ @pay\/client /m);
  }, 180_000);

  it.sequential('the libraries install from the registry with npm and import', async ({ expect }) => {
    const app = mkdtempSync(join(dir, 'app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const install = await run('npm', ['install', '--no-audit', '--no-fund', ...libraries], { cwd: app });
    expect(install.code, install.err).toBe(0);
    // Every @pay package came from this registry.
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    const ours = Object.entries(lock.packages).filter(([path]) => path.includes('node_modules/@pay/'));
    expect(ours.map(([path]) => path.replace(/.*node_modules\//, '')).sort()).toEqual(expect.arrayContaining(libraries));
    for (const [, entry] of ours) expect(entry.resolved.startsWith(registry), entry.resolved).toBe(true);
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(
      join(app, 'src', 'main.js'),
      `${libraries.map((n, i) => `import * as m${i} from '${n}';`).join('\n')}
console.log(JSON.stringify([${libraries.map((n, i) => `['${n}', Object.keys(m${i}).length]`).join(', ')}]));
`,
    );
    const ran = await run(process.execPath, [join(app, 'src', 'main.js')], { cwd: app });
    expect(ran.code, ran.err).toBe(0);
    const exported = JSON.parse(ran.out);
    expect(exported.map(([n]) => n)).toEqual(libraries);
    for (const [name, count] of exported) expect(count, name).toBeGreaterThan(0);
  }, 180_000);
});

/** The manifest of a workspace package, by its folder. */
const manifestOf = (path) => JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8'));
/** What the application installs besides the @pay packages: PGlite for the journal, at the version its tests use. */
const pglite = `@electric-sql/pglite@${manifestOf('packages/journal').devDependencies['@electric-sql/pglite']}`;
/** OpenTelemetry's API and SDK, at the versions the packages' own tests set up (@pay/test-otel). */
const otelSdk = Object.entries(manifestOf('tools/otel').dependencies).map(([name, version]) => `${name}@${version}`);
/** The packages that record, and the version each was published at. */
const RECORDERS = Object.fromEntries(['client', 'journal', 'webhook'].map((p) => [`@pay/${p}`, manifestOf(`packages/${p}`).version]));
/**
 * Where the application's embedded PGlite finds the fresh cluster @pay/journal keeps: the user's
 * cache directory, where the workspace's own runs of the journal keep one for the same PGlite
 * version. With npm's HOME (this run's directory) each of the six runs would find none, and the
 * three that start at once would each make one by initdb (seconds of CPU each). The application's
 * run alone gets it: pnpm keeps its metadata under XDG_CACHE_HOME too, which must stay this run's.
 */
const clusterCache =
  process.env.XDG_CACHE_HOME && isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
/** The Yarn measured here (Berry, Plug'n'Play), run through npx as an application would get it. */
const YARN = ['npx', ['--yes', '@yarnpkg/cli-dist@4.18.1']];

/**
 * How each package manager is set up and run: each as strict as it can be made, so that a package
 * finds only what the manager gave it, never the application's own dependencies by accident. npm
 * hoists (it has no strict layout). pnpm: nothing hoisted, and its virtual store outside the
 * application, so no walk up from a package reaches the application's node_modules. Yarn:
 * Plug'n'Play without its fallback (`pnpFallbackMode: none`), where a package gets a peer
 * dependency only from the package that depends on it: the layout in which every package between
 * the application and @pay/otel must declare @opentelemetry/api (packages/otel/README.md).
 */
const MANAGERS = {
  npm: {
    setUp() {},
    add: (wanted) => ['npm', ['install', '--no-audit', '--no-fund', ...wanted]],
    node: () => [process.execPath, []],
  },
  pnpm: {
    setUp(app) {
      writeFileSync(
        join(app, '.npmrc'),
        `registry=${registry}\nstore-dir=${join(dir, 'pnpm-store')}\nvirtual-store-dir=${app}-virtual-store\nhoist=false\n`,
      );
    },
    add: (wanted) => [pnpm[0], [...pnpm[1], 'add', ...wanted]],
    node: () => [process.execPath, []],
  },
  yarn: {
    setUp(app) {
      writeFileSync(join(app, 'yarn.lock'), ''); // the application is a project of its own
      // Yarn holds back versions published less than a day ago (npmMinimalAgeGate): ours were
      // published a minute ago, so they alone are let through.
      writeFileSync(
        join(app, '.yarnrc.yml'),
        `npmRegistryServer: "${registry}"\nunsafeHttpWhitelist: ["127.0.0.1"]\nnpmPreapprovedPackages: ["@pay/*"]\nnodeLinker: pnp\npnpFallbackMode: none\nenableTelemetry: false\n`,
      );
    },
    add: (wanted) => [YARN[0], [...YARN[1], 'add', ...wanted]],
    node: () => [YARN[0], [...YARN[1], 'node']], // Plug'n'Play's resolution is loaded by `yarn node`
  },
};

/**
 * Installs the application in a new directory with `manager`, with or without OpenTelemetry, and
 * runs it; `expect` is the calling test's own (the tests run side by side).
 */
async function installAndRun(manager, withOtel, expect) {
  const m = MANAGERS[manager];
  const app = mkdtempSync(join(dir, `otel-${manager}-${withOtel ? 'with' : 'without'}-`));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  m.setUp(app);
  const wanted = [...Object.keys(RECORDERS), '@pay/sandbox', '@pay/schema', pglite, ...(withOtel ? otelSdk : [])];
  const [cmd, args] = m.add(wanted);
  const install = await run(cmd, args, { cwd: app, timeout: 300_000 });
  expect(install.code, install.out + install.err).toBe(0);
  copyFileSync(join(root, 'tools', 'otel', 'app.mjs'), join(app, 'app.mjs'));
  copyFileSync(join(root, 'tools', 'otel', 'index.mjs'), join(app, 'index.mjs'));
  const [node, nodeArgs] = m.node();
  const ran = await run(node, [...nodeArgs, join(app, 'app.mjs')], {
    cwd: app,
    timeout: 180_000,
    extraEnv: { XDG_CACHE_HOME: clusterCache },
  });
  expect(ran.code, ran.out + ran.err).toBe(0);
  return JSON.parse(ran.out.trim().split('\n').pop());
}

// The three managers side by side, and beside the runs above: each install waits on the registry
// (and, through it, the npm registry) much of its time, and the runner's client mode on its
// SDK's time limits, so together they take little longer than the slowest. Each
// manager's two tests run one after the other: npm's cache, pnpm's store and the Yarn that npx
// installs are shared between them, and two npx runs of one package at once race to install it.
describe.concurrent.each(Object.keys(MANAGERS))('OpenTelemetry in an application installed with %s from the registry', (manager) => {
  it.sequential('with @opentelemetry/api and an SDK registered: spans from the client, the webhook receiver and the journal, each under its own name', async ({
    expect,
  }) => {
    const result = await installAndRun(manager, true, expect);
    expect(result.recording).toBe(true);
    expect(result.payin).toBe('new');
    expect(result.webhook).toBe(200);
    for (const [name, version] of Object.entries(RECORDERS)) {
      const own = result.spans.filter((s) => s.scope === name);
      expect(own.length, `${name}: ${JSON.stringify(result.spans)}`).toBeGreaterThan(0);
      for (const s of own) expect(s.version, name).toBe(version);
    }
    // The client's call runs inside the journal's create: one trace, across two packages' scopes.
    const journalIds = new Set(result.spans.filter((s) => s.scope === '@pay/journal').map((s) => s.id));
    expect(result.spans.some((s) => s.scope === '@pay/client' && journalIds.has(s.parent))).toBe(true);
    // @pay/otel loaded the very copy of the API the application installed.
    expect(result.api.fromApp).not.toBeNull();
    expect(result.api.fromOtel).toBe(result.api.fromApp);
    // Linked beside it, where node_modules are (Plug'n'Play has none).
    if (manager !== 'yarn') expect(result.api.besideOtel).toBe(true);
  }, 480_000);

  it.sequential('without @opentelemetry/api: all three load and work, and nothing is recorded', async ({ expect }) => {
    const result = await installAndRun(manager, false, expect);
    expect(result).toMatchObject({ recording: false, payin: 'new', webhook: 200, spans: [] });
    expect(result.api).toEqual({ fromApp: null, fromOtel: null, besideOtel: false });
  }, 480_000);
});
