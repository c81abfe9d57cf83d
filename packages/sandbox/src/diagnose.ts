// Naming the mistake behind a refused signature. The sandbox has the request in hand, so when a
// signature does not match it tries the strings the caller most likely signed instead (the URL
// without its trailing slash, the method in lower case, the body before it was re-serialised,
// another merchant's secret...) and says which one matched, in words, in `error.hint`.
//
// Anyone can send a request naming a merchant, so the work is bounded: only bodies up to
// HINT_BODY_LIMIT are tried, a fixed list of variants (a few dozen HMACs at most), and at most
// HINTS_PER_SECOND worked out per second; beyond that the hint says it was skipped. A hint never
// holds the secret or the expected signature: only which variant matched.
import { jsonNestingOver } from '@pay/schema';
import { readHeader, signatureMatches, type HeadersLike, type VerifyFailureReason } from '@pay/sign';
import { maskedCut } from './masking.js';
import type { Merchant } from './merchants.js';

/** Bodies larger than this (bytes) are not re-signed in variants: requests are a few kilobytes. */
export const HINT_BODY_LIMIT = 16 * 1024;
/** How many signature diagnoses run per second at most (a burst of as many is allowed). */
export const HINTS_PER_SECOND = 5;
/** Other merchants tried as the signer, at most. */
const OTHER_MERCHANTS_TRIED = 20;
/** Bodies are parsed and re-serialised only up to this depth of nesting. */
const RESERIALISE_DEPTH = 16;

/** A refused request, as the diagnosis sees it. */
export interface Refusal {
  reason: VerifyFailureReason;
  /** Which signature the endpoint takes. */
  scheme: 'x-signature' | 'x-simplified-signature';
  merchants: ReadonlyMap<string, Merchant>;
  /** For the card push: the merchant of the token's payin (the one that must sign). */
  pushMerchant?: Merchant;
  /** For the card push: the payin id that is signed. */
  payinId?: string;
  method: string;
  /** The exact URL that is signed. */
  url: string;
  headers: HeadersLike;
  body: Uint8Array;
  /** Arrival, unix seconds. */
  now: number;
}

/** A token bucket: HINTS_PER_SECOND a second, bursts of as many. */
export class HintBudget {
  #tokens = HINTS_PER_SECOND;
  #at = 0;

  /** A full bucket again (a reset of the sandbox: tests start from the same state). */
  refill(): void {
    this.#tokens = HINTS_PER_SECOND;
  }

  take(nowMs: number): boolean {
    this.#tokens = Math.min(HINTS_PER_SECOND, this.#tokens + ((nowMs - this.#at) / 1000) * HINTS_PER_SECOND);
    this.#at = nowMs;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

const SKIPPED = `not worked out: signature diagnoses run at most ${HINTS_PER_SECOND} times a second, so that forged requests cannot multiply the work`;

/** The likely mistake behind a refusal, in words; undefined when none is recognised. Never throws. */
export function diagnose(refusal: Refusal, budget: HintBudget, nowMs: number): string | undefined {
  try {
    switch (refusal.reason) {
      case 'missing_header':
        return missingHeader(refusal);
      case 'malformed_timestamp':
        return malformedTimestamp(readHeader(refusal.headers, 'x-timestamp') ?? '');
      case 'expired':
        return clockOffset(readHeader(refusal.headers, 'x-timestamp') ?? '', refusal.now);
      case 'merchant_mismatch':
        return unknownMerchant(refusal);
      case 'malformed_signature':
        return malformedSignature(readHeader(refusal.headers, refusal.scheme) ?? '');
      case 'bad_signature':
        if (refusal.body.byteLength > HINT_BODY_LIMIT) return undefined;
        if (!budget.take(nowMs)) return SKIPPED;
        return refusal.scheme === 'x-signature' ? signatureVariant(refusal) : simplifiedVariant(refusal);
    }
  } catch {
    return undefined; // a hint is a courtesy: nothing about it may turn a refusal into a crash
  }
  return undefined;
}

function missingHeader(r: Refusal): string | undefined {
  const other = r.scheme === 'x-signature' ? 'x-simplified-signature' : 'x-signature';
  if (readHeader(r.headers, r.scheme) === undefined && readHeader(r.headers, other) !== undefined) {
    return r.scheme === 'x-signature'
      ? 'the request carries x-simplified-signature, which only the card push takes; sign this endpoint with x-signature (merchant id + timestamp + method + full URL + body)'
      : 'the card push is signed with x-simplified-signature (merchant id + timestamp + payin id), not x-signature';
  }
  for (const name of ['x_merchant_id', 'x_timestamp', 'x_signature', 'x_simplified_signature']) {
    if (readHeader(r.headers, name) !== undefined) return `a header is named ${name}: the names use hyphens (${name.replaceAll('_', '-')})`;
  }
  return undefined;
}

function malformedTimestamp(sent: string): string | undefined {
  if (/^[0-9]+\.[0-9]+$/.test(sent))
    return 'x-timestamp has a fraction: send whole unix seconds (Math.floor(Date.now() / 1000), int(time.time()))';
  if (/^\s|\s$/.test(sent)) return 'x-timestamp has white space around it: send the digits alone';
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(sent)) return 'x-timestamp is a date: send unix seconds in decimal digits';
  return undefined;
}

function clockOffset(sent: string, now: number): string | undefined {
  if (!/^[0-9]{1,16}$/.test(sent)) return undefined;
  const ts = Number(sent);
  if (sent.length >= 13 && Math.abs(Math.floor(ts / 1000) - now) <= 24 * 3600) {
    return 'x-timestamp looks like milliseconds: send whole seconds (Math.floor(Date.now() / 1000))';
  }
  const offset = ts - now;
  const way = offset < 0 ? 'behind' : 'ahead of';
  return (
    `x-timestamp is ${Math.abs(offset)} s ${way} the sandbox's clock (x-timestamp ${sent}, sandbox ${now}): ` +
    (Math.abs(offset) < 24 * 3600
      ? "set the signing machine's clock (NTP), or stop reusing a timestamp from an earlier request"
      : 'send the current unix time in seconds')
  );
}

function unknownMerchant(r: Refusal): string | undefined {
  const claimed = readHeader(r.headers, 'x-merchant-id') ?? '';
  if (r.pushMerchant !== undefined) {
    return r.merchants.has(claimed)
      ? `this push address belongs to a payin of merchant ${r.pushMerchant.id}: sign it as that merchant`
      : `x-merchant-id names no merchant of this sandbox; this push address belongs to merchant ${r.pushMerchant.id}`;
  }
  const near = [...r.merchants.keys()].find((id) => id.toLowerCase() === claimed.trim().toLowerCase());
  if (near !== undefined) return `x-merchant-id differs from merchant ${near} only in case or white space: send the id exactly`;
  const ids = [...r.merchants.keys()];
  const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? `, and ${ids.length - 10} more` : '');
  return `x-merchant-id names no merchant of this sandbox; its merchants are ${shown}`;
}

function malformedSignature(sent: string): string | undefined {
  if (/^sha256=/i.test(sent)) return `the signature has a sha256= prefix: send the 64 hex characters alone`;
  if (/^[A-Za-z0-9+/]{43}=$/.test(sent) || /^[A-Za-z0-9_-]{43}$/.test(sent))
    return 'the signature looks like base64: send the HMAC as 64 hexadecimal characters';
  if (/^[0-9a-fA-F]{128}$/.test(sent)) return 'the signature has 128 hex characters, the length of SHA-512: use HMAC-SHA256';
  if (/^[0-9a-fA-F]{64}$/.test(sent.trim())) return 'the signature has white space around it: send the 64 hex characters alone';
  return undefined;
}

type Message = string | Uint8Array;
/** A variant: what the caller may have signed, with which secret, and the words for it. */
type Variant = [secret: string, message: Message, what: string];

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Text followed by bytes, as one message. */
function join(head: string, body: Uint8Array): Message {
  if (body.byteLength === 0) return head;
  const start = encoder.encode(head);
  const out = new Uint8Array(start.byteLength + body.byteLength);
  out.set(start);
  out.set(body, start.byteLength);
  return out;
}

function firstMatch(variants: Iterable<Variant>, signature: string): string | undefined {
  for (const [secret, message, what] of variants) if (signatureMatches({ secret, message, signature })) return what;
  return undefined;
}

function* signatureVariants(r: Refusal, merchant: Merchant, ts: string): Generator<Variant> {
  const { method, url, body } = r;
  const id = merchant.id;
  const S = merchant.secret;
  const signedBody = method === 'GET' ? new Uint8Array(0) : body;
  const sign = (u: string, b: Uint8Array = signedBody, m = method): Message => join(`${id}${ts}${m}${u}`, b);
  const parts = /^(https?):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url);
  if (parts !== null) {
    const [, scheme, authority, path = '', query = ''] = parts;
    const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    yield [
      S,
      sign(`${scheme}://${authority}${toggled}${query}`),
      path.endsWith('/')
        ? `the URL without its trailing slash (${toggled}): sign exactly the URL you call, ${path}`
        : `the URL with a trailing slash (${toggled}): sign exactly the URL you call, ${path}`,
    ];
    if (query)
      yield [
        S,
        sign(`${scheme}://${authority}${path}`),
        `the URL without its query string: sign the whole URL you call, ${maskedCut(query, 80)} included`,
      ];
    yield [
      S,
      sign(`${path}${query}`),
      `the path alone (${path}), without scheme and host: sign the full URL, ${scheme}://${authority}${path}`,
    ];
    const other = scheme!.toLowerCase() === 'https' ? 'http' : 'https';
    yield [
      S,
      sign(`${other}://${authority}${path}${query}`),
      `the ${other}:// form of the URL: sign the URL exactly as called, ${scheme}://`,
    ];
    const [host, port] = splitAuthority(authority!);
    for (const alias of loopbackAliases(host)) {
      yield [
        S,
        sign(`${scheme}://${alias}${port}${path}${query}`),
        `the URL with host ${alias}${port}: the request was sent to ${authority}; sign the host you call`,
      ];
    }
    if (port) yield [S, sign(`${scheme}://${host}${path}${query}`), `the URL without its port (${host}): sign the full host, ${authority}`];
  }
  yield [
    S,
    sign(url, signedBody, method.toLowerCase()),
    `the method in lower case (${method.toLowerCase()}): sign it in capitals, ${method}`,
  ];
  if (method === 'GET') {
    if (body.byteLength > 0) yield [S, sign(url, body), 'the URL and the body sent with this GET: the body part is empty for GET requests'];
    yield [S, sign(url, encoder.encode('{}')), 'a body of {}: the body part is empty for GET requests'];
  } else {
    if (body.byteLength > 0) yield [S, sign(url, new Uint8Array(0)), 'no body: sign the exact body bytes you send'];
    for (const [text, what] of reserialised(body))
      yield [
        S,
        sign(url, encoder.encode(text)),
        `${what}, not the bytes sent: sign the exact bytes you send (serialise once, sign and send that string)`,
      ];
  }
  for (const drift of [-1, 1])
    yield [
      S,
      join(`${id}${BigInt(ts) + BigInt(drift)}${method}${url}`, signedBody),
      `a timestamp one second ${drift < 0 ? 'before' : 'after'} x-timestamp: read the time once, and sign and send that same value`,
    ];
  yield [`${S}\n`, sign(url), 'the secret followed by a newline: trim the secret where it is read (a file or an environment variable)'];
  let tried = 0;
  for (const other of r.merchants.values()) {
    if (other.id === id || tried++ >= OTHER_MERCHANTS_TRIED) continue;
    yield [
      other.secret,
      sign(url),
      `the secret of merchant ${other.id}, while x-merchant-id names ${id}: sign with the secret of the merchant you name`,
    ];
    yield [
      S,
      join(`${other.id}${ts}${method}${url}`, signedBody),
      `a string to sign that begins with merchant ${other.id}'s id, while x-merchant-id names ${id}: the string starts with the id you send in x-merchant-id`,
    ];
    yield [
      other.secret,
      join(`${other.id}${ts}${method}${url}`, signedBody),
      `merchant ${other.id}'s id and secret, while x-merchant-id names ${id}: send x-merchant-id ${other.id}`,
    ];
  }
}

function signatureVariant(r: Refusal): string | undefined {
  const id = readHeader(r.headers, 'x-merchant-id');
  const merchant = id === undefined ? undefined : r.merchants.get(id);
  const ts = readHeader(r.headers, 'x-timestamp');
  const signature = readHeader(r.headers, 'x-signature');
  if (merchant === undefined || ts === undefined || signature === undefined) return undefined;
  const what = firstMatch(signatureVariants(r, merchant, ts), signature);
  return what === undefined ? undefined : `the signature matches ${what}`;
}

function* simplifiedVariants(r: Refusal, merchant: Merchant, ts: string): Generator<Variant> {
  const { id, secret } = merchant;
  const payinId = r.payinId ?? '';
  yield [
    secret,
    `${id}${ts}${r.method}${payinId}`,
    `merchant id + timestamp + ${r.method} + payin id: the method is not part of x-simplified-signature (merchant id + timestamp + payin id)`,
  ];
  yield [
    secret,
    `${id}${ts}${r.method.toLowerCase()}${payinId}`,
    `merchant id + timestamp + ${r.method.toLowerCase()} + payin id: the method is not part of x-simplified-signature`,
  ];
  yield [
    secret,
    join(`${id}${ts}${r.method}${r.url}`, r.body),
    "x-signature's string (method, URL and body): the card push signs merchant id + timestamp + payin id only",
  ];
  const bodyPayin = payinIdOf(r.body);
  if (bodyPayin !== undefined && bodyPayin !== payinId) {
    yield [
      secret,
      `${id}${ts}${bodyPayin}`,
      `payin id ${bodyPayin}, which is not the payin of this push address: push each card to its own payin's next_action.url`,
    ];
  }
  yield [`${secret}\n`, `${id}${ts}${payinId}`, 'the secret followed by a newline: trim the secret where it is read'];
  let tried = 0;
  for (const other of r.merchants.values()) {
    if (other.id === id || tried++ >= OTHER_MERCHANTS_TRIED) continue;
    yield [
      other.secret,
      `${id}${ts}${payinId}`,
      `the secret of merchant ${other.id}: sign with the secret of merchant ${id}, whose payin this is`,
    ];
  }
}

function simplifiedVariant(r: Refusal): string | undefined {
  const merchant = r.pushMerchant;
  const ts = readHeader(r.headers, 'x-timestamp');
  const signature = readHeader(r.headers, 'x-simplified-signature');
  if (merchant === undefined || ts === undefined || signature === undefined) return undefined;
  const what = firstMatch(simplifiedVariants(r, merchant, ts), signature);
  return what === undefined ? undefined : `the signature matches ${what}`;
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

/**
 * The body as the serialisers merchants use would have written it, when that differs from the
 * bytes received: minified (JSON.stringify, most frameworks), pretty-printed, and Python's
 * json.dumps defaults (`", "` and `": "`, non-ASCII escaped).
 */
function reserialised(body: Uint8Array): [string, string][] {
  let text: string;
  let value: unknown;
  try {
    text = decoder.decode(body);
    if (jsonNestingOver(text, RESERIALISE_DEPTH)) return [];
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
    [spaced, 'the body as Python\'s json.dumps writes it (", " and ": ")'],
    [asciiOnly(spaced), "the body as Python's json.dumps writes it (non-ASCII escaped as \\u)"],
    [asciiOnly(minified), 'the body minified with non-ASCII characters escaped as \\u'],
  ];
  const seen = new Set([text]);
  return forms.filter(([form]) => !seen.has(form) && seen.add(form) !== undefined);
}

/** JSON with Python's default separators: `", "` between items, `": "` after keys. */
function pythonStyle(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonStyle).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonStyle(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

function asciiOnly(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
