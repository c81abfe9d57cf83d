// What every request to the shop goes through before its route: the answer's security headers,
// the check that the request names one of the shop's hosts, and, for form posts, the Origin check
// and the body limit.
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import type { ShopNames } from './hosts.js';
import type { ShopApp } from './route-context.js';

/** Form fields are short: anything past this is refused before it is parsed. */
const MAX_FORM_BYTES = 8 * 1024;

/**
 * Adds the headers and the host check to every route of `app` (call it before adding any route);
 * returns what form posts go through besides.
 */
export function guardRequests(app: ShopApp, names: ShopNames): readonly [MiddlewareHandler, MiddlewareHandler] {
  app.use(async (c, next) => {
    await next();
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'");
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'same-origin');
  });

  // Every route, the webhook endpoint and unknown paths included, answers only under the shop's
  // own names (DNS rebinding: see hosts.ts). 421 Misdirected Request says this server does not
  // serve that name. Both the Host header and the request URL's host are checked: they differ
  // only for a request in absolute form (`GET http://host/ HTTP/1.1`), which then names two hosts.
  // No Host header at all (HTTP/1.0 allows it) cannot name the shop: 400.
  app.use(async (c, next) => {
    const host = c.req.header('host');
    if (host === undefined) return c.text('Bad Request: the request has no Host header', 400);
    if (!names.host(host) || !names.host(new URL(c.req.url).host)) {
      return c.text(`Misdirected Request: the Host header is not one of this shop's names (${names.description})`, 421);
    }
    await next();
  });

  // Form posts only from the shop's own pages: an Origin that is one of the shop's origins, from
  // the fixed list (see hosts.ts), never one worked out from the request, and never waived for a
  // `Sec-Fetch-Site: same-origin` (a rebound page is "same origin" to the browser). Browsers send
  // Origin with every POST. (A real shop also puts the payout form behind a login.)
  const sameOrigin: MiddlewareHandler = async (c, next) => {
    if (!names.origin(c.req.header('origin'))) return c.text("Forbidden: the Origin header is not one of this shop's addresses", 403);
    await next();
  };
  return [sameOrigin, bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('Form too large', 413) })];
}
