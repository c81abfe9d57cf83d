// Webhook-endpoint mode: a merchant's running webhook endpoint tested with real POSTs, each case of
// the table in cases.ts in turn through the one case recorder. Signatures are computed with the
// runner's own code (signing.ts, node:crypto), independently of any package under test.
import { randomBytes } from 'node:crypto';
import { caseOf, casesFor, type EndpointCase } from './cases.js';
import { CaseRecorder, type SoFar, type Verdict } from '../recorder.js';
import { httpResult } from '../result.js';
import { is2xx, send, type HttpOptions } from '../send.js';
import type { RunResult } from '../../types.js';

/** The endpoint under test, and how to reach it. */
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

/** Runs every case against the endpoint. */
export async function runWebhookEndpoint(o: EndpointOptions): Promise<RunResult> {
  const started = Date.now();
  const recorder = new CaseRecorder();
  const tag = randomBytes(4).toString('hex');
  const http: HttpOptions = { timeoutMs: o.timeoutMs, ...(o.insecure ? { insecure: true } : {}) };
  for (const row of casesFor(o.url)) {
    // Signed just before it is sent, so a slow endpoint does not shift the later cases' clocks.
    const c = caseOf(row, o, Math.floor(o.now ?? Date.now() / 1000), tag);
    await recorder.record(c, (soFar) => deliver(c, o.url, http, soFar));
  }
  return httpResult('webhook-endpoint', `${o.url} (merchant ${o.merchantId})`, o.version ?? '', started, recorder.cases);
}

/** POSTs a case's deliveries in order, until one gets what it must not; the verdict. */
async function deliver(c: EndpointCase, url: string, http: HttpOptions, soFar: SoFar): Promise<Verdict> {
  const statuses: number[] = [];
  soFar.got = { http_status: statuses };
  for (const [n, d] of c.deliveries.entries()) {
    const a = await send({ method: 'POST', url, headers: d.headers, body: d.body }, http);
    statuses.push(a.status);
    const ok = is2xx(a.status);
    if (c.expect === '2xx' && !ok) {
      const which = c.deliveries.length > 1 ? `delivery ${n + 1} of ${c.deliveries.length}` : 'the only delivery';
      return {
        status: 'fail',
        got: { http_status: statuses },
        diagnosis: `a correctly signed webhook (${which}) got HTTP ${a.status}; it must get a 2xx: ${c.description}`,
      };
    }
    if (c.expect === 'non-2xx' && ok) {
      return {
        status: 'fail',
        got: { http_status: statuses },
        diagnosis: `the endpoint accepted it with HTTP ${a.status}; it must refuse it with a non-2xx: ${c.description}`,
      };
    }
  }
  return { status: 'pass', got: { http_status: statuses.length === 1 ? statuses[0] : statuses } };
}
