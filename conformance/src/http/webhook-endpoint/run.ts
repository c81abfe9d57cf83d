// HTTP mode against a merchant's running webhook endpoint: real POSTs, some correctly signed
// (must get a 2xx), some forged or stale or signed for something else (must get a non-2xx).
// Signatures are computed with the runner's own code (signing.ts, node:crypto), independently of
// any package under test.
import { randomBytes } from 'node:crypto';
import { httpResult, is2xx, send } from '../send.js';
import { signedHeaders } from '../../signing.js';
import type { CaseResult, RunResult } from '../../types.js';
import { toggleSlash } from '../server/run.js';

export { toggleSlash };

export interface EndpointOptions {
  url: string;
  merchantId: string;
  secret: string;
  /** unix seconds; defaults to the local clock */
  now?: number;
  timeoutMs: number;
  /** accept any TLS certificate (a local endpoint with a self-signed one) */
  insecure?: boolean;
  /** the runner's version, for the report */
  version?: string;
}

const ACCEPTS = 'webhook_accepts';
const REFUSES = 'webhook_refuses';

/** One POST of a case: what it sends. */
export interface Delivery {
  headers: Record<string, string>;
  body: Buffer;
}

export interface EndpointCase {
  id: string;
  category: string;
  description: string;
  expect: '2xx' | 'non-2xx';
  /** sent in order; each must get what `expect` says */
  deliveries: Delivery[];
}

/** A host no receiver should ever sign for: where a sender-chosen Host would point it. */
const SENDER_HOST = 'attacker.invalid';

function otherScheme(url: string): string {
  if (url.startsWith('https://')) return `http://${url.slice(8)}`;
  if (url.startsWith('http://')) return `https://${url.slice(7)}`;
  return url;
}

/** The configured URL with its authority replaced, as a receiver rebuilding it from headers would. */
function withHost(url: string, host: string): string {
  return url.replace(/^([a-z]+:\/\/)[^/?#]*/i, `$1${host}`);
}

export function buildCases(o: Omit<EndpointOptions, 'timeoutMs'> & { timeoutMs?: number }): EndpointCase[] {
  const now = Math.floor(o.now ?? Date.now() / 1000);
  const ts = String(now);
  const tag = randomBytes(4).toString('hex');
  const payload = (n: number, status = 'executed') =>
    Buffer.from(JSON.stringify({ id: `pi_conf_${tag}_${n}`, reference_id: `ref_${tag}_${n}`, status }), 'utf8');
  const signed = (body: Buffer, over: { ts?: string; url?: string; merchant?: string; secret?: string } = {}) => ({
    'content-type': 'application/json',
    ...signedHeaders(
      { merchantId: over.merchant ?? o.merchantId, secret: over.secret ?? o.secret },
      { method: 'POST', url: over.url ?? o.url, body, timestamp: over.ts ?? ts },
    ),
  });
  const pretty = Buffer.from(
    `{\n  "id": "pi_conf_${tag}_2",\n  "reference_id": "réf_${tag}_2 ✓",\n  "status": "executed"\n}\n`,
    'utf8',
  );
  const cases: EndpointCase[] = [];
  const add = (id: string, description: string, expect: '2xx' | 'non-2xx', ...deliveries: Delivery[]) =>
    cases.push({ id: `${expect === '2xx' ? ACCEPTS : REFUSES}/${id}`, category: expect === '2xx' ? ACCEPTS : REFUSES, description, expect, deliveries });
  const one = (headers: Record<string, string>, body: Buffer): Delivery => ({ headers, body });

  add('valid', 'a correctly signed webhook', '2xx', one(signed(payload(1)), payload(1)));
  add('valid-exact-bytes', 'correctly signed, pretty-printed with non-ASCII text: the exact raw bytes are signed', '2xx', one(signed(pretty), pretty));
  // Clocks on two machines differ by a second or two, so the time cases keep 10 s clear of the
  // 60 s edge; the golden vectors test the edge itself to the second.
  add('valid-50s-old', 'correctly signed 50 s ago (within the 60 s tolerance)', '2xx', one(signed(payload(3), { ts: String(now - 50) }), payload(3)));
  // The service re-delivers an event it got no 2xx for (and may send one twice): the same body,
  // signed again at the new time. A receiver must acknowledge it again, never refuse it.
  add(
    'redelivery',
    'the same event delivered twice, the second time re-signed with a new timestamp (as a retry is): both must get a 2xx',
    '2xx',
    one(signed(payload(14), { ts: String(now - 30) }), payload(14)),
    one(signed(payload(14)), payload(14)),
  );
  add('forged-signature', 'a signature that no one computed', 'non-2xx', one({ ...signed(payload(4)), 'x-signature': randomBytes(32).toString('hex') }, payload(4)));
  add('wrong-secret', 'signed with another secret', 'non-2xx', one(signed(payload(5), { secret: `${o.secret}x` }), payload(5)));
  add('tampered-body', 'the body was changed after signing (status)', 'non-2xx', one(signed(payload(6, 'new')), payload(6, 'executed')));
  add('expired', 'signed 70 s ago: outside the 60 s tolerance', 'non-2xx', one(signed(payload(7), { ts: String(now - 70) }), payload(7)));
  add('future-dated', 'dated 70 s in the future: outside the 60 s tolerance', 'non-2xx', one(signed(payload(8), { ts: String(now + 70) }), payload(8)));
  add('url-slash-toggled', `signed for ${toggleSlash(o.url)} (trailing slash ${o.url.split(/[?#]/)[0]!.endsWith('/') ? 'dropped' : 'added'})`, 'non-2xx',
    one(signed(payload(9), { url: toggleSlash(o.url) }), payload(9)));
  if (otherScheme(o.url) !== o.url) {
    add('url-other-scheme', `signed for ${otherScheme(o.url).split(':')[0]}:// instead of ${o.url.split(':')[0]}://`, 'non-2xx',
      one(signed(payload(10), { url: otherScheme(o.url) }), payload(10)));
  }
  // A receiver that rebuilds the URL it verifies from the request, instead of using the address it
  // gave the service, verifies whatever URL the sender chooses: sent with a Host header (or an
  // X-Forwarded-Host) naming another host, and signed for that host, it would be accepted.
  add('host-header-chosen-by-sender', `sent with "Host: ${SENDER_HOST}" and signed for ${withHost(o.url, SENDER_HOST)}: the URL verified must be the configured one, not one rebuilt from the request`, 'non-2xx',
    one({ ...signed(payload(15), { url: withHost(o.url, SENDER_HOST) }), host: SENDER_HOST }, payload(15)));
  add('forwarded-host-chosen-by-sender', `sent with "X-Forwarded-Host: ${SENDER_HOST}" (and X-Forwarded-Proto) and signed for ${withHost(o.url, SENDER_HOST)}`, 'non-2xx',
    one({ ...signed(payload(16), { url: withHost(o.url, SENDER_HOST) }), 'x-forwarded-host': SENDER_HOST, 'x-forwarded-proto': o.url.split(':')[0]! }, payload(16)));
  add('wrong-merchant', 'signed correctly, but by and for another merchant id', 'non-2xx', one(signed(payload(11), { merchant: `${o.merchantId}_other` }), payload(11)));
  const noSig = signed(payload(12));
  delete (noSig as Partial<typeof noSig>)['x-signature'];
  add('missing-signature', 'no x-signature header', 'non-2xx', one(noSig, payload(12)));
  add('fractional-timestamp', 'x-timestamp with a fraction, signed over that text', 'non-2xx', one(signed(payload(13), { ts: `${ts}.5` }), payload(13)));
  return cases;
}

export async function runWebhookEndpoint(o: EndpointOptions): Promise<RunResult> {
  const started = Date.now();
  const count = buildCases({ ...o, now: 0 }).length;
  const cases: CaseResult[] = [];
  for (let i = 0; i < count; i++) {
    // Signed just before it is sent, so a slow endpoint does not shift the later cases' clocks.
    const c = buildCases({ ...o, now: o.now ?? Date.now() / 1000 })[i]!;
    const t0 = performance.now();
    const result = (r: Pick<CaseResult, 'status' | 'got'> & { diagnosis?: string }): CaseResult => ({
      id: c.id,
      category: c.category,
      command: 'http',
      description: c.description,
      flags: [],
      expected: c.expect,
      duration_ms: Math.round(performance.now() - t0),
      ...r,
    });
    const statuses: number[] = [];
    try {
      let verdict: CaseResult | null = null;
      for (const [n, d] of c.deliveries.entries()) {
        const a = await send({ method: 'POST', url: o.url, headers: d.headers, body: d.body }, { timeoutMs: o.timeoutMs, ...(o.insecure ? { insecure: true } : {}) });
        statuses.push(a.status);
        const ok = is2xx(a.status);
        if (c.expect === '2xx' && !ok) {
          const which = c.deliveries.length > 1 ? `delivery ${n + 1} of ${c.deliveries.length} ` : '';
          verdict = result({ status: 'fail', got: { http_status: statuses }, diagnosis: `a correctly signed webhook (${which.trim() || 'the only delivery'}) got HTTP ${a.status}; it must get a 2xx: ${c.description}` });
          break;
        }
        if (c.expect === 'non-2xx' && ok) {
          verdict = result({ status: 'fail', got: { http_status: statuses }, diagnosis: `the endpoint accepted it with HTTP ${a.status}; it must refuse it with a non-2xx: ${c.description}` });
          break;
        }
      }
      cases.push(verdict ?? result({ status: 'pass', got: { http_status: statuses.length === 1 ? statuses[0] : statuses } }));
    } catch (e) {
      cases.push(result({ status: 'error', got: { http_status: statuses }, diagnosis: `the request failed: ${(e as Error).message}` }));
    }
  }
  return httpResult('webhook-endpoint', `${o.url} (merchant ${o.merchantId})`, o.version ?? '', started, cases);
}
