// The admin client sends a call once more when its connection is reset before any answer, and
// only when that is safe: a GET, never a POST that may have arrived. Real servers on loopback
// break real connections: one closes or resets the first connection as soon as it is accepted,
// one closes a kept-alive connection when the next request arrives on it (the flake seen under
// load). Each runs over both transports of a base URL: fetch, and the command line's node:http.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { adminClient } from '../src/admin-client/client.js';
import { sendAgain } from '../src/admin-client/retry.js';
import { nodeTransport } from '../src/admin-client/transport-node.js';
import { sandboxAdmin, type SandboxAdmin } from '../src/index.js';

const TRANSPORTS: [string, (url: string, timeoutMs?: number) => SandboxAdmin][] = [
  ['fetch', (url, timeoutMs) => sandboxAdmin(url, timeoutMs === undefined ? {} : { timeoutMs })],
  ['node:http', (url, timeoutMs) => adminClient(url, timeoutMs === undefined ? {} : { timeoutMs }, nodeTransport)],
];

/** Node's own fetch is undici 6 before Node 24 (and loading the undici package no longer swaps it). */
const fetchHangsOnClosedConnection = Number(process.versions['undici']?.split('.')[0] ?? 7) < 7;

/** How a broken server breaks a connection: a close (FIN) or a reset (RST). */
type Break = 'close' | 'reset';
const breakSocket = (socket: Socket, how: Break) => (how === 'close' ? socket.destroy() : socket.resetAndDestroy());

/** A server answering every admin call `{"ok":true}`, which breaks the connections `breaks(n)` says (n counts from 1). */
interface Broken {
  url: string;
  /** Connections accepted. */
  connections: number;
  /** Requests answered, as `METHOD path`. */
  answered: string[];
}

const open: (Server | HttpServer)[] = [];
// The connections handed from a TCP server to an HTTP server that never listened (which does not
// track them): destroyed here, or closing the TCP server would wait for the client's keep-alive.
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  // The HTTP servers first: their connections close, and then the TCP servers they came through.
  for (const server of open.splice(0).reverse()) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A server that breaks connection `n` when `breaks(n)` is true: as soon as it is accepted, or once
 * the request's first bytes arrived (then the request certainly reached the server).
 */
async function breaking(breaks: (n: number) => boolean, how: Break, when: 'accepted' | 'arrived'): Promise<Broken> {
  const state: Broken = { url: '', connections: 0, answered: [] };
  const http = answering(state);
  const server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    if (!breaks(state.connections)) http.emit('connection', socket);
    else if (when === 'accepted') breakSocket(socket, how);
    else socket.once('data', () => breakSocket(socket, how));
  });
  open.push(server, http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A keep-alive server that breaks a connection when a second request arrives on it. */
async function breakingKeptAlive(how: Break): Promise<Broken> {
  const state: Broken = { url: '', connections: 0, answered: [] };
  const served = new WeakMap<Socket, number>();
  const http = answering(state, (req) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    if (n < 2) return false;
    breakSocket(req.socket, how);
    return true;
  });
  http.on('connection', () => state.connections++);
  open.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return state;
}

function answering(state: Broken, broken: (req: IncomingMessage) => boolean = () => false): HttpServer {
  const http = createHttpServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      if (broken(req)) return;
      state.answered.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return http;
}

describe.each(TRANSPORTS)('over %s', (_name, client) => {
  describe.each(['close', 'reset'] as const)('the first connection %s', (how) => {
    it.each(['accepted', 'arrived'] as const)('as soon as %s: a GET is sent once more, on a new connection, and answered', async (when) => {
      const server = await breaking((n) => n === 1, how, when);
      if (_name === 'fetch' && how === 'close' && when === 'accepted' && fetchHangsOnClosedConnection) {
        // Node's own fetch before undici 7 (Node 20 and 22) mostly never settles when a connection
        // is closed as soon as it is accepted, so nothing can see the close: the call ends at its
        // time limit, as a timeout, and no request was answered. When the close wins the race with
        // the request's write, fetch does see it, and the call is sent once more like anywhere else.
        const outcome = await client(server.url, 300)
          .health()
          .then(
            (answer) => ({ answer }),
            (error: unknown) => ({ error }),
          );
        if ('error' in outcome) {
          expect(outcome.error).toMatchObject({ code: 'timeout', status: null });
          expect(server.answered).toEqual([]);
        } else {
          expect(outcome.answer).toEqual({ ok: true });
          expect(server.connections).toBe(2);
          expect(server.answered).toEqual(['GET /_sandbox/health']);
        }
        return;
      }
      expect(await client(server.url).health()).toEqual({ ok: true });
      expect(server.connections).toBe(2);
      expect(server.answered).toEqual(['GET /_sandbox/health']);
    });

    it('once the request arrived: a POST is not sent again (it may have been done): network_error', async () => {
      const server = await breaking((n) => n === 1, how, 'arrived');
      await expect(client(server.url).reset()).rejects.toMatchObject({
        name: 'SandboxAdminError',
        status: null,
        code: 'network_error',
        message: expect.stringMatching(/^POST \/_sandbox\/reset: cannot reach the sandbox at .* \(connection reset\)$/),
      });
      expect(server.connections).toBe(1);
      expect(server.answered).toEqual([]);
    });

    it('once only: a GET whose second connection breaks too fails, after two connections', async () => {
      const server = await breaking(() => true, how, 'arrived');
      await expect(client(server.url).transactions()).rejects.toMatchObject({ code: 'network_error', status: null });
      expect(server.connections).toBe(2);
    });
  });

  it.each(['close', 'reset'] as const)('a kept-alive connection %s under the next GET: sent again, answered', async (how) => {
    const server = await breakingKeptAlive(how);
    const admin = client(server.url);
    expect(await admin.health()).toEqual({ ok: true });
    expect(await admin.clock()).toEqual({ ok: true });
    expect(server.answered).toEqual(['GET /_sandbox/health', 'GET /_sandbox/clock']);
    expect(server.connections).toBe(2); // the kept-alive one, and the one the GET was sent again on
  });
});

describe('which failures are sent again (retry.ts)', () => {
  // The errors as Node and undici give them: fetch wraps the socket's error in `cause`.
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
  const resetConnecting = Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET', syscall: 'connect' });
  const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' });
  const fetchFailed = (cause: Error) => new TypeError('fetch failed', { cause });
  it.each([
    ['GET', fetchFailed(reset), true],
    ['GET', fetchFailed(closed), true],
    ['GET', reset, true],
    ['POST', fetchFailed(reset), false], // it may have arrived
    ['POST', fetchFailed(closed), false],
    ['POST', fetchFailed(resetConnecting), true], // nothing of it left: the connection was never made
    ['GET', fetchFailed(refused), false], // not a reset: nothing to gain from at once again
    ['GET', new DOMException('aborted', 'AbortError'), false],
    ['GET', null, false],
  ] as const)('%s failing with %s: %s', (method, error, expected) => {
    expect(sendAgain(method, error)).toBe(expected);
  });
});
