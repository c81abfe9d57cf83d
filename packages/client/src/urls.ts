// Request URLs, built once from @pay/schema's table of endpoints, in exactly the form fetch sends
// them: the string signed is the string called. The table holds the interface's trailing slashes
// (creates end in `/`, lookups by id do not, lookups by reference are `.../?reference_id=`).
import { ENDPOINTS, endpointUrl, type Endpoint, type EndpointParams } from '@pay/schema';

/** The resources with endpoints under `/v2/merchants/`. */
export type Resource = 'payins' | 'payouts';

const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

// Lone UTF-16 surrogates cannot be encoded as UTF-8 (encodeURIComponent throws on them).
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Percent-encodes a path segment or query value so that the WHATWG URL parser (what fetch runs)
 * leaves it as it is. encodeURIComponent alone is not enough: it keeps `'`, which the parser
 * encodes in a query, so the URL called would differ from the URL signed. Only unreserved
 * characters (RFC 3986) stay as they are.
 */
function encodeComponent(value: string): string {
  if (UNRESERVED.test(value)) return value; // the common case: ids and references need nothing
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Why a value cannot go into a URL (a path segment when `inPath`, else a query value), or
 * undefined when it can.
 */
export function componentProblem(value: unknown, inPath: boolean): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length === 0) return 'must not be empty';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (it contains a lone surrogate)';
  // A path segment "." or ".." is resolved away by the URL parser: the call would go elsewhere.
  if (inPath && (value === '.' || value === '..')) return 'must not be "." or ".."';
  return undefined;
}

/** An endpoint's URL under `base`, its parameters percent-encoded as fetch leaves them. */
export function urlOf(base: string, endpoint: Endpoint, params: EndpointParams = {}): string {
  return endpointUrl(base, endpoint, params, encodeComponent);
}

/** The lookup by reference_id of a resource's records. */
export function byReference(resource: Resource): Endpoint {
  return resource === 'payins' ? ENDPOINTS.getPayinByReference : ENDPOINTS.getPayoutByReference;
}

// Where a card-push address (`<card_proxy_url>/v1/push/<one-time token>/`) has its token.
const PUSH_TOKEN = /\/v1\/push\/[^/?#]+/;

/**
 * A card-push address with its one-time token masked, for hooks, telemetry and messages. An
 * address of another shape (a `next_action.url` the interface does not describe) shows only its
 * origin: where its token is cannot be told.
 */
export function maskPushUrl(url: string): string {
  if (PUSH_TOKEN.test(url)) return url.replace(PUSH_TOKEN, '/v1/push/***');
  try {
    return `${new URL(url).origin}/***`;
  } catch {
    return '***';
  }
}

/** The path template of a card-push address (`/card-proxy/v1/push/{token}/`); undefined for another shape. */
export function pushTemplate(url: string): string | undefined {
  const path = new URL(url).pathname;
  return PUSH_TOKEN.test(path) ? path.replace(PUSH_TOKEN, '/v1/push/{token}') : undefined;
}
