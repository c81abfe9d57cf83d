// Webhook-endpoint mode's cases as a table: each row is plain data saying what it POSTs to the
// merchant's endpoint (which payload, signed how, with which extra headers) and what it must get:
// correctly signed webhooks a 2xx; forged, stale or mis-addressed ones a non-2xx. buildCases makes
// the rows into the exact requests, signed at a given time.
import { randomBytes } from 'node:crypto';
import { signatureHeaders, type Forgery } from '../forgery.js';
import type { CaseHead, Expect } from '../recorder.js';
import { otherScheme, schemeOf, toggleSlash, withHost } from '../url-variants.js';

/** A host no receiver should ever sign for: where a sender-chosen Host would point it. */
const SENDER_HOST = 'attacker.invalid';

/** The configured URL with the sender's host, as a receiver that rebuilds it from the request would verify it. */
const senderHost = (url: string) => withHost(url, SENDER_HOST);

/** How one POST of a row is signed (correctly, or at another time) and what it carries. */
interface DeliveryRow {
  /** which event: payloads are numbered, so a re-delivery sends the same one again */
  payload: number;
  /** the event pretty-printed with non-ASCII text instead of minified */
  pretty?: boolean;
  signing?: Forgery & {
    /** signed over the event with this status, sent with "executed": the body changed after signing */
    signedStatus?: string;
  };
  /** headers added after the signed ones */
  headers?: (url: string) => Record<string, string>;
}

/** One case of webhook-endpoint mode. */
interface WebhookCaseRow {
  name: string;
  expect: Expect;
  description: string | ((url: string) => string);
  /** sent in order; each must get what `expect` says */
  deliveries: DeliveryRow[];
  /** only for an endpoint URL this holds for */
  when?: (url: string) => boolean;
}

/** Every case, in the order they run. */
const WEBHOOK_CASES: readonly WebhookCaseRow[] = [
  { name: 'valid', expect: '2xx', description: 'a correctly signed webhook', deliveries: [{ payload: 1 }] },
  {
    name: 'valid-exact-bytes',
    expect: '2xx',
    description: 'correctly signed, pretty-printed with non-ASCII text: the exact raw bytes are signed',
    deliveries: [{ payload: 2, pretty: true }],
  },
  // Clocks on two machines differ by a second or two, so the time cases keep 10 s clear of the
  // 60 s edge; the golden vectors test the edge itself to the second.
  {
    name: 'valid-50s-old',
    expect: '2xx',
    description: 'correctly signed 50 s ago (within the 60 s tolerance)',
    deliveries: [{ payload: 3, signing: { shift: -50 } }],
  },
  // The service re-delivers an event it got no 2xx for (and may send one twice): the same body,
  // signed again at the new time. A receiver must acknowledge it again, never refuse it.
  {
    name: 'redelivery',
    expect: '2xx',
    description: 'the same event delivered twice, the second time re-signed with a new timestamp (as a retry is): both must get a 2xx',
    deliveries: [{ payload: 14, signing: { shift: -30 } }, { payload: 14 }],
  },
  {
    name: 'forged-signature',
    expect: 'non-2xx',
    description: 'a signature that no one computed',
    deliveries: [{ payload: 4, signing: { signature: 'random' } }],
  },
  {
    name: 'wrong-secret',
    expect: 'non-2xx',
    description: 'signed with another secret',
    deliveries: [{ payload: 5, signing: { secretSuffix: 'x' } }],
  },
  {
    name: 'tampered-body',
    expect: 'non-2xx',
    description: 'the body was changed after signing (status)',
    deliveries: [{ payload: 6, signing: { signedStatus: 'new' } }],
  },
  {
    name: 'expired',
    expect: 'non-2xx',
    description: 'signed 70 s ago: outside the 60 s tolerance',
    deliveries: [{ payload: 7, signing: { shift: -70 } }],
  },
  {
    name: 'future-dated',
    expect: 'non-2xx',
    description: 'dated 70 s in the future: outside the 60 s tolerance',
    deliveries: [{ payload: 8, signing: { shift: 70 } }],
  },
  {
    name: 'url-slash-toggled',
    expect: 'non-2xx',
    description: (url) => `signed for ${toggleSlash(url)} (trailing slash ${url.split(/[?#]/)[0]!.endsWith('/') ? 'dropped' : 'added'})`,
    deliveries: [{ payload: 9, signing: { url: toggleSlash } }],
  },
  {
    name: 'url-other-scheme',
    expect: 'non-2xx',
    description: (url) => `signed for ${schemeOf(otherScheme(url))}:// instead of ${schemeOf(url)}://`,
    deliveries: [{ payload: 10, signing: { url: otherScheme } }],
    when: (url) => otherScheme(url) !== url,
  },
  // A receiver that rebuilds the URL it verifies from the request, instead of using the address it
  // gave the service, verifies whatever URL the sender chooses: sent with a Host header (or an
  // X-Forwarded-Host) naming another host, and signed for that host, it would be accepted.
  {
    name: 'host-header-chosen-by-sender',
    expect: 'non-2xx',
    description: (url) =>
      `sent with "Host: ${SENDER_HOST}" and signed for ${senderHost(url)}: the URL verified must be the configured one, not one rebuilt from the request`,
    deliveries: [{ payload: 15, signing: { url: senderHost }, headers: () => ({ host: SENDER_HOST }) }],
  },
  {
    name: 'forwarded-host-chosen-by-sender',
    expect: 'non-2xx',
    description: (url) => `sent with "X-Forwarded-Host: ${SENDER_HOST}" (and X-Forwarded-Proto) and signed for ${senderHost(url)}`,
    deliveries: [
      {
        payload: 16,
        signing: { url: senderHost },
        headers: (url) => ({ 'x-forwarded-host': SENDER_HOST, 'x-forwarded-proto': schemeOf(url) }),
      },
    ],
  },
  {
    name: 'wrong-merchant',
    expect: 'non-2xx',
    description: 'signed correctly, but by and for another merchant id',
    deliveries: [{ payload: 11, signing: { merchant: 'other' } }],
  },
  {
    name: 'missing-signature',
    expect: 'non-2xx',
    description: 'no x-signature header',
    deliveries: [{ payload: 12, signing: { signature: 'missing' } }],
  },
  {
    name: 'fractional-timestamp',
    expect: 'non-2xx',
    description: 'x-timestamp with a fraction, signed over that text',
    deliveries: [{ payload: 13, signing: { fractional: true } }],
  },
];

/** One POST of a case: what it sends. */
interface Delivery {
  headers: Record<string, string>;
  body: Buffer;
}

/** A case made into its requests. */
export interface EndpointCase extends CaseHead {
  id: string;
  /** sent in order; each must get what `expect` says */
  deliveries: Delivery[];
}

/** The endpoint, and who signs for it. */
export interface Addressee {
  url: string;
  merchantId: string;
  secret: string;
}

/** The rows that apply to the endpoint at `url`. */
export function casesFor(url: string): readonly WebhookCaseRow[] {
  return WEBHOOK_CASES.filter((row) => !row.when || row.when(url));
}

/** The events a run sends: numbered, this run's own by `tag`. */
function events(tag: string) {
  const payload = (n: number, status = 'executed') =>
    Buffer.from(JSON.stringify({ id: `pi_conf_${tag}_${n}`, reference_id: `ref_${tag}_${n}`, status }), 'utf8');
  const pretty = (n: number) =>
    Buffer.from(`{\n  "id": "pi_conf_${tag}_${n}",\n  "reference_id": "réf_${tag}_${n} ✓",\n  "status": "executed"\n}\n`, 'utf8');
  return { payload, pretty };
}

/** A row made into its requests, signed at `now` (unix seconds). */
export function caseOf(row: WebhookCaseRow, to: Addressee, now: number, tag: string): EndpointCase {
  const { payload, pretty } = events(tag);
  const me = { merchantId: to.merchantId, secret: to.secret };
  const category = row.expect === '2xx' ? 'webhook_accepts' : 'webhook_refuses';
  const deliveries = row.deliveries.map((d): Delivery => {
    const { signedStatus, ...forgery } = d.signing ?? {};
    const body = d.pretty ? pretty(d.payload) : payload(d.payload);
    if (signedStatus !== undefined) forgery.body = payload(d.payload, signedStatus);
    const signature = signatureHeaders(me, { method: 'POST', url: to.url, body }, now, forgery);
    return { headers: { 'content-type': 'application/json', ...signature, ...d.headers?.(to.url) }, body };
  });
  const description = typeof row.description === 'string' ? row.description : row.description(to.url);
  return { id: `${category}/${row.name}`, category, name: row.name, description, expect: row.expect, deliveries };
}

/** Every case for the endpoint, signed at `now` (the local clock by default). */
export function buildCases(o: Addressee & { now?: number }): EndpointCase[] {
  const now = Math.floor(o.now ?? Date.now() / 1000);
  const tag = randomBytes(4).toString('hex');
  return casesFor(o.url).map((row) => caseOf(row, o, now, tag));
}
