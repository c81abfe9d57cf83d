// Another account of the same machine connects to loopback too. The admin area is the developer's
// only when the peer's process belongs to the sandbox's own account (or root), as the kernel's
// socket tables say: proven here with real processes under real accounts (`nobody`, `daemon`),
// which needs root (CI runs as root) and Linux.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreHandler, createSandbox } from '../src/core.js';
import { canonicalAddress, type PeerAccount, peerAccount } from '../src/peer-account.js';
import { start, type Started } from './helpers.js';

const NOBODY = 65534;
const DAEMON = 1;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const linux = existsSync('/proc/net/tcp');
const canSwitch = isRoot && linux;
const SKIP = canSwitch ? '' : ' (SKIPPED: needs root on Linux to run processes as other accounts)';
const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/** A call a process of another account makes: GET unless `init` says otherwise, redirects not followed. */
type Call = { url: string; init?: RequestInit };

/**
 * Makes `calls`, one after another, from one process running as `uid`, with Node's own fetch; for
 * each, its status or what failed. One process for a test's calls: what is proven is whose process
 * the peer is, and a process per call only started Node again. Asynchronous: the sandbox answering
 * may run in this very process.
 */
function callsAs(uid: number, calls: Call[]): Promise<string[]> {
  const script = `(async () => {
    const answers = [];
    for (const { url, init } of ${JSON.stringify(calls.map(({ url, init }) => ({ url, init: { redirect: 'manual', ...init } })))})
      answers.push(await fetch(url, init).then((r) => String(r.status), (e) => 'error ' + e.message));
    process.stdout.write(JSON.stringify(answers));
  })();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { uid, gid: uid, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as string[]);
      } catch {
        reject(new Error(`the process of uid ${uid} printed no answers: ${out}${err}`));
      }
    });
  });
}

describe('peerAccount reads the kernel tables', () => {
  // Rows as /proc/net/tcp writes them on a little-endian machine: 127.0.0.1 is 0100007F, ports
  // in hex (40000 = 9C40, 4010 = 0FAA). The uid column is the eighth.
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
  const row = (local: string, remote: string, state: string, uid: number) =>
    `   0: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 12345 1 0000000000000000 20 4 30 10 -1`;
  const table = (rows: string[]) => (path: string) => (path.endsWith('tcp') ? [header, ...rows].join('\n') : header);
  const me = process.getuid?.() ?? 1000;
  const peer = { address: '127.0.0.1', port: 40000 };
  const server = { address: '127.0.0.1', port: 4010 };
  const le = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

  it.runIf(le)('the row whose local end is the peer and remote end is us names the account', () => {
    const listening = row('0100007F:0FAA', '00000000:0000', '0A', me);
    const ours = row('0100007F:0FAA', '0100007F:9C40', '01', me); // our own end: not the peer's
    expect(peerAccount(peer, server, table([listening, ours, row('0100007F:9C40', '0100007F:0FAA', '01', 4242)]))).toBe(
      me === 4242 ? 'same' : 'other',
    );
    expect(peerAccount(peer, server, table([listening, ours, row('0100007F:9C40', '0100007F:0FAA', '01', me)]))).toBe('same');
    expect(peerAccount(peer, server, table([row('0100007F:9C40', '0100007F:0FAA', '01', 0)]))).toBe('same'); // root
  });

  it.runIf(le)('a TIME_WAIT row (uid 0, the kernel\'s) or no row at all proves nothing: "other"', () => {
    expect(peerAccount(peer, server, table([row('0100007F:9C40', '0100007F:0FAA', '06', 0)]))).toBe('other');
    expect(peerAccount(peer, server, table([]))).toBe('other');
    expect(peerAccount({ ...peer, address: '127.0.0.2' }, server, table([row('0100007F:9C40', '0100007F:0FAA', '01', me)]))).toBe('other');
  });

  it.runIf(le)('IPv6 loopback and IPv4-mapped peers are read from tcp6', () => {
    const v6 = '00000000000000000000000001000000'; // ::1, four words in the machine's order
    const mapped = '0000000000000000FFFF00000100007F'; // ::ffff:127.0.0.1
    const tcp6 = (rows: string[]) => (path: string) => (path.endsWith('tcp6') ? [header, ...rows].join('\n') : header);
    expect(
      peerAccount({ address: '::1', port: 40000 }, { address: '::1', port: 4010 }, tcp6([row(`${v6}:9C40`, `${v6}:0FAA`, '01', me)])),
    ).toBe('same');
    const viaMapped = tcp6([row(`${mapped}:9C40`, `${mapped}:0FAA`, '01', me)]);
    expect(peerAccount({ address: '::ffff:127.0.0.1', port: 40000 }, { address: '::ffff:127.0.0.1', port: 4010 }, viaMapped)).toBe('same');
  });

  it('no tables (macOS, Windows): "unknown", and loopback stays the proof', () => {
    expect(peerAccount(peer, server, () => undefined)).toBe('unknown');
  });

  it('spells addresses one way', () => {
    expect(canonicalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(canonicalAddress('127.0.0.1')).toBe('127.0.0.1');
  });
});

// The kernel's socket tables grow with every connection the machine has open or in TIME_WAIT (tens
// of thousands on a busy test machine, each read then costing milliseconds of system time), so
// they are read only when the answer decides something: an admin call that brings no valid token.
describe('whose process the peer is: asked only when it decides', () => {
  const core = createSandbox();
  afterAll(() => core.close()); // its clock and deliveries: the worker's process runs other files after this one
  const handle = coreHandler(core);
  const call = async (path: string, headers: Record<string, string>, answer: PeerAccount) => {
    let asked = 0;
    const reply = await handle({
      method: 'GET',
      url: `http://127.0.0.1:4010${path}`,
      headers,
      read: async () => new Uint8Array(),
      remoteAddress: '127.0.0.1',
      localPort: 4010,
      account: () => {
        asked += 1;
        return answer;
      },
    });
    return { status: reply.status, asked };
  };
  const host = { host: '127.0.0.1:4010' };

  it('an admin call without the token: asked once, and another account is refused', async () => {
    expect(await call('/_sandbox/health', host, 'same')).toEqual({ status: 200, asked: 1 });
    expect(await call('/_sandbox/health', host, 'other')).toEqual({ status: 403, asked: 1 });
  });

  it('an admin call with the admin token: not asked, and let in whoever it is', async () => {
    const token = { ...host, authorization: `Bearer ${core.adminToken}` };
    expect(await call('/_sandbox/health', token, 'other')).toEqual({ status: 200, asked: 0 });
  });

  it('a wrong token: asked, and judged as a call without one', async () => {
    const wrong = { ...host, authorization: `Bearer ${'0'.repeat(core.adminToken.length)}` };
    expect(await call('/_sandbox/health', wrong, 'other')).toEqual({ status: 403, asked: 1 });
    expect(await call('/_sandbox/health', wrong, 'same')).toEqual({ status: 200, asked: 1 });
  });

  it('a service call: never asked (the interface is not the admin area)', async () => {
    expect((await call('/v2/merchants/payins/pi_none', host, 'other')).asked).toBe(0);
  });
});

describe.skipIf(!canSwitch)(`another account of this machine${SKIP}`, () => {
  let sandbox: Started;
  beforeAll(async () => {
    sandbox = await start();
  });
  afterAll(() => sandbox?.close());

  it('is refused the admin API and the dashboard without the token; the developer (this account) is not', async () => {
    const paths = ['/_sandbox/transactions', '/_sandbox/clock', '/_sandbox/requests', '/_sandbox/deliveries'];
    const [dashboard, ...admin] = await callsAs(NOBODY, [
      // A browser of the other account is sent to sign in; the dashboard itself is not served to it.
      { url: `${sandbox.url}/_sandbox/`, init: { headers: { accept: 'text/html' } } },
      ...paths.map((path) => ({ url: `${sandbox.url}${path}` })),
    ]);
    expect(dashboard).toMatch(/^30[23]$/);
    expect(admin).toEqual(paths.map(() => '403'));
    for (const path of paths) expect((await fetch(`${sandbox.url}${path}`)).status, path).toBe(200);
  });

  it('cannot move the clock or add a fault: nothing is done', async () => {
    const before = (await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as { now: string };
    const changes = [
      ['/_sandbox/clock/advance', { seconds: 86_400 }],
      ['/_sandbox/faults', { method: 'POST', path_prefix: '/', kind: 'drop_after_commit', count: 1 }],
    ] as const;
    const answers = await callsAs(
      NOBODY,
      changes.map(([path, body]) => ({
        url: `${sandbox.url}${path}`,
        init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      })),
    );
    expect(answers).toEqual(['403', '403']);
    const after = (await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as { now: string };
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeLessThan(3_600_000);
    expect(await (await fetch(`${sandbox.url}/_sandbox/faults`)).json()).toEqual([]);
  });

  it('gets in with the admin token, like any caller from elsewhere', async () => {
    const init = { headers: { authorization: `Bearer ${sandbox.adminToken}` } };
    expect(await callsAs(NOBODY, [{ url: `${sandbox.url}/_sandbox/transactions`, init }])).toEqual(['200']);
  });

  it('is still served the service itself: the interface is not the admin area', async () => {
    expect(
      await callsAs(NOBODY, [{ url: `${sandbox.url}/_sandbox/health` }, { url: `${sandbox.url}/v2/merchants/payins/pi_none` }]),
    ).toEqual(['403', '401']); // the second unsigned, judged as any call
  });

  it('a sandbox run by an ordinary account: its own account is the developer, a third account is not', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--merchant', 'm_1:sk_test_one'], {
      uid: NOBODY,
      gid: NOBODY,
      cwd: '/',
      env: { ...process.env, HOME: '/nonexistent', XDG_CACHE_HOME: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (match !== null) resolve(match[0]);
        });
        child.stderr.on('data', (c: Buffer) => {
          out += c.toString();
        });
        child.on('exit', (code) => reject(new Error(`pay-sandbox exited ${code}: ${out}`)));
      });
      expect(await callsAs(NOBODY, [{ url: `${url}/_sandbox/transactions` }])).toEqual(['200']); // its own account
      expect(await callsAs(DAEMON, [{ url: `${url}/_sandbox/transactions` }])).toEqual(['403']); // a third one
      expect((await fetch(`${url}/_sandbox/transactions`)).status).toBe(200); // root
    } finally {
      child.kill('SIGKILL');
    }
  });
});
