// One HTTP request sent exactly as built (method, URL, headers, body bytes: nothing re-encoded), and
// its answer read with a bound: how both HTTP modes reach the implementation under test.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

/** A request as it goes out. */
export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** An answer: its status and (at most MAX_ANSWER_BYTES of) its body. */
export interface HttpAnswer {
  status: number;
  body: Buffer;
}

/** How requests are sent. */
export interface HttpOptions {
  timeoutMs: number;
  /** accept any TLS certificate (a local service with a self-signed one) */
  insecure?: boolean;
}

/** Bytes of an answer kept; the rest is read and dropped. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Sends the call as built: the headers given (a `host` header among them replaces the one taken
 * from the URL), the body's exact bytes. Rejects on a network error or when no complete answer
 * comes within the time limit.
 */
export function send(call: HttpCall, o: HttpOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(call.url);
    const tls = u.protocol === 'https:';
    const body = call.body ?? new Uint8Array(0);
    const headers: Record<string, string> = { ...call.headers };
    if (body.length > 0 || call.method !== 'GET') headers['content-length'] = String(body.length);
    const req = (tls ? httpsRequest : httpRequest)(
      {
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port || undefined,
        // The request target as written in the URL: never re-encoded.
        path: call.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/',
        method: call.method,
        headers,
        agent: false,
        // TLS names the URL's host, even when a case sends another Host header.
        ...(tls && isIP(u.hostname.replace(/^\[|\]$/g, '')) === 0 ? { servername: u.hostname } : {}),
        ...(tls && o.insecure ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < MAX_ANSWER_BYTES) chunks.push(c);
          kept += c.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
        });
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/** Whether a status accepts the request. */
export const is2xx = (status: number) => status >= 200 && status < 300;

/** An answer's JSON body as an object, or null. */
export function jsonOf(a: HttpAnswer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(a.body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
