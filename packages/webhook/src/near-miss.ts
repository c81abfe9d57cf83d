// When a webhook's signature does not match, the commonest causes are a URL configured a little
// differently from the one the service signs, a body that went through a JSON parser, and a
// secret pasted with whitespace. Trying those few variants tells the merchant which, in a log
// line. A receiver configured for one host (`localhost`) while the service signs the URL it calls
// with another (`127.0.0.1`, another port) is the same mistake, named the same way.
//
// Anyone who knows a merchant id can send a forged webhook, so the work is bounded: the hint is
// worked out only when something reads it (a log line), only for bodies of webhook size, and the
// body is re-serialised only when it is small and shallow. Whatever the body or headers, a hint
// costs at most a handful of HMACs (eight a secret) over at most HINT_BODY_LIMIT bytes, and it never throws.
import { jsonNestingOver } from '@pay/schema';
import type { HeadersLike } from '@pay/sign';
import { readHeader, verifyRequest } from '@pay/sign';

interface Attempt {
  merchantId: string;
  secrets: readonly string[];
  url: string;
  headers: HeadersLike;
  body: string | Uint8Array;
  now: number;
  toleranceSeconds: number | undefined;
}

/** Past this many bytes (UTF-16 units for text) no variant is tried: webhooks are a few hundred bytes. */
const HINT_BODY_LIMIT = 4 * 1024;
/** Bodies are parsed and re-serialised only up to this depth of nesting (a payload has two or three levels). */
const RESERIALISE_DEPTH = 8;

/** The URL as it may appear in a log line: its query (which can hold a token) left out. */
function withoutQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?…`;
}

function urlVariants(url: string): [string, string][] {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const variants: [string, string][] = [];
  const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  variants.push([toggled + query, path.endsWith('/') ? 'the URL without its trailing slash' : 'the URL with a trailing slash']);
  if (/^https:/i.test(url)) variants.push([`http:${url.slice(6)}`, 'the http:// form of the URL']);
  else variants.push([`https:${url.slice(5)}`, 'the https:// form of the URL']);
  if (query) variants.push([path, 'the URL without its query string']);
  return variants;
}

/** A Host header that can name a URL's authority: a name or address, and a port (at most 260 characters). */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,253}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/i;
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The URL with another host: the one the request was sent to (its Host header), and, for a
 * loopback name, the other names of this machine with the same port. The service signs the URL it
 * calls, so a receiver configured for `localhost` that the service calls as `127.0.0.1` (or on
 * another port) fails on every webhook. At most three variants, each one HMAC.
 */
function hostVariants(url: string, headers: HeadersLike): [string, string][] {
  const m = /^(https?:\/\/)([^/?#]*)(.*)$/is.exec(url);
  // A URL with credentials in it would put them in a log line: no host hint for it.
  if (m === null || m[2]?.includes('@')) return [];
  const [, scheme, authority, rest] = m as unknown as [string, string, string, string];
  const configured = authority.toLowerCase();
  const [name, port] = splitAuthority(configured);
  const seen = new Set([configured]);
  const variants: [string, string][] = [];
  const add = (other: string, why: string) => {
    if (seen.has(other)) return;
    seen.add(other);
    variants.push([`${scheme}${other}${rest}`, `the URL with host ${other} instead of ${authority}${why}`]);
  };
  const host = readHeader(headers, 'host')?.toLowerCase();
  if (host !== undefined && HOST.test(host)) add(host, ', the host this request was sent to');
  if (LOOPBACK.includes(name)) for (const alias of LOOPBACK) add(`${alias}${port}`, ', another name of this machine');
  return variants;
}

/** `host` and `:port` of an authority (`[::1]:4010` gives `[::1]` and `:4010`). */
function splitAuthority(authority: string): [string, string] {
  const m = /^(\[[^\]]*\]|[^:]*)(:[0-9]*)?$/.exec(authority);
  return m === null ? [authority, ''] : [m[1] ?? authority, m[2] ?? ''];
}

function bodyVariants(text: string): [string, string][] {
  if (jsonNestingOver(text, RESERIALISE_DEPTH)) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  // Only the minified form: it is what a framework's JSON parser and JSON.stringify produce. A
  // pretty-printed variant would cost another HMAC on every forged request for a rarer mistake.
  return [[JSON.stringify(value), 'the body re-serialised as minified JSON']];
}

function nearMiss(attempt: Attempt): string | undefined {
  const size = typeof attempt.body === 'string' ? attempt.body.length : attempt.body.byteLength;
  if (size > HINT_BODY_LIMIT) return undefined;
  const matches = (change: Partial<Attempt>) => {
    const { merchantId, secrets, url, headers, body, now, toleranceSeconds } = { ...attempt, ...change };
    return verifyRequest({ merchantId, secrets, method: 'POST', url, headers, body, now, toleranceSeconds }).ok;
  };
  for (const [url, what] of [...urlVariants(attempt.url), ...hostVariants(attempt.url, attempt.headers)]) {
    if (matches({ url })) {
      return `the signature matches ${what} (${withoutQuery(url)}): configure url as exactly the address the service signs`;
    }
  }
  const text = typeof attempt.body === 'string' ? attempt.body : new TextDecoder().decode(attempt.body);
  for (const [body, what] of bodyVariants(text)) {
    if (body !== text && matches({ body })) {
      return `the signature matches ${what}: the body reached the verifier re-serialised; verify the raw bytes received`;
    }
  }
  const padded = attempt.secrets.some((s) => s.trim() !== s && s.trim().length > 0);
  const trimmed = attempt.secrets.map((s) => s.trim()).filter((s) => s.length > 0);
  if (padded && matches({ secrets: trimmed })) {
    return 'the signature matches the secret without its surrounding whitespace: the configured secret has stray spaces or newlines';
  }
  // Every near miss was tried: what is left is a secret that is not the sender's, or a sender that
  // is not the service. Said without a word about the secret.
  return `no common mistake matches (URL variants, the body re-serialised, a padded secret): the secret set here is most likely not the one the service signs merchant ${attempt.merchantId}'s webhooks with (compare it with the merchant secret the service has), or the request is not from the service`;
}

/**
 * The first near miss that would have matched, as a sentence for logs; when none does, that the
 * secret is the likeliest cause; undefined for a body past the size limit (nothing was tried). Never throws.
 */
export function lazyHint(attempt: Attempt): string | undefined {
  try {
    return nearMiss(attempt);
  } catch {
    return undefined; // a hint is a courtesy: nothing about it may turn a refusal into a crash
  }
}
