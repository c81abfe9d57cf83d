// What a caller signed instead, when a signature does not match the request it sent: the catalogue
// of signing mistakes, one for every tool that explains a refusal (the sandbox's hint, the
// conformance runner's diagnosis). The holder of the secret and the exact request tries the
// strings a caller most likely signed instead (the URL without its trailing slash, the method in
// lower case, the body before it was re-serialised, the secret decoded as hex...) and names the
// first that matches. Anyone may send a request, so the work is bounded: a fixed list of variants
// (a few dozen HMACs at most), bodies re-serialised only up to SIGNED_INSTEAD_BODY_LIMIT bytes and
// 16 levels of nesting, and at most 20 other merchants tried. Nothing here throws, and no result
// holds the secret or the expected signature: only which variant matched, in words.
import { hmacHex } from '#hmac';
import { constantTimeEqual, type Part } from './bytes.js';

/** The mistakes the catalogue names. */
export type SigningMistake =
  | 'slash_dropped_on_wire'
  | 'slash_added_on_wire'
  | 'query_unsigned'
  | 'query_not_encoded_as_signed'
  | 'url_path_only'
  | 'scheme_other'
  | 'host_other'
  | 'port_dropped'
  | 'method_lowercase'
  | 'get_body_signed'
  | 'body_unsigned'
  | 'body_reserialised'
  | 'timestamp_off_by_one'
  | 'secret_newline'
  | 'secret_hex_decoded'
  | 'secret_hex_encoded'
  | 'secret_read_with_extra'
  | 'merchant_other_secret'
  | 'merchant_other_id'
  | 'merchant_other'
  | 'simplified_with_method'
  | 'simplified_as_x_signature'
  | 'simplified_other_payin';

/** A mistake that explains a signature: its name, and what was signed instead with the fix, in words. */
export interface SignedInstead {
  mistake: SigningMistake;
  /** "the URL without its trailing slash (…): sign exactly the URL you call, …" */
  what: string;
}

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

/** Bodies larger than this (bytes) are not re-serialised in variants: requests are a few kilobytes. */
export const SIGNED_INSTEAD_BODY_LIMIT = 16 * 1024;
const RESERIALISE_DEPTH = 16;
const OTHER_MERCHANTS_TRIED = 20;

type Variant = [secret: string, message: Part[], mistake: SigningMistake, what: string];

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether a signature is the HMAC of a message under a secret (the empty secret included). */
function signs(secret: string, message: Part[], signature: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(signature) && constantTimeEqual(hmacHex(secret, message), signature.toLowerCase());
}

function firstMatch(variants: Iterable<Variant>, signature: string): SignedInstead | undefined {
  for (const [secret, message, mistake, what] of variants) if (signs(secret, message, signature)) return { mistake, what };
  return undefined;
}

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
    return firstMatch(requestVariants(r), r.signature);
  } catch {
    return undefined; // a diagnosis is a courtesy: nothing about it may become a crash
  }
}

/** The mistake that explains an x-simplified-signature that does not match, or undefined. Never throws. */
export function simplifiedSignedInstead(r: RefusedCardPush): SignedInstead | undefined {
  try {
    return firstMatch(simplifiedVariants(r), r.signature);
  } catch {
    return undefined;
  }
}

function* requestVariants(r: RefusedRequest): Generator<Variant> {
  const { method, url, body, merchantId: id, secret: S, timestamp: ts } = r;
  const signedBody = method === 'GET' ? new Uint8Array(0) : body;
  const sign = (u: string, b: Uint8Array = signedBody, m = method, who = id): Part[] => [`${who}${ts}${m}${u}`, b];
  const parts = /^(https?):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url);
  if (parts !== null) {
    const [, scheme, authority, path = '', query = ''] = parts;
    const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
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
    const other = scheme!.toLowerCase() === 'https' ? 'http' : 'https';
    yield [
      S,
      sign(`${other}://${authority}${path}${query}`),
      'scheme_other',
      `the ${other}:// form of the URL: sign the URL exactly as called, ${scheme}://`,
    ];
    const [host, port] = splitAuthority(authority!);
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
        [`${id}${Number(ts) + drift}${method}${url}`, signedBody],
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
    [`${id}${ts}${method}${payinId}`],
    'simplified_with_method',
    `merchant id + timestamp + ${method} + payin id: the method is not part of x-simplified-signature (merchant id + timestamp + payin id)`,
  ];
  yield [
    secret,
    [`${id}${ts}${method.toLowerCase()}${payinId}`],
    'simplified_with_method',
    `merchant id + timestamp + ${method.toLowerCase()} + payin id: the method is not part of x-simplified-signature`,
  ];
  yield [
    secret,
    [`${id}${ts}${method}${r.url}`, r.body],
    'simplified_as_x_signature',
    "x-signature's string (method, URL and body): the card push signs merchant id + timestamp + payin id only",
  ];
  const bodyPayin = payinIdOf(r.body);
  if (bodyPayin !== undefined && bodyPayin !== payinId)
    yield [
      secret,
      [`${id}${ts}${bodyPayin}`],
      'simplified_other_payin',
      `payin id ${bodyPayin}, which is not the payin of this push address: push each card to its own payin's next_action.url`,
    ];
  yield* secretEncodings(secret, [`${id}${ts}${payinId}`]);
  for (const other of otherMerchants(r)) {
    yield [
      other.secret,
      [`${id}${ts}${payinId}`],
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

/** `host` and `:port` of an authority (`[::1]:4010` gives `[::1]` and `:4010`). */
function splitAuthority(authority: string): [string, string] {
  const m = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(authority);
  return m === null ? [authority, ''] : [m[1]!, m[2] ?? ''];
}

/** The other names of this machine a caller may have signed instead of the one it called. */
function loopbackAliases(host: string): string[] {
  const names = ['localhost', '127.0.0.1', '[::1]'];
  return names.includes(host.toLowerCase()) ? names.filter((n) => n !== host.toLowerCase()) : [];
}

function payinIdOf(body: Uint8Array): string | undefined {
  try {
    const value = JSON.parse(decoder.decode(body)) as { payin_id?: unknown };
    return typeof value?.payin_id === 'string' ? value.payin_id.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether JSON text nests deeper than `limit` (brackets outside strings), without parsing it. */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > limit) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}

/**
 * The body as the serialisers merchants use would have written it, when that differs from the
 * bytes received: minified (JSON.stringify, most frameworks), pretty-printed, and Python's
 * json.dumps defaults (`", "` and `": "`, non-ASCII escaped).
 */
function reserialised(body: Uint8Array): [string, string][] {
  if (body.byteLength > SIGNED_INSTEAD_BODY_LIMIT) return [];
  let text: string;
  let value: unknown;
  try {
    text = decoder.decode(body);
    if (nestsDeeper(text, RESERIALISE_DEPTH)) return [];
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const minified = JSON.stringify(value);
  const spaced = pythonStyle(value);
  const forms: [string, string][] = [
    [minified, 'the body minified (as JSON.stringify writes it)'],
    [JSON.stringify(value, null, 2), 'the body pretty-printed with 2 spaces'],
    [JSON.stringify(value, null, 4), 'the body pretty-printed with 4 spaces'],
    [spaced, 'the body as Python\'s json.dumps defaults write it (", " and ": ")'],
    [asciiOnly(spaced), "the body as Python's json.dumps defaults write it (non-ASCII escaped as \\u)"],
    [asciiOnly(minified), 'the body minified with non-ASCII characters escaped as \\u'],
  ];
  const seen = new Set([text]);
  return forms.filter(([form]) => !seen.has(form) && seen.add(form) !== undefined);
}

/** JSON with Python's default separators: `", "` between items, `": "` after keys. */
function pythonStyle(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonStyle).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonStyle(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function asciiOnly(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
