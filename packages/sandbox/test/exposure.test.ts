// Every way a sandbox on this machine is reached, and what its admin area asks of each caller.
// Each setup is real: the sandbox on loopback (or bound to 0.0.0.0, as in a container), a real
// proxy or tunnel in front of it (test/stand-ins.ts), or the Fetch handler called in process. Each
// row is one thing a remote caller must not do without the token: read transactions, add a fault,
// move the clock, open the dashboard, press a dashboard button. Once the sandbox is told it is
// reachable from elsewhere (a publicUrl that is not a loopback name, a host beyond loopback,
// allowHttpHosts, localReceivers), no request is taken for the developer's: a proxy that adds no
// forwarding header, or a tunnel whose client sends `Host: localhost:PORT`, looks exactly like the
// developer, so the token is asked of everyone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, sandboxAdmin, type SandboxAdmin } from '../src/index.js';
import { M1, raw, start } from './helpers.js';
import { forwardingTunnel, plainProxy, tcpTunnel, type StandIn } from './stand-ins.js';

/** An answer, whichever way it came. */
interface Seen {
  status: number;
  location: string | undefined;
  setCookie: string | undefined;
  text: string;
  body: any;
}

/** One way of reaching a sandbox, opened. */
interface Channel {
  send(method: string, path: string, headers: [string, string][], body?: string): Promise<Seen>;
  /** The origin a browser shows while on the sandbox's pages through this channel. */
  pageOrigin: string;
  /** The admin API with the token, straight to the sandbox: to see what a call did. */
  admin: SandboxAdmin;
  token: string;
  close(): Promise<void>;
}

interface Setup {
  name: string;
  /** Whether the admin area needs the token on this channel. */
  tokenNeeded: boolean;
  open(): Promise<Channel>;
}

/** Over HTTP to `base`, with `host` as the Host header the caller sends. */
function overHttp(base: string, host: string) {
  return async (method: string, path: string, headers: [string, string][], body?: string): Promise<Seen> => {
    const answer = await raw(base, { method, path, headers: [['host', host], ...headers], ...(body === undefined ? {} : { body }) });
    const cookie = answer.headers['set-cookie'];
    return {
      status: answer.status,
      location: answer.headers.location,
      setCookie: Array.isArray(cookie) ? cookie[0] : cookie,
      text: answer.text,
      body: answer.body,
    };
  };
}

/** A Node sandbox, optionally behind a stand-in; `host` is what the caller puts in Host. */
async function nodeChannel(
  options: Parameters<typeof start>[0],
  front: ((url: string) => Promise<StandIn>) | undefined,
  host: (sandboxUrl: string) => string,
  pageOrigin: (sandboxUrl: string) => string,
): Promise<Channel> {
  const sandbox = await start({ merchants: [M1], ...options });
  const standIn = front === undefined ? undefined : await front(sandbox.url);
  return {
    send: overHttp(standIn?.url ?? sandbox.url, host(sandbox.url)),
    pageOrigin: pageOrigin(sandbox.url),
    admin: sandbox.admin,
    token: sandbox.adminToken,
    close: async () => {
      await standIn?.close();
      await sandbox.close();
    },
  };
}

const hostOf = (url: string) => new URL(url).host;
const portOf = (url: string) => new URL(url).port;

const SETUPS: Setup[] = [
  {
    name: 'plain local (no publicUrl, loopback only)',
    tokenNeeded: false,
    open: () => nodeChannel({}, undefined, hostOf, (url) => url),
  },
  {
    name: 'local proxy that adds forwarding headers (no publicUrl)',
    tokenNeeded: true,
    // Without publicUrl the sandbox knows only the origin it is called on (the proxy rewrote Host
    // to it); a page on the tunnel's own origin would be refused as cross-origin.
    open: () =>
      nodeChannel(
        {},
        (url) => forwardingTunnel(url),
        () => 'tunnel.example',
        (url) => url,
      ),
  },
  {
    name: 'local proxy without forwarding headers, Host rewritten to 127.0.0.1:PORT (nginx default), publicUrl set',
    tokenNeeded: true,
    open: () =>
      nodeChannel(
        { publicUrl: 'https://sandbox.example.com' },
        plainProxy,
        () => 'sandbox.example.com',
        () => 'https://sandbox.example.com',
      ),
  },
  {
    name: 'TCP tunnel (ssh -R, ngrok tcp) whose client sends Host: localhost:PORT, publicUrl set',
    tokenNeeded: true,
    open: () =>
      nodeChannel(
        { publicUrl: 'http://0.tcp.tunnel.example:12345' },
        tcpTunnel,
        (url) => `localhost:${portOf(url)}`,
        (url) => `http://localhost:${portOf(url)}`,
      ),
  },
  {
    name: 'HTTP tunnel that adds X-Forwarded-For (ngrok http), publicUrl set',
    tokenNeeded: true,
    open: () =>
      nodeChannel(
        { publicUrl: 'https://tunnel.example' },
        (url) => forwardingTunnel(url),
        () => 'tunnel.example',
        () => 'https://tunnel.example',
      ),
  },
  {
    // In a container, `-p 4010:4010` reaches a sandbox bound to 0.0.0.0; what the peer address is
    // then depends on the engine (rootless Docker's port driver and docker-proxy connect from an
    // address of their own), so a loopback peer proves nothing: here it is 127.0.0.1 itself.
    name: 'container port mapping: bound to 0.0.0.0, called from a loopback peer',
    tokenNeeded: true,
    open: () => nodeChannel({ host: '0.0.0.0' }, undefined, hostOf, (url) => url),
  },
  {
    name: 'docker-compose names (allowHttpHosts) on a loopback-bound sandbox, called as 127.0.0.1',
    tokenNeeded: true,
    open: () => nodeChannel({ allowHttpHosts: ['sandbox'] }, undefined, hostOf, (url) => url),
  },
  {
    name: 'localReceivers given (the developer expects callers from outside), called as 127.0.0.1',
    tokenNeeded: true,
    open: () => nodeChannel({ localReceivers: ['http://127.0.0.1:3000'] }, undefined, hostOf, (url) => url),
  },
  {
    name: 'Fetch host in process with publicUrl, peer 127.0.0.1',
    tokenNeeded: true,
    open: async () => {
      const core = createSandbox({ merchants: [M1], publicUrl: 'https://sandbox.example.com' });
      const base = 'http://127.0.0.1:4010';
      return {
        async send(method, path, headers, body) {
          const request = new Request(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual' });
          const answer = await core.fetch(request, { remoteAddress: '127.0.0.1' });
          const text = await answer.text();
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          return {
            status: answer.status,
            location: answer.headers.get('location') ?? undefined,
            setCookie: answer.headers.get('set-cookie') ?? undefined,
            text,
            body: parsed,
          };
        },
        pageOrigin: base,
        admin: sandboxAdmin(core),
        token: core.adminToken,
        close: async () => core.close(),
      };
    },
  },
];

const FAULT = JSON.stringify({ method: 'POST', path_prefix: '/v2/', kind: 'status_500_after_commit', count: 1 });
const HOUR = 3600;

/** Seconds the schedule clock moved while `action` ran. */
async function clockMoved(admin: SandboxAdmin, action: () => Promise<unknown>): Promise<number> {
  const before = Date.parse(`${(await admin.clock()).now}Z`);
  await action();
  return (Date.parse(`${(await admin.clock()).now}Z`) - before) / 1000;
}

describe.each(SETUPS)('$name', ({ tokenNeeded, open }) => {
  let channel: Channel;
  let cookie: string;
  beforeAll(async () => {
    channel = await open();
    // The dashboard's cookie, as a browser gets it: the sign-in form posted through the channel.
    const signIn = await channel.send(
      'POST',
      '/_sandbox/sign-in',
      [
        ['content-type', 'application/x-www-form-urlencoded'],
        ['origin', channel.pageOrigin],
      ],
      `token=${channel.token}`,
    );
    expect(signIn.status).toBe(303);
    cookie = signIn.setCookie!.split(';')[0]!;
  });
  afterAll(() => channel?.close());
  beforeEach(() => channel.admin.reset());

  const bearer = (): [string, string] => ['authorization', `Bearer ${channel.token}`];
  const withCookie = (): [string, string] => ['cookie', cookie];

  describe(tokenNeeded ? 'without the token: refused, nothing done' : 'without a token: answered (the developer)', () => {
    it('admin API read (GET /_sandbox/transactions)', async () => {
      const answer = await channel.send('GET', '/_sandbox/transactions', []);
      if (tokenNeeded) {
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('forbidden');
        expect(answer.text).not.toContain(channel.token);
      } else expect(answer.status).toBe(200);
    });

    it('fault add (POST /_sandbox/faults)', async () => {
      const answer = await channel.send('POST', '/_sandbox/faults', [], FAULT);
      expect(answer.status).toBe(tokenNeeded ? 403 : 200);
      expect(await channel.admin.faults()).toHaveLength(tokenNeeded ? 0 : 1);
    });

    it('clock advance (POST /_sandbox/clock/advance)', async () => {
      let status = 0;
      const moved = await clockMoved(channel.admin, async () => {
        status = (await channel.send('POST', '/_sandbox/clock/advance', [], JSON.stringify({ seconds: HOUR }))).status;
      });
      expect(status).toBe(tokenNeeded ? 403 : 200);
      if (tokenNeeded) expect(moved).toBeLessThan(60);
      else expect(moved).toBeGreaterThanOrEqual(HOUR);
    });

    it('dashboard page (GET /_sandbox/ in a browser)', async () => {
      const answer = await channel.send('GET', '/_sandbox/', [['accept', 'text/html']]);
      if (tokenNeeded) {
        expect(answer.status).toBe(303);
        expect(answer.location).toMatch(/\/_sandbox\/sign-in$/);
        expect(answer.text).not.toContain('Payments sandbox');
      } else {
        expect(answer.status).toBe(200);
        expect(answer.text).toContain('Payments sandbox');
      }
    });

    it("dashboard action (the reset button: POST /_sandbox/reset from the page's origin)", async () => {
      await channel.admin.addFault(JSON.parse(FAULT));
      const answer = await channel.send('POST', '/_sandbox/reset', [['origin', channel.pageOrigin]], '{}');
      expect(answer.status).toBe(tokenNeeded ? 403 : 200);
      expect(await channel.admin.faults()).toHaveLength(tokenNeeded ? 1 : 0);
    });
  });

  describe('with the token (Bearer) or the sign-in cookie: answered', () => {
    it('admin API read', async () => {
      expect((await channel.send('GET', '/_sandbox/transactions', [bearer()])).status).toBe(200);
    });

    it('fault add', async () => {
      expect((await channel.send('POST', '/_sandbox/faults', [bearer()], FAULT)).status).toBe(200);
      expect(await channel.admin.faults()).toHaveLength(1);
    });

    it('clock advance', async () => {
      const moved = await clockMoved(channel.admin, async () => {
        expect((await channel.send('POST', '/_sandbox/clock/advance', [bearer()], JSON.stringify({ seconds: HOUR }))).status).toBe(200);
      });
      expect(moved).toBeGreaterThanOrEqual(HOUR);
    });

    it('dashboard page, with the cookie', async () => {
      const answer = await channel.send('GET', '/_sandbox/', [['accept', 'text/html'], withCookie()]);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('Payments sandbox');
      expect(answer.text).not.toContain(channel.token);
    });

    it('dashboard action, with the cookie', async () => {
      await channel.admin.addFault(JSON.parse(FAULT));
      const answer = await channel.send('POST', '/_sandbox/reset', [['origin', channel.pageOrigin], withCookie()], '{}');
      expect(answer.status).toBe(200);
      expect(await channel.admin.faults()).toEqual([]);
    });
  });
});
