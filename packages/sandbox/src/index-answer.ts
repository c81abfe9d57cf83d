// What the sandbox says about its own addresses: the index at `GET /`, and the 404 for a path no
// endpoint has (with a hint when a slash more or less would have matched one).
import { ENDPOINTS } from '@pay/schema';
import { readHeader } from '@pay/sign';
import { CARD_PROXY_PREFIX, routesAt } from './endpoints.js';
import { fail, json, redirect, view, type Incoming, type Reply } from './http.js';
import { maskedCut } from './masking.js';

/** What the index says the sandbox is: how a sandbox whose port is taken recognises another one there. */
export const SANDBOX_SERVICE = 'payments sandbox';

/**
 * `GET /`: a browser is sent to the dashboard; anything else gets an index of the sandbox's
 * addresses as JSON, so the printed base URL never answers a bare 404.
 */
export function index(incoming: Incoming, base: string): Reply {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD')
    return fail(405, 'method_not_allowed', `${incoming.method} is not allowed here; use GET`, {}, { allow: 'GET' });
  if (/\btext\/html\b/i.test(readHeader(incoming.headers, 'accept') ?? '')) return view(redirect(303, `${base}/_sandbox/`));
  return json(200, {
    service: SANDBOX_SERVICE,
    base_url: base,
    card_proxy_url: `${base}${CARD_PROXY_PREFIX}`,
    dashboard: `${base}/_sandbox/`,
    requests: `${base}/_sandbox/requests`,
    endpoints: ENDPOINT_LIST,
  });
}

/** A 404 for a path no endpoint has, with a hint when a slash more or less would have matched one. */
export function notFound(method: string, path: string): Reply {
  let hint: string | undefined;
  if (routesAt(`${path}/`).length > 0) hint = `the endpoint ends with a slash: ${path}/`;
  else if (path.endsWith('/') && routesAt(path.slice(0, -1)).length > 0) hint = `this endpoint has no trailing slash: ${path.slice(0, -1)}`;
  else if (/^\/(?:v[0-9]+\/)?merchants\//.test(path)) hint = `the endpoints are ${ENDPOINT_LIST.join(', ')}`;
  return fail(
    404,
    'not_found',
    `no endpoint ${method} ${maskedCut(path, 200)}${hint === undefined ? '' : `; ${hint}`}`,
    hint === undefined ? {} : { hint },
  );
}

// The table's endpoints as a person reads them: `GET /v2/merchants/payins/<id>`.
const ENDPOINT_LIST = Object.values(ENDPOINTS).map(
  (e) => `${e.method} ${e.base === 'card_proxy_url' ? CARD_PROXY_PREFIX : ''}${e.path.replace(/\{([a-z_]+)\}/g, '<$1>')}`,
);
