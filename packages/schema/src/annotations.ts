/**
 * Shared building blocks of the schemas: the message annotation, bounded strings, URL patterns.
 *
 * @module
 */
import Type, { type TString, type TStringOptions } from 'typebox';
import { LOOPBACK_HOST_PATTERN } from './loopback.js';

/**
 * Schema annotation holding the message shown when the node's `pattern`, `enum`, `const` or
 * `anyOf` fails. A regular expression is not something a person can act on, so every pattern of
 * this package carries a sentence instead. OpenAPI 3.1 allows `x-` keywords in schemas; other JSON
 * Schema validators treat it as an unknown annotation (Ajv in strict mode needs
 * `ajv.addKeyword('x-error-message')`).
 */
export const ERROR_MESSAGE = 'x-error-message';

/**
 * A string of `min..max` characters, both bounds inclusive, as written in the interface's field
 * tables ("Lengths in brackets are inclusive bounds on string length"). Length counts Unicode code
 * points, as JSON Schema does, so an accented name is not penalised by its UTF-16 encoding.
 */
export function boundedString(min: number, max: number, options: TStringOptions = {}): TString {
  return Type.String({ minLength: min, maxLength: max, ...options });
}

// RFC 3986 pieces, written so that no part can backtrack more than linearly on a long input.
const USERINFO = "(?:[A-Za-z0-9._~!$&'()*+,;=:%-]*@)?";
const HOST = "(?:\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)";
const PORT = '(?::[0-9]{1,5})?';
// Path, query and fragment: anything but white space and control characters.
const REST = '(?:[/?#][^\\s\\u0000-\\u001f\\u007f]*)?';
// Scheme names are case-insensitive (RFC 3986 section 3.1).
const HTTP = '[hH][tT][tT][pP]';
const HTTPS = '[hH][tT][tT][pP][sS]';
// Loopback hosts: `localhost` and its subdomains (RFC 6761), 127.0.0.0/8 and [::1] (loopback.ts).
const LOOPBACK = LOOPBACK_HOST_PATTERN;

/** Pattern of an absolute http or https URL with a host. */
export const HTTP_URL_PATTERN = `^${HTTP}[sS]?://${USERINFO}${HOST}${PORT}${REST}$`;

/**
 * Pattern of a webhook address: https, or plain http to a loopback host. The interface says of
 * webhooks "Only HTTPS is used"; loopback is allowed so a merchant can point the local sandbox at
 * a receiver on their own machine.
 */
export const WEBHOOK_URL_PATTERN = `^(?:${HTTPS}://${USERINFO}${HOST}|${HTTP}://${LOOPBACK})${PORT}${REST}$`;

/**
 * The longest URL a body may carry (`webhook_url`, `redirect_urls.*`), in characters. The interface
 * sets no maximum; this is the length browsers, proxies and servers have long agreed to carry
 * (2,048), so a merchant's real URLs always fit and nothing that keeps one can be made to hold an
 * unbounded string.
 */
export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL (the interface's "string (url)" fields), at most MAX_URL_LENGTH characters. */
export function httpUrl(description: string): TString {
  return Type.String({
    maxLength: MAX_URL_LENGTH,
    pattern: HTTP_URL_PATTERN,
    description,
    [ERROR_MESSAGE]: 'must be an absolute http or https URL (for example https://shop.example/return)',
  });
}

/** A webhook address: https, or http to a loopback host; at most MAX_URL_LENGTH characters. */
export function webhookUrl(description: string): TString {
  return Type.String({
    maxLength: MAX_URL_LENGTH,
    pattern: WEBHOOK_URL_PATTERN,
    description,
    [ERROR_MESSAGE]: 'must be an absolute https URL (plain http is accepted only for localhost and 127.0.0.1)',
  });
}
