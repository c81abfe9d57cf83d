// What a caller signed instead, when a signature does not match the request it sent: the
// service's view of the catalogue of signing mistakes (catalogue.ts), for every tool that explains
// a refusal as the service would (the sandbox's hint, the conformance runner's diagnosis). The
// holder of the secret and the exact request tries the strings a caller most likely signed instead
// (the URL without its trailing slash, the method in lower case, the body before it was
// re-serialised, the secret decoded as hex...) and names the first that matches. Anyone may send a
// request, so the work is bounded (diagnosis-bounds.ts): nothing is tried for a body past
// DIAGNOSIS_BODY_LIMIT, at most DIAGNOSIS_HMAC_LIMIT HMACs, and at most OTHER_MERCHANTS_TRIED other
// merchants. Nothing here throws, and no result holds the secret or the expected signature: only
// which variant matched, in words.
import type { Part } from './bytes.js';
import { reserialised } from './body-forms.js';
import { firstMatch, type SignedInstead, type Variant } from './catalogue.js';
import { DIAGNOSIS_BODY_LIMIT, OTHER_MERCHANTS_TRIED } from './diagnosis-bounds.js';
import { concatenated, simplifiedConcatenated } from './string-to-sign.js';
import { loopbackAliases, splitAuthority, toggleSlash, urlParts } from './url-parts.js';

/** Another merchant whose credentials a caller may have used instead. */
export interface OtherMerchant {
  id: string;
  secret: string;
}

/** A request refused for its x-signature, as its receiver holds it. */
export interface RefusedRequest {
  merchantId: string;
  secret: string;
  /** x-timestamp as sent */
  timestamp: string;
  method: string;
  /** the exact URL called */
  url: string;
  /** the exact body received */
  body: Uint8Array;
  /** x-signature as sent */
  signature: string;
  /** merchants whose credentials may have been used instead (the first 20 are tried) */
  others?: Iterable<OtherMerchant>;
}

/** A card push refused for its x-simplified-signature (`signature`), with the payin of its address. */
export interface RefusedCardPush extends RefusedRequest {
  /** the payin of the push address: the one that is signed */
  payinId: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether a body is within the bounds of a diagnosis (a Uint8Array of at most DIAGNOSIS_BODY_LIMIT bytes). */
const withinBounds = (body: unknown): body is Uint8Array => body instanceof Uint8Array && body.byteLength <= DIAGNOSIS_BODY_LIMIT;

/**
 * The mistake that explains an x-signature that does not match the request sent, or undefined
 * when none of the catalogue's does. Never throws.
 *
 * @example
 * ```ts
 * const found = signedInstead({ merchantId, secret, timestamp, method: 'POST', url, body, signature });
 * if (found) console.log(`the signature matches ${found.what}`); // found.mistake: 'method_lowercase', say
 * ```
 */
export function signedInstead(r: RefusedRequest): SignedInstead | undefined {
  try {
    return withinBounds(r.body) ? firstMatch(requestVariants(r), r.signature) : undefined;
  } catch {
    return undefined; // a diagnosis is a courtesy: nothing about it may become a crash
  }
}

/** The mistake that explains an x-simplified-signature that does not match, or undefined. Never throws. */
export function simplifiedSignedInstead(r: RefusedCardPush): SignedInstead | undefined {
  try {
    return withinBounds(r.body) ? firstMatch(simplifiedVariants(r), r.signature) : undefined;
  } catch {
    return undefined;
  }
}

function* requestVariants(r: RefusedRequest): Generator<Variant> {
  const { method, url, body, merchantId: id, secret: S, timestamp: ts } = r;
  const signedBody = method === 'GET' ? new Uint8Array(0) : body;
  const sign = (u: string, b: Uint8Array = signedBody, m = method, who = id): Part[] => concatenated(who, ts, m, u, b);
  const parts = urlParts(url);
  if (parts !== undefined) {
    const { scheme, authority, path, query } = parts;
    const toggled = toggleSlash(path);
    yield path.endsWith('/')
      ? [
          S,
          sign(`${scheme}://${authority}${toggled}${query}`),
          'slash_added_on_wire',
          `the URL without its trailing slash (${toggled}): sign exactly the URL you call, ${path}`,
        ]
      : [
          S,
          sign(`${scheme}://${authority}${toggled}${query}`),
          'slash_dropped_on_wire',
          `the URL with a trailing slash (${toggled}): sign exactly the URL you call, ${path}`,
        ];
    if (query) {
      yield [
        S,
        sign(`${scheme}://${authority}${path}`),
        'query_unsigned',
        'the URL without its query string: sign the whole URL you call, its query string included',
      ];
      for (const [variant, how] of queryVariants(query.slice(1)))
        yield [
          S,
          sign(`${scheme}://${authority}${path}?${variant}`),
          'query_not_encoded_as_signed',
          `the query ${how}: sign the query exactly as it is sent`,
        ];
    }
    yield [
      S,
      sign(`${path}${query}`),
      'url_path_only',
      `the path alone (${path}), without scheme and host: sign the full URL, ${scheme}://${authority}${path}`,
    ];
    const other = scheme.toLowerCase() === 'https' ? 'http' : 'https';
    yield [
      S,
      sign(`${other}://${authority}${path}${query}`),
      'scheme_other',
      `the ${other}:// form of the URL: sign the URL exactly as called, ${scheme}://`,
    ];
    const [host, port] = splitAuthority(authority);
    for (const alias of loopbackAliases(host))
      yield [
        S,
        sign(`${scheme}://${alias}${port}${path}${query}`),
        'host_other',
        `the URL with host ${alias}${port}: the request was sent to ${authority}; sign the host you call`,
      ];
    if (port)
      yield [
        S,
        sign(`${scheme}://${host}${path}${query}`),
        'port_dropped',
        `the URL without its port (${host}): sign the full host, ${authority}`,
      ];
  }
  yield [
    S,
    sign(url, signedBody, method.toLowerCase()),
    'method_lowercase',
    `the method in lower case (${method.toLowerCase()}): sign it in capitals, ${method}`,
  ];
  if (method === 'GET') {
    if (body.byteLength > 0)
      yield [S, sign(url, body), 'get_body_signed', 'the URL and the body sent with this GET: the body part is empty for GET requests'];
    yield [S, sign(url, utf8('{}')), 'get_body_signed', 'a body of {}: the body part is empty for GET requests'];
  } else {
    if (body.byteLength > 0) yield [S, sign(url, new Uint8Array(0)), 'body_unsigned', 'no body: sign the exact body bytes you send'];
    for (const [text, what] of reserialised(body))
      yield [
        S,
        sign(url, utf8(text)),
        'body_reserialised',
        `${what}, not the bytes sent: sign the exact bytes you send (serialise once, sign and send that string)`,
      ];
  }
  if (/^[0-9]{1,15}$/.test(ts)) {
    for (const drift of [-1, 1])
      yield [
        S,
        concatenated(id, String(Number(ts) + drift), method, url, signedBody),
        'timestamp_off_by_one',
        `a timestamp one second ${drift < 0 ? 'before' : 'after'} x-timestamp: read the time once, and sign and send that same value`,
      ];
  }
  yield* secretEncodings(S, sign(url));
  for (const other of otherMerchants(r)) {
    yield [
      other.secret,
      sign(url),
      'merchant_other_secret',
      `the secret of merchant ${other.id}, while x-merchant-id names ${id}: sign with the secret of the merchant you name`,
    ];
    yield [
      S,
      sign(url, signedBody, method, other.id),
      'merchant_other_id',
      `a string to sign that begins with merchant ${other.id}'s id, while x-merchant-id names ${id}: the string starts with the id you send in x-merchant-id`,
    ];
    yield [
      other.secret,
      sign(url, signedBody, method, other.id),
      'merchant_other',
      `merchant ${other.id}'s id and secret, while x-merchant-id names ${id}: send x-merchant-id ${other.id}`,
    ];
  }
}

/**
 * The secret read as something it is not: decoded as hex, or hex-encoded, or read with the quotes
 * or white space around it in a file. Decoded as hex, only the empty key is tried: Node's
 * Buffer.from(secret, 'hex') stops at the first pair that is not hex, so "sk_test_…" gives an empty
 * key; a secret that begins with hex pairs would give a short key made of its first characters,
 * and trying those would answer anyone who signs with a guessed key whether the secret begins so,
 * one byte at a time. Every other key here is made from the whole secret.
 */
function* secretEncodings(secret: string, message: Part[]): Generator<Variant> {
  yield [
    `${secret}\n`,
    message,
    'secret_newline',
    'the secret followed by a newline: trim the secret where it is read (a file or an environment variable)',
  ];
  if (!/^[0-9a-fA-F]{2}/.test(secret))
    yield [
      '',
      message,
      'secret_hex_decoded',
      "the secret decoded as hex (an empty key: it is not hex): the key is the secret's characters as given, UTF-8",
    ];
  yield [hex(utf8(secret)), message, 'secret_hex_encoded', "the secret hex-encoded: the key is the secret's characters as given, UTF-8"];
  for (const [key, how] of [
    [`${secret}\r\n`, 'followed by CR LF'],
    [` ${secret}`, 'after a space'],
    [`${secret} `, 'followed by a space'],
    [`"${secret}"`, 'in double quotes'],
    [`'${secret}'`, 'in single quotes'],
  ] as const)
    yield [
      key,
      message,
      'secret_read_with_extra',
      `the secret ${how}, as a file or an .env line holds it: read the secret alone, trimmed and unquoted`,
    ];
}

function* simplifiedVariants(r: RefusedCardPush): Generator<Variant> {
  const { merchantId: id, secret, timestamp: ts, payinId, method } = r;
  yield [
    secret,
    [simplifiedConcatenated(id, ts, `${method}${payinId}`)],
    'simplified_with_method',
    `merchant id + timestamp + ${method} + payin id: the method is not part of x-simplified-signature (merchant id + timestamp + payin id)`,
  ];
  yield [
    secret,
    [simplifiedConcatenated(id, ts, `${method.toLowerCase()}${payinId}`)],
    'simplified_with_method',
    `merchant id + timestamp + ${method.toLowerCase()} + payin id: the method is not part of x-simplified-signature`,
  ];
  yield [
    secret,
    concatenated(id, ts, method, r.url, r.body),
    'simplified_as_x_signature',
    "x-signature's string (method, URL and body): the card push signs merchant id + timestamp + payin id only",
  ];
  const bodyPayin = payinIdOf(r.body);
  if (bodyPayin !== undefined && bodyPayin !== payinId)
    yield [
      secret,
      [simplifiedConcatenated(id, ts, bodyPayin)],
      'simplified_other_payin',
      `payin id ${bodyPayin}, which is not the payin of this push address: push each card to its own payin's next_action.url`,
    ];
  yield* secretEncodings(secret, [simplifiedConcatenated(id, ts, payinId)]);
  for (const other of otherMerchants(r)) {
    yield [
      other.secret,
      [simplifiedConcatenated(id, ts, payinId)],
      'merchant_other_secret',
      `the secret of merchant ${other.id}: sign with the secret of merchant ${id}, whose payin this is`,
    ];
  }
}

/** The merchants other than the one named whose credentials a caller may have used, the first OTHER_MERCHANTS_TRIED. */
function* otherMerchants(r: RefusedRequest): Generator<OtherMerchant> {
  let tried = 0;
  for (const other of r.others ?? []) {
    if (other.id === r.merchantId) continue;
    if (tried++ >= OTHER_MERCHANTS_TRIED) return;
    yield other;
  }
}

/** The ways a query may have been written other than as it was sent: decoded, or encoded otherwise. */
function queryVariants(query: string): [string, string][] {
  const eq = query.indexOf('=');
  if (eq < 0) return [];
  const key = query.slice(0, eq + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(query.slice(eq + 1));
  } catch {
    return [];
  }
  const component = encodeURIComponent(decoded);
  const forms: [string, string][] = [
    [key + decoded, 'not percent-encoded'],
    [key + component, 'percent-encoded as encodeURIComponent writes it'],
    [
      key + component.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
      "percent-encoded with !'()* encoded too",
    ],
    [key + component.replace(/%20/g, '+'), 'form-encoded (a space as "+")'],
    [key + encodeURI(decoded), 'encoded as encodeURI writes it (reserved characters left as they are)'],
    [key + component.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), 'percent-encoded in lower-case hex'],
  ];
  const seen = new Set([query]);
  return forms.filter(([form]) => !seen.has(form) && seen.add(form) !== undefined);
}

function payinIdOf(body: Uint8Array): string | undefined {
  try {
    const value = JSON.parse(decoder.decode(body)) as { payin_id?: unknown };
    return typeof value?.payin_id === 'string' ? value.payin_id.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
