// Throwaway PostgreSQL clusters for tests: Debian's postgresql, a cluster in a temporary directory
// on a free loopback port, its unix socket in that directory. initdb and postgres refuse to run as
// root, so as root the server runs as the `postgres` OS user. initdb runs once per machine and
// version: later clusters copy that first one (`cp -a`, a fraction of initdb's seconds). Without
// the binaries the tests are skipped and say so, unless PAY_REQUIRE_POSTGRES=1 (CI) makes that a
// failure.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from './ports.mjs';

/** Where initdb and postgres are: PG_BIN, or the newest /usr/lib/postgresql/N/bin. */
function findBin() {
  if (process.env['PG_BIN']) return process.env['PG_BIN'];
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return join(root, versions[0] ?? '15', 'bin');
}

export const PG_BIN = findBin();
export const postgresAvailable = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'postgres'));
if (!postgresAvailable && process.env['PAY_REQUIRE_POSTGRES'] === '1') {
  throw new Error(`PAY_REQUIRE_POSTGRES=1 but there is no initdb/postgres in ${PG_BIN} (apt-get install postgresql, or set PG_BIN)`);
}
if (!postgresAvailable) console.warn(`SKIPPED: the PostgreSQL tests need initdb and postgres in ${PG_BIN} (apt-get install postgresql)`);

/** The uid and gid to run the server as: the `postgres` user when we are root, else ourselves. */
function runAs() {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run the server as (initdb refuses root)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

// The first cluster, kept beside this file (in the checkout, which only its owner writes, not in
// a shared /tmp another account could swap it in).
const CACHE = join(import.meta.dirname, '.cache');

/** A freshly initdb'd data directory, made once and kept; its path. */
function template(user) {
  const version = PG_BIN.split('/').at(-2) ?? 'pg';
  const kept = join(CACHE, `cluster-${version}-${user?.uid ?? process.getuid?.() ?? 'me'}`);
  if (existsSync(join(kept, 'PG_VERSION'))) return kept;
  mkdirSync(CACHE, { recursive: true });
  const making = mkdtempSync(join(CACHE, 'making-'));
  if (user) chownSync(making, user.uid, user.gid);
  const data = join(making, 'data');
  execFileSync(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
    stdio: 'pipe',
    ...user,
  });
  try {
    renameSync(data, kept); // another test process may have made it first: keep theirs
  } catch {}
  rmSync(making, { recursive: true, force: true });
  return kept;
}

/**
 * Starts a cluster of its own and resolves once it accepts connections.
 * @returns {Promise<import('./postgres.d.mts').RunningPostgres>}
 */
export async function startPostgres() {
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'pay-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  // -a keeps owner and mode: postgres insists its data directory is its own and 0700.
  execFileSync('cp', ['-a', template(user), data]);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let server = await launch(data, dir, port, user);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const stop = async () => {
      await server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    if (server.ready) {
      return {
        port,
        url,
        stop,
        crash: () => server.kill('SIGQUIT'),
        async restart() {
          server = await launch(data, dir, port, user);
          if (!server.ready) throw new Error(`postgres did not restart: ${server.log()}`);
        },
      };
    }
    await stop().catch(() => {});
    if (attempt >= 3) throw new Error(`postgres did not start in 3 attempts: ${server.log()}`);
  }
}

/** Runs the server on `data` and `port`; resolves once it accepts connections (or gave up). */
async function launch(data, dir, port, user) {
  const args = ['-D', data, '-p', String(port), '-k', dir, '-h', '127.0.0.1'];
  // fsync=off: a crash of the server process loses nothing (the OS keeps the writes); commits stay
  // synchronous, so a test that crashes the server finds every acknowledged commit after it.
  for (const setting of ['fsync=off', 'max_connections=200']) args.push('-c', setting);
  const child = spawn(join(PG_BIN, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], ...user });
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const giveUpAt = performance.now() + 30_000;
  let ready = false;
  while (!ready && child.exitCode === null && performance.now() < giveUpAt) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      ready = true;
    } catch {
      await delay(50);
    } finally {
      await client.end().catch(() => {});
    }
  }
  return {
    ready,
    log: () => log,
    /** SIGQUIT: immediate shutdown, the backends go with it; SIGKILL: the postmaster only. */
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * A database of its own on `server` for one test file, named after it: files share a cluster
 * (one server per run) without sharing tables. Resolves with its URL.
 * @param {{ url: string }} server
 * @param {string} name letters, digits and underscores
 */
export async function databaseFor(server, name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new TypeError('name must be a lowercase SQL identifier');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}
