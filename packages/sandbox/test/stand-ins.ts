// What stands between a caller elsewhere and a sandbox on this machine, each as a real server on
// loopback: a local reverse proxy that adds no forwarding header and rewrites Host to the
// sandbox's own address (nginx's default `proxy_pass`), a raw TCP tunnel (`ssh -R`, `ngrok tcp`:
// bytes piped as they come, the remote client's own Host kept), and an HTTP tunnel that adds
// X-Forwarded-For (`ngrok http`, cloudflared).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createConnection, createServer as createTcpServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';

/** A stand-in listening on loopback: its address, and how to stop it. */
export interface StandIn {
  /** `http://127.0.0.1:<port>`: where a caller elsewhere would reach the sandbox through it. */
  url: string;
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 7.6.1): a proxy never passes these on.
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/** An HTTP proxy to `target` (`http://127.0.0.1:port`): Host rewritten to the target's, and `add` added. */
function httpProxy(target: string, add: (req: { headers: IncomingHttpHeaders; peer: string }) => Record<string, string>): Promise<StandIn> {
  const { hostname, port, host } = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    Object.assign(headers, add({ headers: req.headers, peer: req.socket.remoteAddress ?? '' }));
    headers.host = host;
    const upstream = httpRequest({ hostname, port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return listening(server, () => server.closeAllConnections());
}

/**
 * nginx's default `proxy_pass http://127.0.0.1:PORT;`: the request passed on with `Host:
 * 127.0.0.1:PORT` and no forwarding header at all, from 127.0.0.1.
 */
export function plainProxy(target: string): Promise<StandIn> {
  return httpProxy(target, () => ({}));
}

/** `ngrok http`, cloudflared: Host rewritten, and X-Forwarded-For / -Proto / -Host added. */
export function forwardingTunnel(target: string, publicHost = 'tunnel.example'): Promise<StandIn> {
  return httpProxy(target, ({ headers, peer }) => ({
    'x-forwarded-for': [headers['x-forwarded-for'], peer].filter(Boolean).join(', '),
    'x-forwarded-proto': 'https',
    'x-forwarded-host': publicHost,
  }));
}

/**
 * `ssh -R`, `ngrok tcp`: a TCP port whose connections are piped, byte for byte, to `target`. The
 * sandbox sees a peer of 127.0.0.1 and whatever Host the remote client chose to send.
 */
export function tcpTunnel(target: string): Promise<StandIn> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return listening(server, () => {
    for (const s of sockets) s.destroy();
  });
}

/** `server` listening on a free loopback port; `dropAll` ends its open connections when it closes. */
function listening(server: Server | NetServer, dropAll: () => void): Promise<StandIn> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            dropAll();
            server.close(() => done());
          }),
      }),
    );
  });
}
