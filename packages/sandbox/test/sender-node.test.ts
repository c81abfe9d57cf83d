// The Node sender against real receivers on loopback: Node's own HTTP and HTTPS servers, and raw
// TCP servers that answer in every way HTTP/1.1 allows (and some it does not), byte by byte. What
// is checked: the status reported, which connections are used again (counted on the receiver),
// and the words a failed attempt gets in the delivery log.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createNet, type Server as NetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure } from '../src/deliveries.js';
import { nodeSender } from '../src/sender-node.js';

const TLS = join(import.meta.dirname, 'fixtures', 'tls');
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function sender() {
  const s = nodeSender();
  closers.push(() => s.close());
  return s;
}

const generation = new AbortController().signal;
const attempt = (body = '{"id":"pi_1","reference_id":null,"status":"new"}') => ({
  headers: { 'content-type': 'application/json', 'x-merchant-id': 'm_1' },
  body,
  signal: generation,
  timeoutMs: 5_000,
});

/** How a send ended: its status, or the delivery log's words for its failure. */
const outcome = (sent: Promise<number>) =>
  sent.then(
    (status) => status,
    (error: unknown) => describeFailure(error),
  );

async function listening<S extends HttpServer | NetServer>(server: S): Promise<{ server: S; url: (path?: string) => string }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, url: (path = '/hooks') => `http://127.0.0.1:${port}${path}` };
}

/**
 * A raw receiver: reads each request (head and content-length body) and writes `answer(n)` for the
 * n-th, in the pieces given, each after a short pause (a string is written whole). Counts connections.
 */
async function raw(answer: (n: number) => string | string[]) {
  let n = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createNet((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', async (chunk) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        requests.push(pending.slice(0, end + 4 + length));
        pending = pending.slice(end + 4 + length);
        const pieces = answer(++n);
        for (const piece of typeof pieces === 'string' ? [pieces] : pieces) {
          if (socket.destroyed) return;
          socket.write(Buffer.from(piece, 'latin1'));
          if (typeof pieces !== 'string') await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    });
  });
  closers.push(() => {
    for (const s of sockets) s.destroy();
  });
  const { url } = await listening(server);
  return { url, requests, connections: () => connections };
}

describe('the Node sender: what it sends', () => {
  it('one request: the exact path and query as written, Host, the headers given, content-length in bytes, the body', async () => {
    const hooks = await raw(() => 'HTTP/1.1 204 No Content\r\n\r\n');
    const body = '{"reference_id":"café"}';
    expect(await outcome(sender().send(hooks.url('/a/b/?x=1&y=%20#fragment'), attempt(body)))).toBe(204);
    const [request] = hooks.requests;
    const port = new URL(hooks.url()).port;
    expect(Buffer.from(request!, 'latin1').toString('utf8')).toBe(
      `POST /a/b/?x=1&y=%20 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\nx-merchant-id: m_1\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });

  it('sends nothing for a URL or header a request line cannot carry', async () => {
    const hooks = await raw(() => 'HTTP/1.1 204 No Content\r\n\r\n');
    const s = sender();
    await expect(s.send(hooks.url('/a b'), attempt())).rejects.toThrow(/white space or control characters/);
    await expect(s.send(hooks.url('/a\r\nx-injected: 1'), attempt())).rejects.toThrow(/white space or control characters/);
    await expect(s.send(hooks.url(), { ...attempt(), headers: { 'x-a': 'v\r\nx-injected: 1' } })).rejects.toThrow(/cannot be sent/);
    expect(hooks.requests).toEqual([]);
  });
});

describe('the Node sender: answers', () => {
  it.each([
    ['204 from Node', 'HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n', 204],
    ['a content-length body in three pieces', ['HTTP/1.1 200 OK\r\nContent-Le', 'ngth: 5\r\n\r\nhel', 'lo'], 200],
    [
      'chunked, in pieces, with trailers',
      ['HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n3\r', '\nabc\r\n0\r\nX-T: 1\r\n', '\r\n'],
      202,
    ],
    [
      '100 Continue before the answer',
      ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n'],
      500,
    ],
    ['a redirect (never followed)', 'HTTP/1.1 301 Moved Permanently\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n', 301],
  ])('%s: the status, and the connection used again', async (_name, answer, status) => {
    const hooks = await raw(() => answer);
    const s = sender();
    for (let i = 0; i < 3; i++) expect(await outcome(s.send(hooks.url(), attempt()))).toBe(status);
    expect(hooks.connections()).toBe(1);
  });

  it.each([
    ['Connection: close', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'],
    ['HTTP/1.0', 'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n'],
    ['Keep-Alive: timeout=1 (too short to use again safely)', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nKeep-Alive: timeout=1\r\n\r\n'],
  ])('%s: the status, and a new connection for each webhook', async (_name, answer) => {
    const hooks = await raw(() => answer);
    const s = sender();
    for (let i = 0; i < 3; i++) expect(await outcome(s.send(hooks.url(), attempt()))).toBe(200);
    expect(hooks.connections()).toBe(3);
  });

  it('a body that runs to the close: the status once the receiver closes', async () => {
    const server = createNet((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\n\r\nall of it')));
    const { url } = await listening(server);
    expect(await outcome(sender().send(url(), attempt()))).toBe(200);
  });

  it.each([
    ['not HTTP', 'SSH-2.0-OpenSSH_9.6\r\n\r\n', 'not an HTTP/1.1 answer: the answer does not start with an HTTP/1.x status line'],
    [
      'a header line without a colon',
      'HTTP/1.1 200 OK\r\nContent-Length 0\r\n\r\n',
      'not an HTTP/1.1 answer: an answer header line is not "name: value"',
    ],
    [
      'two content-lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'not an HTTP/1.1 answer: the answer has an unusable content-length',
    ],
  ])('%s: a failed attempt, in words, and its connection dropped', async (_name, answer, words) => {
    const hooks = await raw(() => answer);
    const s = sender();
    expect(await outcome(s.send(hooks.url(), attempt()))).toBe(words);
    expect(await outcome(s.send(hooks.url(), attempt()))).toBe(words);
    expect(hooks.connections()).toBe(2);
  });

  it('a receiver that closes without answering: "connection reset"; cut in the middle of an answer: not an answer', async () => {
    const silent = await listening(createNet((socket) => socket.once('data', () => socket.destroy())));
    expect(await outcome(sender().send(silent.url(), attempt()))).toBe('connection reset');
    const cut = await listening(
      createNet((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'))),
    );
    expect(await outcome(sender().send(cut.url(), attempt()))).toBe(
      'not an HTTP/1.1 answer: the connection closed in the middle of the answer',
    );
  });

  it('nobody listening: "connection refused"', async () => {
    const probe = await listening(createNet());
    const url = probe.url();
    await new Promise<void>((resolve) => probe.server.close(() => resolve()));
    expect(await outcome(sender().send(url, attempt()))).toBe('connection refused');
  });
});

describe('the Node sender: connections', () => {
  it('a receiver that closes idle connections sooner than the sender would: the next webhook opens a new one, no failure', async () => {
    const hooks = createHttp((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    hooks.keepAliveTimeout = 100; // Node then sends Keep-Alive: timeout=0 and closes after 100 ms
    let connections = 0;
    hooks.on('connection', () => connections++);
    const { url } = await listening(hooks);
    const s = sender();
    for (let i = 0; i < 3; i++) {
      expect(await outcome(s.send(url(), attempt()))).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(connections).toBe(3);
  });

  it('many at once to one receiver: at most 64 connections; the rest wait their turn and are all answered', async () => {
    let open = 0;
    let most = 0;
    const hooks = createHttp((req, res) => {
      req.resume().on('end', () => setTimeout(() => res.writeHead(204).end(), 20));
    });
    hooks.on('connection', (socket) => {
      most = Math.max(most, ++open);
      socket.on('close', () => open--);
    });
    const { url } = await listening(hooks);
    const s = sender();
    const all = await Promise.all(Array.from({ length: 200 }, () => outcome(s.send(url(), attempt()))));
    expect(all.every((status) => status === 204)).toBe(true);
    expect(most).toBe(64);
  });

  it('an attempt waiting for a connection still has its own deadline', async () => {
    // 64 attempts hold every connection to a receiver that never answers; the 65th waits, and
    // times out on its own deadline without ever being sent.
    let received = 0;
    const silent = createHttp((req) => req.resume().on('end', () => received++));
    const { url } = await listening(silent);
    const s = sender();
    const held = Array.from({ length: 64 }, () => outcome(s.send(url(), { ...attempt(), timeoutMs: 3_000 })));
    const waiting = outcome(s.send(url(), { ...attempt(), timeoutMs: 300 }));
    expect(await waiting).toBe('timeout after 10 s');
    expect(new Set(await Promise.all(held))).toEqual(new Set(['timeout after 10 s']));
    // Counted once the held attempts are over (on a loaded machine the receiver may not have read
    // all 64 within the 300 ms): 64, so the 65th was never sent.
    expect(received).toBe(64);
  });
});

describe('the Node sender: https', () => {
  const key = readFileSync(join(TLS, 'localhost-key.pem'));
  const cert = readFileSync(join(TLS, 'localhost-cert.pem'));

  async function httpsReceiver() {
    const server = createHttps({ key, cert }, (req, res) => req.resume().on('end', () => res.writeHead(201).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return (server.address() as { port: number }).port;
  }

  it('refuses a receiver whose certificate it does not trust (never sends the webhook to it)', async () => {
    const port = await httpsReceiver();
    expect(await outcome(sender().send(`https://localhost:${port}/hooks`, attempt()))).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('delivers to a trusted receiver, by name and by address (NODE_EXTRA_CA_CERTS, in a process of its own)', async () => {
    const port = await httpsReceiver();
    const script = `
      const { nodeSender } = await import(${JSON.stringify(join(import.meta.dirname, '..', 'dist', 'sender-node.js'))});
      const s = nodeSender();
      const signal = new AbortController().signal;
      const send = (url) => s.send(url, { headers: {}, body: '{}', signal, timeoutMs: 5000 }).catch((e) => e.code ?? e.message);
      console.log(JSON.stringify([await send('https://localhost:${port}/a'), await send('https://127.0.0.1:${port}/b')]));
      s.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(TLS, 'localhost-cert.pem') },
    });
    expect(JSON.parse(stdout)).toEqual([201, 201]);
  });
});
