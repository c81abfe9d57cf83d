// What the HTTP modes share: one request sent exactly as built (method, URL, headers, body
// bytes), its answer read with a bound, and cases turned into a result the reports understand.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { FAILED_STATUSES, type CaseResult, type CategorySummary, type RunResult } from '../types.js';

export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

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

/** Counts per category, in the order the categories first appear. */
export function summariseCases(cases: CaseResult[]): CategorySummary[] {
  const order = [...new Set(cases.map((c) => c.category))];
  return order.map((category) => {
    const mine = cases.filter((c) => c.category === category);
    return {
      category,
      command: mine[0]!.command,
      total: mine.length,
      passed: mine.filter((c) => c.status === 'pass').length,
      failed: mine.filter((c) => FAILED_STATUSES.has(c.status)).length,
      skipped: mine.filter((c) => c.status === 'skip').length,
    };
  });
}

/** A finished HTTP-mode run in the shape every report takes. */
export function httpResult(mode: 'server' | 'webhook-endpoint', target: string, version: string, started: number, cases: CaseResult[]): RunResult {
  return {
    mode,
    suite: `pay-conformance ${mode}`,
    suite_version: version,
    protocol: 1,
    vectors_dir: '',
    implementation: { command: target, hello: null },
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    cases,
    categories: summariseCases(cases),
    restarts: 0,
  };
}
