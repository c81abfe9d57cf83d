// Which endpoint of the interface a request on the wire is for, read from its method and request
// target as received, leniently enough to name an SDK's mistake (a create without its trailing
// slash is still a create), and the exact URLs each operation must call.

/** A resource of the interface. */
export type Resource = 'payins' | 'payouts';

/** What a request on the wire is, as far as its method and target tell. */
export type Route =
  | { kind: 'create'; resource: Resource; version: 'v1' | 'v2'; slash: boolean }
  | { kind: 'lookup-id'; resource: Resource; rawId: string; slash: boolean }
  | { kind: 'lookup-ref'; resource: Resource; rawQuery: string; slash: boolean }
  | { kind: 'push'; token: string }
  | { kind: 'trap' }
  | { kind: 'other' };

const SERVICE = /^\/(v1|v2)\/merchants\/(payins|payouts)(\/?)([^/?#]*)(\/?)(?:\?([^#]*))?$/;
const PUSH = /^\/card-proxy\/v1\/push\/([^/?#]+)\/?$/;

/** The prefix under which the proxy answers redirects it sent: a request there followed one. */
export const TRAP_PREFIX = '/followed-redirect';

/** The route of a request, from its method and its request target exactly as received. */
export function routeOf(method: string, target: string): Route {
  if (target.startsWith(`${TRAP_PREFIX}/`)) return { kind: 'trap' };
  const push = PUSH.exec(target);
  if (push && method === 'POST') return { kind: 'push', token: push[1]! };
  const m = SERVICE.exec(target);
  if (!m) return { kind: 'other' };
  const [, version, resource, slash, id, idSlash, query] = m as unknown as [string, 'v1' | 'v2', Resource, string, string, string, string?];
  if (method === 'POST' && id === '' && query === undefined) return { kind: 'create', resource, version, slash: slash === '/' };
  if (method !== 'GET' || (version === 'v1' && resource === 'payins' && id === '')) return { kind: 'other' };
  if (id !== '' && query === undefined) return { kind: 'lookup-id', resource, rawId: id, slash: idSlash === '/' };
  if (id === '' && query !== undefined) return { kind: 'lookup-ref', resource, rawQuery: query, slash: slash === '/' };
  return { kind: 'other' };
}

/** The exact request targets of the interface (creates end in "/", lookups by id do not). */
export const targets = {
  create: (resource: Resource, version: 'v1' | 'v2' = 'v2') => `/${version}/merchants/${resource}/`,
  lookupId: (resource: Resource, id: string) => `/v2/merchants/${resource}/${encodeURIComponent(id)}`,
};

/** Characters a query value may carry as they are (RFC 3986 unreserved, and sub-delimiters that are not "&", "=" or "+"). */
const QUERY_SAFE = /^(?:[A-Za-z0-9\-._~!$'()*,;:@/?]|%[0-9A-Fa-f]{2})*$/;

/** What is wrong with a lookup's query: a mistake name and what it is. */
export interface QueryProblem {
  mistake: 'query_misencoded' | 'query_form_encoded';
  text: string;
}

/** A percent-encoded value decoded, or null when it is not valid percent-encoded UTF-8. */
function decoded(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * What is wrong with a lookup's query for `reference`, or null: it must be `reference_id=` and the
 * reference percent-encoded, every character that a query would misread ("&", "=", "+", "#", a
 * space, non-ASCII) escaped, and decode to exactly the reference. A query written as a form (a
 * space as "+") is named as such: a service may well decode it as one, and one that decodes it as
 * a URL reads another reference.
 */
export function queryProblem(rawQuery: string, reference: string): QueryProblem | null {
  const misencoded = (text: string): QueryProblem => ({ mistake: 'query_misencoded', text });
  if (!rawQuery.startsWith('reference_id='))
    return misencoded(`the query is ${JSON.stringify(rawQuery)}, not reference_id=<the reference, percent-encoded>`);
  const value = rawQuery.slice('reference_id='.length);
  if (!QUERY_SAFE.test(value)) {
    const asForm = value.replace(/\+/g, '%20');
    if (value.includes('+') && QUERY_SAFE.test(asForm) && decoded(asForm) === reference) {
      return {
        mistake: 'query_form_encoded',
        text: `the reference_id is form-encoded in the query (${JSON.stringify(value)} writes a space as "+", as HTML forms, URLSearchParams and Python's urlencode or quote_plus do): a URL's query is percent-encoded, a space as "%20"; a service that decodes the query as a URL reads "+" as a plus sign, and another reference`,
      };
    }
    return misencoded(
      `the reference_id is not percent-encoded in the query: ${JSON.stringify(value)} carries characters a query misreads (a space, "&", "=", "+", "#", non-ASCII)`,
    );
  }
  const got = decoded(value);
  if (got === null) return misencoded(`the query's reference_id ${JSON.stringify(value)} is not valid percent-encoded UTF-8`);
  return got === reference ? null : misencoded(`the query names the reference_id ${JSON.stringify(got)}, not ${JSON.stringify(reference)}`);
}
