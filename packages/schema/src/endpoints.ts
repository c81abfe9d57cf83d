/**
 * The interface's eight endpoints as one table: method, path template with its exact trailing
 * slash, request and response schema, and which signature each takes. Everything that names an
 * endpoint is derived from it: the OpenAPI document, the client's URLs, the sandbox's routing.
 *
 * Templates are written as the URL is called: `{id}` and `{token}` are path segments,
 * `?reference_id={reference_id}` the lookup's whole query. The interface's trailing slashes are
 * part of them: creates and the card push end in `/`, lookups by id do not, lookups by reference
 * are `.../?reference_id=`.
 *
 * @module
 */
import type { SchemaName } from './bodies.js';

/** An endpoint of the interface. */
export interface Endpoint {
  /** The operation's name, as the OpenAPI document's `operationId`. */
  readonly operation: string;
  readonly method: 'GET' | 'POST';
  /** Which address the path is under: the service's base address or the card-data endpoint. */
  readonly base: 'base_url' | 'card_proxy_url';
  /** The path template, query included, exactly as called (see the module's comment). */
  readonly path: string;
  /** The resource it acts on. */
  readonly resource: 'payins' | 'payouts' | 'cards';
  /** The request body's schema; none for a GET. */
  readonly request: SchemaName | undefined;
  /** The answer's schema; none where the interface does not show it (the card push). */
  readonly response: SchemaName | undefined;
  /** The header that signs it. */
  readonly signature: 'x-signature' | 'x-simplified-signature';
  /** One line for documents. */
  readonly summary: string;
  /** The legacy endpoint. */
  readonly deprecated?: true;
}

const endpoint = (e: Endpoint) => Object.freeze(e);

/** The eight endpoints, by operation. */
export const ENDPOINTS = Object.freeze({
  createPayin: endpoint({
    operation: 'createPayin',
    method: 'POST',
    base: 'base_url',
    path: '/v2/merchants/payins/',
    resource: 'payins',
    request: 'CreatePayinRequest',
    response: 'PayinCreateResponse',
    signature: 'x-signature',
    summary: 'Create a payin (v2)',
  }),
  getPayin: endpoint({
    operation: 'getPayin',
    method: 'GET',
    base: 'base_url',
    path: '/v2/merchants/payins/{id}',
    resource: 'payins',
    request: undefined,
    response: 'PayinLookupResponse',
    signature: 'x-signature',
    summary: 'Look up a payin by id',
  }),
  getPayinByReference: endpoint({
    operation: 'getPayinByReference',
    method: 'GET',
    base: 'base_url',
    path: '/v2/merchants/payins/?reference_id={reference_id}',
    resource: 'payins',
    request: undefined,
    response: 'PayinLookupResponse',
    signature: 'x-signature',
    summary: 'Look up a payin by reference id',
  }),
  createPayout: endpoint({
    operation: 'createPayout',
    method: 'POST',
    base: 'base_url',
    path: '/v2/merchants/payouts/',
    resource: 'payouts',
    request: 'CreatePayoutRequest',
    response: 'PayoutCreateResponse',
    signature: 'x-signature',
    summary: 'Create a payout (v2)',
  }),
  getPayout: endpoint({
    operation: 'getPayout',
    method: 'GET',
    base: 'base_url',
    path: '/v2/merchants/payouts/{id}',
    resource: 'payouts',
    request: undefined,
    response: 'PayoutLookupResponse',
    signature: 'x-signature',
    summary: 'Look up a payout by id',
  }),
  getPayoutByReference: endpoint({
    operation: 'getPayoutByReference',
    method: 'GET',
    base: 'base_url',
    path: '/v2/merchants/payouts/?reference_id={reference_id}',
    resource: 'payouts',
    request: undefined,
    response: 'PayoutLookupResponse',
    signature: 'x-signature',
    summary: 'Look up a payout by reference id',
  }),
  createPayinLegacy: endpoint({
    operation: 'createPayinLegacy',
    method: 'POST',
    base: 'base_url',
    path: '/v1/merchants/payins/',
    resource: 'payins',
    request: 'CreatePayinRequestV1',
    response: 'PayinCreateResponse',
    signature: 'x-signature',
    summary: 'Create a payin (legacy)',
    deprecated: true,
  }),
  pushCard: endpoint({
    operation: 'pushCard',
    method: 'POST',
    base: 'card_proxy_url',
    path: '/v1/push/{token}/',
    resource: 'cards',
    request: 'CardPushRequest',
    response: undefined,
    signature: 'x-simplified-signature',
    summary: 'Push card data for a payin',
  }),
} satisfies Record<string, Endpoint>);

/** The name of an endpoint of the table. */
export type EndpointName = keyof typeof ENDPOINTS;

/** The parameters an endpoint's template takes (`{id}`, `{reference_id}`, `{token}`). */
export type EndpointParams = Readonly<Record<string, string>>;

const PARAM = /\{([a-z_]+)\}/g;

/**
 * An endpoint's URL under `base` (no trailing slash), its parameters written in with `encode` (the
 * caller's percent-encoding: what is signed must be what is called).
 *
 * @throws TypeError when a parameter of the template is not given.
 * @example
 * ```ts
 * endpointUrl('https://api.pay.example', ENDPOINTS.getPayin, { id: 'pi_1' }, encodeURIComponent);
 * // 'https://api.pay.example/v2/merchants/payins/pi_1'
 * ```
 */
export function endpointUrl(base: string, e: Endpoint, params: EndpointParams, encode: (value: string) => string): string {
  return (
    base +
    e.path.replace(PARAM, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new TypeError(`${e.operation}: the parameter ${name} is required`);
      return encode(value);
    })
  );
}

/** A request matched to an endpoint: the endpoint, and the raw (still encoded) path parameters. */
export interface EndpointMatch {
  endpoint: Endpoint;
  params: Record<string, string>;
}

// Each template's path (query left out) as a pattern: `{name}` is one non-empty segment.
const compiled = Object.values(ENDPOINTS).map((e) => {
  const [path = '', query] = e.path.split('?');
  const names: string[] = [];
  // Templates hold only letters, digits, `/`, `_` and `{name}`: nothing else to escape.
  const source = path.replace(PARAM, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { endpoint: e, path, pattern: new RegExp(`^${source}$`), names, query: query !== undefined };
});

/**
 * The endpoints whose path (query aside) matches `path` (raw, as received, relative to its base
 * address), with their path parameters: several when a path takes more than one method or both a
 * create and a lookup by reference (`/v2/merchants/payins/`). Empty when no endpoint has it.
 */
export function endpointsAt(path: string, base: Endpoint['base'] = 'base_url'): EndpointMatch[] {
  const found: EndpointMatch[] = [];
  for (const c of compiled) {
    if (c.endpoint.base !== base) continue;
    const m = c.pattern.exec(path);
    if (m === null) continue;
    found.push({ endpoint: c.endpoint, params: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!])) });
  }
  return found;
}

/** The path of an endpoint without its query, as OpenAPI writes it (`/v2/merchants/payins/`). */
export function endpointPath(e: Endpoint): string {
  return e.path.split('?')[0]!;
}

/** Whether an endpoint takes its parameter in the query (the lookups by reference). */
export function takesQuery(e: Endpoint): boolean {
  return e.path.includes('?');
}
