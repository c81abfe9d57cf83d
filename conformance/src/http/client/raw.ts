// What is wrong with a request at the wire's own level, before what it means: its header lines as
// sent (a singleton repeated, the secret in one, no Host), a body on a GET, a request outside the
// base path, one that got through the untrusted TLS listener, one Node's parser refused. Judged
// from the proxy's raw records (Exchange.rawHeaders, rawTarget, body), never from a server
// library's view of them: Node keeps the first of two Content-Type lines and drops the other,
// joins two x-timestamp lines with ", ", and refuses two Content-Length lines before any handler.
import { BASE_PATH, type Exchange } from './proxy.js';
import { routeOf } from './routes.js';
import type { Finding } from './finding.js';
import { leakIn, type Sensitive } from '../redact.js';

/**
 * The request headers that may appear once. Those the interface uses (Host, Content-Type,
 * Content-Length and its own x- headers), and the others HTTP defines as a single value (not a
 * comma-separated list) that an SDK may send: Authorization, User-Agent, Date. A second line of
 * one of them is read by each server its own way (the first, the last, both joined, or refused).
 */
export const SINGLETON_HEADERS = [
  'host',
  'content-type',
  'content-length',
  'x-merchant-id',
  'x-timestamp',
  'x-signature',
  'x-simplified-signature',
  'authorization',
  'user-agent',
  'date',
] as const;

const SINGLETONS = new Set<string>(SINGLETON_HEADERS);

/** Every wire-level finding on one request, in order: the first explains the rest. */
export function rawFindings(ex: Exchange, sensitive: readonly Sensitive[]): Finding[] {
  if (ex.action === 'plaintext_on_tls') return [plaintextOnTls(ex)];
  const out: Finding[] = [];
  if (ex.origin.startsWith('https:')) out.push(tlsUnverified(ex));
  out.push(...repeated(ex), ...secretInHeaders(ex, sensitive));
  if (!ex.rawHeaders.some(([name]) => name.toLowerCase() === 'host'))
    out.push({ mistake: 'missing_header', text: `${ex.method} ${ex.rawTarget} was sent with no Host header, which HTTP/1.1 requires` });
  const get = bodyOnGet(ex);
  if (get) out.push(get);
  if (ex.action === 'outside_base') out.push(outsideBase(ex));
  // A request the parser refused was never read further: what made it refuse, when nothing above says.
  if (ex.refused !== undefined && out.length === 0) {
    out.push({
      mistake: 'malformed_request',
      text: `sent ${ex.method} ${ex.rawTarget} in a form HTTP/1.1 does not allow: the service's HTTP parser refused it before reading it (${ex.refused})`,
    });
  }
  return out;
}

/** Each singleton header sent on more than one line. */
function repeated(ex: Exchange): Finding[] {
  const lines = new Map<string, string[]>();
  for (const [name] of ex.rawHeaders) {
    const k = name.toLowerCase();
    if (SINGLETONS.has(k)) lines.set(k, [...(lines.get(k) ?? []), name]);
  }
  const out: Finding[] = [];
  for (const names of lines.values()) {
    if (names.length < 2) continue;
    const refused = ex.refused === undefined ? '' : ` (the service's HTTP parser refused the request for it: ${ex.refused})`;
    out.push({
      mistake: 'header_repeated',
      text: `sent ${names.length} ${names[0]} header lines (${names.join(', ')}) on ${ex.method} ${ex.rawTarget}: a header that takes one value is sent once; servers read a repeat differently (the first, the last, both, or a refusal)${refused}. Look for two header maps merged without regard to case ("Content-Type" and "content-type"), or appendHeader / add_header where set is meant`,
    });
  }
  return out;
}

/** The secret (or the card number) in a header line's name or value, in any encoding the runner masks. */
function secretInHeaders(ex: Exchange, sensitive: readonly Sensitive[]): Finding[] {
  const out: Finding[] = [];
  for (const [name, value] of ex.rawHeaders) {
    const leak = leakIn(`${name}: ${value}`, sensitive);
    if (leak) {
      out.push({
        mistake: 'secret_in_header',
        text: `sent ${leak} in its ${name} header: the secret only keys the HMAC and never leaves the SDK (a header reaches proxies, gateways and their logs); send x-merchant-id, x-timestamp and the signature, and no Authorization or other header made from the secret`,
      });
    }
  }
  return out;
}

/** A GET sent with a body (bytes, or a framing that announces one). */
function bodyOnGet(ex: Exchange): Finding | null {
  if (ex.method !== 'GET') return null;
  const length = ex.headers['content-length'];
  const chunked = ex.headers['transfer-encoding'] !== undefined;
  if (ex.body.length === 0 && !chunked && (length === undefined || length.trim() === '0')) return null;
  const what = ex.body.length > 0 ? `${ex.body.length} body bytes` : chunked ? 'Transfer-Encoding (a body)' : `Content-Length: ${length}`;
  return {
    mistake: 'body_on_get',
    text: `sent a lookup (GET ${ex.rawTarget}) with ${what}: a lookup has no body (the interface's GET endpoints take none, and the signature covers an empty one); servers and proxies may refuse a GET with a body, or read it as the next request. Send the GET with no body and no Content-Type`,
  };
}

/** A request outside BASE_PATH (and the card proxy): the base URL's path lost, or another address. */
function outsideBase(ex: Exchange): Finding {
  if (routeOf(ex.method, ex.rawTarget).kind !== 'other') {
    return {
      mistake: 'base_path_lost',
      text: `called ${ex.method} ${ex.origin}${ex.rawTarget}, without the path of the base URL given (${ex.origin}${BASE_PATH}): joining URLs (new URL('/v2/…', base), urljoin) replaces a base URL's path; append the interface's paths to the base URL as given`,
    };
  }
  return {
    mistake: 'wrong_url',
    text: `called ${ex.method} ${ex.rawTarget}, which is not under the base URL given (${ex.origin}${BASE_PATH})`,
  };
}

/** A request that got through the TLS listener's handshake: its certificate was not checked. */
function tlsUnverified(ex: Exchange): Finding {
  return {
    mistake: 'tls_unverified',
    text: `completed a TLS handshake with ${ex.origin}, whose certificate is self-signed (no authority issued it), and sent ${ex.method} ${ex.rawTarget} over it: certificate checks are switched off (rejectUnauthorized: false, NODE_TLS_REJECT_UNAUTHORIZED=0, ssl._create_unverified_context(), verify=False, CERT_NONE); anyone on the path can read the request and answer in the service's name. Leave verification on; trust a test authority by adding it (ca, cafile), never by turning checks off`,
  };
}

/** Plain HTTP sent to an https base URL: the request went in clear text. */
function plaintextOnTls(ex: Exchange): Finding {
  return {
    mistake: 'tls_not_used',
    text: `sent plain HTTP to ${ex.origin}, an https address: the request (its headers and body, a card push's card) went in clear text, and the service refused it. An https URL is called over TLS (node:https, http.client.HTTPSConnection), whatever the HTTP library's default`,
  };
}
