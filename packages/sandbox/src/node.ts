/// <reference types="node" />
// The Node adapter: one node:http server around the Fetch core. It gives the core what a Fetch
// `Request` cannot carry: the exact URL called (the `Host` header and the raw request target),
// the peer address, headers received twice, and a socket it can destroy for the drop faults.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from './http.js';
import type { Merchant } from './merchants.js';
import { createSandbox, shouldDropConnection, type SandboxOptions } from './sandbox.js';

/** Options of {@link startSandbox}. */
export interface StartSandboxOptions extends SandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; `127.0.0.1` by default. */
  host?: string;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** The service base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The card proxy URL: `<url>/card-proxy`. */
  cardProxyUrl: string;
  /** The dashboard: `<url>/_sandbox/`. */
  dashboardUrl: string;
  /** The merchants it accepts (the demo merchant when none were given). */
  merchants: readonly Merchant[];
  /** Stops listening, drops open connections, stops the clock and deliveries. */
  close(): Promise<void>;
}

// Headers that must come once: a second copy would be joined into the first and misread.
const SINGLE = new Set(['host', 'content-type', 'content-length', 'x-merchant-id', 'x-timestamp', 'x-signature', 'x-simplified-signature']);

/**
 * Starts the sandbox on Node: one HTTP server serving the service, the card proxy, the admin API
 * and the dashboard.
 *
 * @throws TypeError for unusable options; rejects when the port cannot be listened on.
 * @example
 * ```ts
 * const sandbox = await startSandbox({ merchants: [{ id: 'm_1', secret: 'sk_1' }], port: 0 });
 * console.log(sandbox.url, sandbox.cardProxyUrl);
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError('port must be a whole number from 0 to 65535');
  if (typeof host !== 'string' || host.length === 0) throw new TypeError('host must be a non-empty string such as 127.0.0.1');
  const sandbox = createSandbox(rest);
  const server = createServer({ keepAliveTimeout: 5_000 });
  let fallbackHost = host;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch(() => req.socket.destroy());
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const duplicateHeaders: string[] = [];
    const seen = new Set<string>();
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (SINGLE.has(name)) {
        if (seen.has(name) && !duplicateHeaders.includes(name)) duplicateHeaders.push(name);
        seen.add(name);
      }
      try {
        headers.append(name, req.rawHeaders[i + 1]!);
      } catch {
        // a value Fetch refuses (Node accepted it): left out, so the checks see it missing
      }
    }
    const target = req.url ?? '/';
    const authority = req.headers.host ?? fallbackHost;
    const url = target.startsWith('/') ? `http://${authority}${target}` : target;
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readLimited(req);
    let request: Request;
    try {
      request = new Request(url, { method: req.method ?? 'GET', headers, body: body?.bytes });
    } catch {
      // The URL parser refuses it (a strange Host): the core still gets the exact URL in context.
      request = new Request('http://invalid.invalid/', { method: req.method ?? 'GET', headers, body: body?.bytes });
    }
    const response = await sandbox.fetch(request, {
      url,
      ...(req.socket.remoteAddress === undefined ? {} : { remoteAddress: req.socket.remoteAddress }),
      ...(duplicateHeaders.length > 0 ? { duplicateHeaders } : {}),
    });
    if (shouldDropConnection(response)) {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    // A body left unread (too large) must not be parsed as the next request.
    if (body?.truncated) out['connection'] = 'close';
    if (response.body !== null && out['content-type']?.startsWith('text/event-stream')) {
      res.writeHead(response.status, out);
      res.flushHeaders();
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
      return;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    out['content-length'] = String(bytes.byteLength);
    res.writeHead(response.status, out);
    res.end(bytes);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  fallbackHost = `${shownHost}:${address.port}`;
  const url = `http://${fallbackHost}`;
  return {
    url,
    cardProxyUrl: `${url}/card-proxy`,
    dashboardUrl: `${url}/_sandbox/`,
    merchants: sandbox.merchants,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Reads a body, at most one byte past the limit: enough for the core to see it is too large
 * (and answer 413) without ever holding a huge body. The rest is left unread.
 */
function readLimited(req: IncomingMessage): Promise<{ bytes: Uint8Array<ArrayBuffer>; truncated: boolean }> {
  const limit = MAX_BODY_BYTES + 1;
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve({ bytes: new Uint8Array(limit), truncated: true });
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
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks, size), truncated: false });
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}
