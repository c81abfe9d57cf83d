// The address a webhook's signature is checked against. It is the configured `url`, exactly;
// only a receiver that opted in to `trustProxyHeaders` rebuilds it from its proxy's headers and
// the request path, and then nothing but a scheme, a host name and the path may become part of it.
import type { HeadersLike } from '@pay/sign';
import { readHeader, urlProblem } from '@pay/sign';
import type { ProxyHeaders } from './options.js';
import type { WebhookRefusal } from './refusals.js';
import { refusal } from './refusals.js';

// A host as a proxy forwards it: a name or an IP literal, with an optional port. Nothing else may
// become part of the signed address.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(?::[0-9]{1,5})?$/;
const UNSAFE_IN_PATH = /[\s\u0000-\u001f\u007f]/g;

/** The first value of a header that may hold a list (`https, http`), trimmed. */
function firstValue(headers: HeadersLike, name: string): string | undefined {
  const value = readHeader(headers, name);
  if (value === undefined) return undefined;
  const comma = value.indexOf(',');
  return (comma < 0 ? value : value.slice(0, comma)).trim();
}

/** The address a trusted proxy says it received the request on, or a refusal. */
function proxiedUrl(names: ProxyHeaders, headers: HeadersLike, requestPath: string): string | WebhookRefusal {
  const proto = firstValue(headers, names.proto)?.toLowerCase();
  const host = firstValue(headers, names.host);
  if (!host || (proto !== 'https' && proto !== 'http')) {
    return refusal('missing_header', `the trusted proxy headers ${names.proto} and ${names.host} are missing or not http(s)`);
  }
  if (!HOST.test(host)) return refusal('missing_header', `the trusted proxy header ${names.host} is not a host name (host or host:port)`);
  // The path comes from the request line; a framework never hands over spaces or control
  // characters, but if one did they are escaped: the address then simply fails to match.
  const path = requestPath.replace(UNSAFE_IN_PATH, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const url = `${proto}://${host}${path.startsWith('/') ? path : `/${path}`}`;
  if (urlProblem(url) !== undefined) {
    return refusal('missing_header', `the address rebuilt from ${names.proto}, ${names.host} and the request path is not a usable URL`);
  }
  return url;
}

/**
 * The address to check the signature against: `url` when configured (the checked options hold
 * exactly one of the two), otherwise the one rebuilt from the trusted proxy headers, or a refusal.
 */
export function signedUrl(
  where: { url: string | undefined; trustProxyHeaders: ProxyHeaders | undefined },
  headers: HeadersLike,
  requestPath: string,
): string | WebhookRefusal {
  return where.trustProxyHeaders ? proxiedUrl(where.trustProxyHeaders, headers, requestPath) : where.url!;
}
