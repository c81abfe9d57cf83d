// HTTP mode against a merchant's running webhook endpoint: real POSTs, some correctly signed
// (must get a 2xx), some forged or stale or signed for something else (must get a non-2xx).
// Signatures are computed here with node:crypto, independently of any package under test.
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DEFAULT_TIMEOUT_MS } from './run.js';

export interface EndpointOptions {
  url: string;
  merchantId: string;
  secret: string;
  /** unix seconds; defaults to the local clock */
  now?: number;
  timeoutMs?: number;
  /** accept any TLS certificate (a local endpoint with a self-signed one) */
  insecure?: boolean;
}

export interface EndpointCase {
  id: string;
  description: string;
  expect: '2xx' | 'non-2xx';
  headers: Record<string, string>;
  body: Buffer;
}

export interface EndpointResult {
  id: string;
  description: string;
  expect: '2xx' | 'non-2xx';
  status: 'pass' | 'fail' | 'error';
  http_status: number | null;
  diagnosis?: string;
  duration_ms: number;
}

export interface EndpointRun {
  url: string;
  merchant_id: string;
  started_at: string;
  duration_ms: number;
  cases: EndpointResult[];
}

function sign(secret: string, merchantId: string, timestamp: string, url: string, body: Buffer): string {
  const h = createHmac('sha256', Buffer.from(secret, 'utf8'));
  h.update(Buffer.from(`${merchantId}${timestamp}POST${url}`, 'utf8'));
  h.update(body);
  return h.digest('hex');
}

/** The same URL with its path's trailing slash toggled (query kept). */
export function toggleSlash(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  const rest = q < 0 ? '' : url.slice(q);
  return (path.endsWith('/') ? path.slice(0, -1) : `${path}/`) + rest;
}

function otherScheme(url: string): string {
  if (url.startsWith('https://')) return `http://${url.slice(8)}`;
  if (url.startsWith('http://')) return `https://${url.slice(7)}`;
  return url;
}

export function buildCases(o: EndpointOptions): EndpointCase[] {
  const now = Math.floor(o.now ?? Date.now() / 1000);
  const ts = String(now);
  const tag = randomBytes(4).toString('hex');
  const payload = (n: number, status = 'executed') =>
    Buffer.from(JSON.stringify({ id: `pi_conf_${tag}_${n}`, reference_id: `ref_${tag}_${n}`, status }), 'utf8');
  const signed = (body: Buffer, over: { ts?: string; url?: string; merchant?: string; secret?: string } = {}) => {
    const t = over.ts ?? ts;
    const m = over.merchant ?? o.merchantId;
    return {
      'content-type': 'application/json',
      'x-merchant-id': m,
      'x-timestamp': t,
      'x-signature': sign(over.secret ?? o.secret, m, t, over.url ?? o.url, body),
    };
  };
  const pretty = Buffer.from(
    `{\n  "id": "pi_conf_${tag}_2",\n  "reference_id": "réf_${tag}_2 ✓",\n  "status": "executed"\n}\n`,
    'utf8',
  );
  const cases: EndpointCase[] = [];
  const add = (id: string, description: string, expect: '2xx' | 'non-2xx', headers: Record<string, string>, body: Buffer) =>
    cases.push({ id, description, expect, headers, body });

  add('valid', 'a correctly signed webhook', '2xx', signed(payload(1)), payload(1));
  add('valid-exact-bytes', 'correctly signed, pretty-printed with non-ASCII text: the exact raw bytes are signed', '2xx', signed(pretty), pretty);
  // Clocks on two machines differ by a second or two, so the time cases keep 10 s clear of the
  // 60 s edge; the golden vectors test the edge itself to the second.
  add('valid-50s-old', 'correctly signed 50 s ago (within the 60 s tolerance)', '2xx', signed(payload(3), { ts: String(now - 50) }), payload(3));
  add('forged-signature', 'a signature that no one computed', 'non-2xx', { ...signed(payload(4)), 'x-signature': randomBytes(32).toString('hex') }, payload(4));
  add('wrong-secret', 'signed with another secret', 'non-2xx', signed(payload(5), { secret: `${o.secret}x` }), payload(5));
  add('tampered-body', 'the body was changed after signing (status)', 'non-2xx', signed(payload(6, 'new')), payload(6, 'executed'));
  add('expired', 'signed 70 s ago: outside the 60 s tolerance', 'non-2xx', signed(payload(7), { ts: String(now - 70) }), payload(7));
  add('future-dated', 'dated 70 s in the future: outside the 60 s tolerance', 'non-2xx', signed(payload(8), { ts: String(now + 70) }), payload(8));
  add('url-slash-toggled', `signed for ${toggleSlash(o.url)} (trailing slash ${o.url.split(/[?#]/)[0]!.endsWith('/') ? 'dropped' : 'added'})`, 'non-2xx', signed(payload(9), { url: toggleSlash(o.url) }), payload(9));
  if (otherScheme(o.url) !== o.url) {
    add('url-other-scheme', `signed for ${otherScheme(o.url).split(':')[0]}:// instead of ${o.url.split(':')[0]}://`, 'non-2xx', signed(payload(10), { url: otherScheme(o.url) }), payload(10));
  }
  add('wrong-merchant', 'signed correctly, but by and for another merchant id', 'non-2xx', signed(payload(11), { merchant: `${o.merchantId}_other` }), payload(11));
  const noSig = signed(payload(12));
  delete (noSig as Partial<typeof noSig>)['x-signature'];
  add('missing-signature', 'no x-signature header', 'non-2xx', noSig, payload(12));
  add('fractional-timestamp', 'x-timestamp with a fraction, signed over that text', 'non-2xx', signed(payload(13), { ts: `${ts}.5` }), payload(13));
  return cases;
}

function post(url: string, c: EndpointCase, timeoutMs: number, insecure: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...c.headers, 'content-length': String(c.body.length) },
        timeout: timeoutMs,
        ...(u.protocol === 'https:' && insecure ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(c.body);
  });
}

export async function runWebhookEndpoint(o: EndpointOptions): Promise<EndpointRun> {
  const started = Date.now();
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const count = buildCases({ ...o, now: 0 }).length;
  const results: EndpointResult[] = [];
  for (let i = 0; i < count; i++) {
    // Signed just before it is sent, so a slow endpoint does not shift the later cases' clocks.
    const c = buildCases({ ...o, now: o.now ?? Date.now() / 1000 })[i]!;
    const t0 = performance.now();
    const base = { id: c.id, description: c.description, expect: c.expect };
    try {
      const status = await post(o.url, c, timeoutMs, o.insecure ?? false);
      const ok = status >= 200 && status < 300;
      const pass = c.expect === '2xx' ? ok : !ok;
      results.push({
        ...base,
        status: pass ? 'pass' : 'fail',
        http_status: status,
        ...(pass
          ? {}
          : {
              diagnosis:
                c.expect === '2xx'
                  ? `a correctly signed webhook got HTTP ${status}; it must get a 2xx (${c.description})`
                  : `the endpoint accepted it with HTTP ${status}; it must refuse it with a non-2xx (${c.description})`,
            }),
        duration_ms: Math.round(performance.now() - t0),
      });
    } catch (e) {
      results.push({ ...base, status: 'error', http_status: null, diagnosis: `the request failed: ${(e as Error).message}`, duration_ms: Math.round(performance.now() - t0) });
    }
  }
  return { url: o.url, merchant_id: o.merchantId, started_at: new Date(started).toISOString(), duration_ms: Date.now() - started, cases: results };
}

export function formatEndpointRun(run: EndpointRun, s: { green(x: string): string; red(x: string): string; bold(x: string): string; dim(x: string): string }): string {
  const failed = run.cases.filter((c) => c.status !== 'pass');
  const lines = [s.bold(`webhook endpoint ${run.url}`)];
  for (const c of run.cases) {
    const mark = c.status === 'pass' ? s.green('✓') : s.red('✗');
    lines.push(`${mark} ${c.id.padEnd(22)} ${s.dim(`expect ${c.expect}, got ${c.http_status ?? c.status}`)}`);
    if (c.diagnosis) lines.push(`    ${c.diagnosis}`);
  }
  lines.push(`${failed.length ? s.red('FAIL') : s.green('PASS')} ${run.cases.length - failed.length} passed, ${failed.length} failed in ${run.duration_ms} ms`);
  return `${lines.join('\n')}\n`;
}
