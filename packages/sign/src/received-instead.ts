// What the service signed instead, when a webhook's signature does not match what its receiver
// expects: a receiver's view of the catalogue of signing mistakes (catalogue.ts). A receiver holds
// its own secret(s), the URL it is configured with and the Host header the webhook came with, so
// it tries the near misses a receiver makes: a URL configured a little differently from the one
// the service signs (its trailing slash, scheme, query, or host: the one the request was sent to,
// another name of this machine), a body that went through a JSON parser before it got here, and a
// secret configured with whitespace around it. The same bounds as every diagnosis
// (diagnosis-bounds.ts): nothing tried past DIAGNOSIS_BODY_LIMIT, a handful of HMACs a secret.
import type { Part } from './bytes.js';
import { utf8 } from './bytes.js';
import { minified } from './body-forms.js';
import { firstMatch, type SignedInstead, type Variant } from './catalogue.js';
import { DIAGNOSIS_BODY_LIMIT } from './diagnosis-bounds.js';
import { concatenated } from './string-to-sign.js';
import { LOOPBACK, splitAuthority, toggleSlash } from './url-parts.js';

/** A webhook refused for its x-signature, as its receiver holds it. */
export interface RefusedWebhook {
  merchantId: string;
  /** The receiver's secrets, as configured (several while rotating). */
  secrets: readonly string[];
  /** The URL the receiver is configured with: the one it expects the service to sign. */
  url: string;
  /** The Host header the webhook came with, if any. */
  host?: string | undefined;
  /** x-timestamp as sent */
  timestamp: string;
  /** the exact body received */
  body: string | Uint8Array;
  /** x-signature as sent */
  signature: string;
}

/**
 * The near miss that explains a webhook's x-signature, from the receiver's side, or undefined when
 * none does or the body is past DIAGNOSIS_BODY_LIMIT (nothing is tried then). `what` says what the
 * service signed and what to fix where the webhook is received. Never throws.
 *
 * @example
 * ```ts
 * const found = receivedInstead({ merchantId, secrets: [secret], url, host, timestamp, body, signature });
 * if (found) log(`the signature matches ${found.what}`); // found.mistake: 'slash_added_on_wire', say
 * ```
 */
export function receivedInstead(r: RefusedWebhook): SignedInstead | undefined {
  try {
    // A string has at least as many UTF-8 bytes as UTF-16 units: a long one is not even encoded.
    if (typeof r.body === 'string' && r.body.length > DIAGNOSIS_BODY_LIMIT) return undefined;
    const body = typeof r.body === 'string' ? utf8(r.body) : r.body;
    if (!(body instanceof Uint8Array) || body.byteLength > DIAGNOSIS_BODY_LIMIT) return undefined;
    return firstMatch(webhookVariants(r, body), r.signature);
  } catch {
    return undefined; // a diagnosis is a courtesy: nothing about it may become a crash
  }
}

const CONFIGURE = 'configure url as exactly the address the service signs';

function* webhookVariants(r: RefusedWebhook, body: Uint8Array): Generator<Variant> {
  const { merchantId, secrets, url, timestamp } = r;
  const sign = (u: string, b: Part = body): Part[] => concatenated(merchantId, timestamp, 'POST', u, b);
  for (const [variant, mistake, what] of [...urlVariants(url), ...hostVariants(url, r.host)])
    for (const secret of secrets) yield [secret, sign(variant), mistake, `${what} (${withoutQuery(variant)}): ${CONFIGURE}`];
  const compact = minified(body);
  if (compact !== undefined)
    for (const secret of secrets)
      yield [
        secret,
        sign(url, compact),
        'body_reserialised',
        'the body re-serialised as minified JSON: the body reached the verifier re-serialised; verify the raw bytes received',
      ];
  for (const secret of secrets) {
    const trimmed = secret.trim();
    if (trimmed !== secret && trimmed.length > 0)
      yield [
        trimmed,
        sign(url),
        'secret_padded_where_verified',
        'the secret without its surrounding whitespace: the configured secret has stray spaces or newlines',
      ];
  }
}

type UrlVariant = [url: string, mistake: Variant[2], what: string];

/** The configured URL with its trailing slash toggled, the other scheme, and without its query. */
function urlVariants(url: string): UrlVariant[] {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const variants: UrlVariant[] = [
    path.endsWith('/')
      ? [toggleSlash(path) + query, 'slash_added_on_wire', 'the URL without its trailing slash']
      : [toggleSlash(path) + query, 'slash_dropped_on_wire', 'the URL with a trailing slash'],
  ];
  if (/^https:/i.test(url)) variants.push([`http:${url.slice(6)}`, 'scheme_other', 'the http:// form of the URL']);
  else variants.push([`https:${url.slice(5)}`, 'scheme_other', 'the https:// form of the URL']);
  if (query) variants.push([path, 'query_unsigned', 'the URL without its query string']);
  return variants;
}

/** A Host header that can name a URL's authority: a name or address, and a port (at most 260 characters). */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,253}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/i;

/**
 * The URL with another host: the one the request was sent to (its Host header), and, for a
 * loopback name, the other names of this machine with the same port. The service signs the URL it
 * calls, so a receiver configured for `localhost` that the service calls as `127.0.0.1` (or on
 * another port) fails on every webhook. At most three variants a secret.
 */
function hostVariants(url: string, hostHeader: string | undefined): UrlVariant[] {
  const m = /^(https?:\/\/)([^/?#]*)(.*)$/is.exec(url);
  // A URL with credentials in it would put them in a log line: no host hint for it.
  if (m === null || m[2]?.includes('@')) return [];
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const configured = authority.toLowerCase();
  const [name, port] = splitAuthority(configured);
  const seen = new Set([configured]);
  const variants: UrlVariant[] = [];
  const add = (other: string, why: string) => {
    if (seen.has(other)) return;
    seen.add(other);
    variants.push([`${scheme}${other}${rest}`, 'host_other', `the URL with host ${other} instead of ${authority}${why}`]);
  };
  const host = typeof hostHeader === 'string' ? hostHeader.toLowerCase() : undefined;
  if (host !== undefined && HOST.test(host)) add(host, ', the host this request was sent to');
  if (LOOPBACK.includes(name)) for (const alias of LOOPBACK) add(`${alias}${port}`, ', another name of this machine');
  return variants;
}

/** The URL as it may appear in a log line: its query (which can hold a token) left out. */
function withoutQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?…`;
}
