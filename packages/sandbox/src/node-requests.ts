/// <reference types="node" />
// The Node adapter's side of each request: one node:http server whose requests are read (the raw
// headers for a header sent twice, the body up to the limit, the peer and its account) into what
// the core takes, answered by the core, and written back (a stream as it comes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestTracker } from './core.js';
import type { HostRequest } from './host-request.js';
import { MAX_BODY_BYTES, type Reply } from './http.js';
import { type PeerAccount, peerAccount } from './peer-account.js';

/**
 * How long an idle kept-alive connection stays open, in seconds, as the sandbox tells clients
 * (`Keep-Alive: timeout=5`, Node's own default). The server really keeps it open twice as long:
 * a client closes its idle connections a little before the time it was told (Node's fetch 2 s
 * before), and on a busy machine its timer can fire later than that, so a server that closed at
 * the very time it announced would now and then close a connection just as the client's next
 * request left on it, and that request would fail (a journal test's admin POST did, in CI).
 */
const KEEP_ALIVE_SECONDS = 5;
const KEEP_ALIVE_HEADER = `timeout=${KEEP_ALIVE_SECONDS}`;

// Headers that must come once: Node keeps the first copy of some and joins others, so a second
// copy is found in the raw headers and refused.
const SINGLE = new Set(['host', 'content-type', 'content-length', 'x-merchant-id', 'x-timestamp', 'x-signature', 'x-simplified-signature']);

/**
 * A node:http server (not listening yet) whose every request `handle` answers, tracked by `track`
 * on the sandbox's clock.
 */
export function nodeServer(handle: (incoming: HostRequest) => Promise<Reply>, track: RequestTracker): Server {
  const server = createServer({ keepAliveTimeout: 2 * KEEP_ALIVE_SECONDS * 1000 });
  const accounts = new WeakMap<Socket, PeerAccount>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch(() => req.socket.destroy());
  });
  return server;

  // Whose process each connection's peer is, asked once per connection and only when needed.
  function accountOf(socket: Socket): PeerAccount {
    let account = accounts.get(socket);
    if (account === undefined) {
      const { remoteAddress, remotePort, localAddress, localPort } = socket;
      account =
        remoteAddress === undefined || remotePort === undefined || localAddress === undefined || localPort === undefined
          ? 'other'
          : peerAccount({ address: remoteAddress, port: remotePort }, { address: localAddress, port: localPort });
      accounts.set(socket, account);
    }
    return account;
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    // No Host header (HTTP/1.0) leaves the authority empty: the core refuses a request that does
    // not name the sandbox.
    const url = target.startsWith('/') ? `http://${req.headers.host ?? ''}${target}` : target;
    // Tracked on the sandbox's clock from arrival to the answer; a stream's body (the dashboard's
    // change feed, open for as long as the page is) is written after, untracked.
    const { answer, truncated } = await track(url, () => answerOf(req, url));
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    // Headers as a flat list, the cheapest form for Node to write.
    const headers: string[] = [];
    for (const name in answer.headers) headers.push(name, answer.headers[name]!);
    // A body left unread (too large) must not be parsed as the next request.
    if (truncated) headers.push('connection', 'close');
    else headers.push('keep-alive', KEEP_ALIVE_HEADER); // Node then sends no Keep-Alive of its own
    if (answer.body === null || typeof answer.body === 'string') {
      if (answer.body !== null) headers.push('content-length', String(Buffer.byteLength(answer.body)));
      res.writeHead(answer.status, headers);
      res.end(answer.body ?? undefined);
      return;
    }
    // A stream (the dashboard's change feed): written as it comes, cancelled when the client goes.
    res.writeHead(answer.status, headers);
    res.flushHeaders();
    const reader = answer.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  }

  /** Reads a request and has the core answer it. */
  async function answerOf(req: IncomingMessage, url: string): Promise<{ answer: Reply; truncated: boolean }> {
    let duplicateHeaders: string[] | undefined;
    for (let i = 0, seen = ''; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (!SINGLE.has(name)) continue;
      if (seen.includes(`|${name}|`)) (duplicateHeaders ??= []).push(name);
      seen += `|${name}|`;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    // Read (up to the limit) whatever the method: a body left unread would be read and discarded
    // by Node whatever its size. GET bodies are then ignored: they are not signed.
    const body = await readLimited(req);
    const read = Promise.resolve(body.truncated ? undefined : body.bytes);
    // Optional fields set one by one: a spread of each would cost V8 more than the rest of this.
    const incoming: HostRequest = { method, url, headers: req.headers, read: () => read };
    const { remoteAddress, localPort } = req.socket;
    if (remoteAddress !== undefined) incoming.remoteAddress = remoteAddress;
    if (localPort !== undefined) incoming.localPort = localPort;
    incoming.account = () => accountOf(req.socket);
    if (duplicateHeaders !== undefined) incoming.duplicateHeaders = duplicateHeaders;
    return { answer: await handle(incoming), truncated: body.truncated };
  }
}

/**
 * Reads a body, at most one byte past the limit: enough to know it is too large (413) without
 * ever holding a huge body. The rest is left unread.
 */
function readLimited(req: IncomingMessage): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const limit = MAX_BODY_BYTES + 1;
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve({ bytes: new Uint8Array(0), truncated: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        // Stop reading without destroying the socket: the 413 still has to be sent on it.
        req.off('data', onData).off('end', onEnd).off('error', reject);
        req.pause();
        resolve({ bytes: Buffer.concat(chunks, size).subarray(0, limit), truncated: true });
      }
    };
    // One chunk (a usual request body) is used as it is, not copied.
    const onEnd = () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated: false });
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}
